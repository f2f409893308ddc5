// libFuzzer entry point for the Serialization readers. Build and run with `Fuzz/fuzz.sh`.
import Foundation
import Serialization

private let formats: [any DataFormat] = [
    JSONFormat(), PropertyListFormat(.xml), PropertyListFormat(.binary),
]

private struct Record: Codable {
    var title: String
    var count: Int?
    var when: Date?
    var tags: [String]?
    var nested: [Record]?
}

/// libFuzzer calls this with each input; any crash, hang or failed round trip is a finding.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let data = Data(bytes: start, count: count)
    _ = Serializer.format(of: data)
    for format in formats {
        // Every reader must return a tree or a typed error, never crash or hang.
        guard let tree = try? format.tree(from: data) else { continue }
        _ = try? tree.decode(Record.self)
        _ = try? tree.decode([Record].self)
        // What was read must write and read back (NaN aside, which is never equal to itself).
        guard let written = try? format.data(from: tree) else { continue }
        guard let again = try? format.tree(from: written) else {
            fatalError("\(format.kind.name): output of the writer does not read back")
        }
        if format.kind == .json, again != tree {
            fatalError("JSON: tree changed in a round trip")
        }
    }
    return 0
}
