import Foundation
import Testing

@testable import Serialization

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#endif

/// The one-pass reader records offsets as `Int32`, so a document of 2 GiB or more must go to the
/// full reader before the scan starts; scanning first and checking after would trap on the first
/// offset past `Int32.max`.
@Suite("The one-pass JSON reader leaves documents of 2 GiB or more to the full reader")
struct JSONFastReaderSizeLimitTests {
    @Test("a buffer longer than Int32.max is refused without reading a byte of it")
    func refusesBeforeReading() throws {
        let count = Int(Int32.max) + 4096
        // Address space only, no memory: any read of it would crash the test, so the refusal
        // must come before the first byte is looked at.
        let region = mmap(nil, count, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0)
        #expect(region != MAP_FAILED)
        guard let region, region != MAP_FAILED else { return }
        defer { munmap(region, count) }
        var scanner = TapeScanner(
            bytes: UnsafeBufferPointer(start: region.assumingMemoryBound(to: UInt8.self), count: count),
            maximumDepth: KeyValue.defaultMaximumDepth)
        #expect(throws: GiveUp.self) { try scanner.document() }
        #expect(scanner.position == 0)
        #expect(scanner.tape.isEmpty)
    }

    @Test("a document under the limit is scanned to its end")
    func scansBelowTheLimit() throws {
        let text = Array("  [1, \"two\", {\"three\": 3}]  ".utf8)
        try text.withUnsafeBufferPointer { bytes in
            var scanner = TapeScanner(bytes: bytes, maximumDepth: KeyValue.defaultMaximumDepth)
            try scanner.document()
            #expect(scanner.position == bytes.count)
            #expect(scanner.tape.count == 6)
        }
    }
}
