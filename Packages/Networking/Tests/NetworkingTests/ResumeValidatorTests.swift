import Foundation
import Networking
import NetworkingTesting
import Testing
import _KitSupport

/// A partial download resumes only for the URL and the version it came from, so a resumed file
/// is never spliced from two files or two versions.
@Suite("Resuming downloads")
struct ResumeValidatorTests {
    static let size = 300_000

    /// Downloads `path` once, cut off by the server after `cut` bytes; leaves the partial file.
    static func interrupted(
        _ client: HTTPClient, _ path: String, to destination: URL, file: ServedFile, cut: Int = 100_000
    ) async throws {
        file.update { $0.cutAfter = cut }
        client.retryPolicy = .never
        await #expect(throws: HTTPClientError.self) { try await client.download(path, to: destination) }
        #expect(FileManager.default.fileExists(atPath: destination.path + ".partial"))
        client.retryPolicy = .standard
    }

    static func partialSize(_ destination: URL) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: destination.path + ".partial"))?[.size] as? Int) ?? 0
    }

    @Test("an interrupted download resumes with Range and If-Range and completes the file")
    func sameVersion() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try await withServer { server throws in
            let bytes = Data.pattern(count: Self.size)
            let file = ServedFile(content: bytes, etag: "\"v1\"")
            await server.serve("GET /api/files/a.bin", file)
            let client = HTTPClient(baseURL: server.apiURL)
            let destination = directory.url.appendingPathComponent("a.bin")
            try await Self.interrupted(client, "files/a.bin", to: destination, file: file)
            let offset = Self.partialSize(destination)
            #expect(offset > 0 && offset < Self.size)
            let fractions = Locked<[Double]>([])
            try await client.download("files/a.bin", to: destination) { progress in
                fractions.withLock { $0.append(progress.fractionCompleted) }
            }
            #expect(try Data(contentsOf: destination) == bytes)
            let last = try #require(file.seen.withLock { $0.last })
            #expect(last.range == "bytes=\(offset)-")
            #expect(last.ifRange == "\"v1\"")
            #expect(fractions.withLock { $0.first } == Double(offset) / Double(Self.size))
            #expect(fractions.withLock { $0.last } == 1)
            #expect(!FileManager.default.fileExists(atPath: destination.path + ".partial.validator"))
        }
    }

    @Test("a partial file of one URL is never resumed from another, even with the same ETag")
    func anotherURL() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try await withServer { server throws in
            // FlyingFox's own ETag is mtime-size: two files of one size and time share it.
            let a = ServedFile(content: Data(repeating: 0xAA, count: Self.size), etag: "\"65f0-493e0\"")
            let b = ServedFile(content: Data.pattern(count: Self.size), etag: "\"65f0-493e0\"")
            await server.serve("GET /api/files/a.bin", a)
            await server.serve("GET /api/files/b.bin", b)
            let client = HTTPClient(baseURL: server.apiURL)
            let destination = directory.url.appendingPathComponent("download.bin")
            try await Self.interrupted(client, "files/a.bin", to: destination, file: a)
            try await client.download("files/b.bin", to: destination)
            #expect(try Data(contentsOf: destination) == Data.pattern(count: Self.size))
            #expect(b.seen.withLock { $0.map { $0.range } } == [nil])
        }
    }

    @Test("a 206 of another version (the server ignored If-Range) is refused, and the download starts over")
    func anotherVersion() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try await withServer { server throws in
            let file = ServedFile(content: Data(repeating: 1, count: Self.size), etag: "\"v1\"")
            await server.serve("GET /api/files/a.bin", file)
            let client = HTTPClient(baseURL: server.apiURL)
            let destination = directory.url.appendingPathComponent("a.bin")
            try await Self.interrupted(client, "files/a.bin", to: destination, file: file)
            let second = Data.pattern(count: Self.size)
            file.update {
                $0.content = second
                $0.etag = "\"v2\""
            }
            try await client.download("files/a.bin", to: destination)
            #expect(try Data(contentsOf: destination) == second)
            let seen = file.seen.withLock { $0 }
            try #require(seen.count == 3)
            #expect(seen[1].ifRange == "\"v1\"")
            #expect(seen[2].range == nil)
        }
    }

    @Test("a weak ETag or a Last-Modified within 60 s of Date is not used in If-Range; the download starts over")
    func weakValidators() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try await withServer { server throws in
            let now = Date()
            let bytes = Data.pattern(count: Self.size)
            let recent = ServedFile(
                content: bytes, lastModified: HTTPFormat.string(now.addingTimeInterval(-10)),
                date: HTTPFormat.string(now))
            let weak = ServedFile(content: bytes, etag: "W/\"v1\"")
            await server.serve("GET /api/files/recent.bin", recent)
            await server.serve("GET /api/files/weak.bin", weak)
            let client = HTTPClient(baseURL: server.apiURL)
            for (path, file) in [("files/recent.bin", recent), ("files/weak.bin", weak)] {
                let destination = directory.url.appendingPathComponent(path.replacingOccurrences(of: "/", with: "-"))
                try await Self.interrupted(client, path, to: destination, file: file)
                try await client.download(path, to: destination)
                #expect(try Data(contentsOf: destination) == bytes)
                #expect(file.seen.withLock { $0.map { $0.range } } == [nil, nil], "\(path)")
                #expect(file.seen.withLock { $0.map { $0.ifRange } } == [nil, nil], "\(path)")
            }
        }
    }

    @Test("a Last-Modified at least 60 s before Date is strong: the download resumes with it")
    func strongLastModified() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try await withServer { server throws in
            let now = Date()
            let modified = HTTPFormat.string(now.addingTimeInterval(-7_200))
            let bytes = Data.pattern(count: Self.size)
            let file = ServedFile(content: bytes, lastModified: modified, date: HTTPFormat.string(now))
            await server.serve("GET /api/files/old.bin", file)
            let client = HTTPClient(baseURL: server.apiURL)
            let destination = directory.url.appendingPathComponent("old.bin")
            try await Self.interrupted(client, "files/old.bin", to: destination, file: file)
            try await client.download("files/old.bin", to: destination)
            #expect(try Data(contentsOf: destination) == bytes)
            let last = try #require(file.seen.withLock { $0.last })
            #expect(last.ifRange == modified)
            #expect(last.range?.hasPrefix("bytes=") == true)
        }
    }

    @Test("a 206 that starts elsewhere than the partial file ends is refused, and the download starts over")
    func anotherRange() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try await withServer { server throws in
            let bytes = Data.pattern(count: Self.size)
            let file = ServedFile(content: bytes, etag: "\"v1\"")
            await server.serve("GET /api/files/a.bin", file)
            let client = HTTPClient(baseURL: server.apiURL)
            let destination = directory.url.appendingPathComponent("a.bin")
            try await Self.interrupted(client, "files/a.bin", to: destination, file: file)
            file.update { $0.rangeShift = 1_000 }
            try await client.download("files/a.bin", to: destination)
            #expect(try Data(contentsOf: destination) == bytes)
            #expect(file.seen.withLock { $0.map { $0.range == nil } } == [true, false, true])
        }
    }

    @Test("a resume record in the old plain-text form is not trusted: the download starts over")
    func oldRecord() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try await withServer { server throws in
            let bytes = Data.pattern(count: Self.size)
            let file = ServedFile(content: bytes, etag: "\"v1\"")
            await server.serve("GET /api/files/a.bin", file)
            let client = HTTPClient(baseURL: server.apiURL)
            let destination = directory.url.appendingPathComponent("a.bin")
            try Data(repeating: 0xFF, count: 5_000).write(to: URL(fileURLWithPath: destination.path + ".partial"))
            try Data("\"v1\"".utf8).write(to: URL(fileURLWithPath: destination.path + ".partial.validator"))
            try await client.download("files/a.bin", to: destination)
            #expect(try Data(contentsOf: destination) == bytes)
            #expect(file.seen.withLock { $0.map { $0.range } } == [nil])
        }
    }
}
