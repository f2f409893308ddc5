import Foundation
import Serialization

/// Benchmarks of the Serialization package against its peers (see the package's issue for the targets).
enum SerializationBenchmarks {
    /// The mixed model of the issue: String, Int, Double, Date, Data, an optional, a nested array.
    struct Record: Codable, Equatable {
        struct Line: Codable, Equatable {
            var sku: String
            var quantity: Int
        }
        var id: Int
        var name: String
        var score: Double
        var created: Date
        var payload: Data
        var note: String?
        var lines: [Line]
    }

    static func records(_ count: Int) -> [Record] {
        (0..<count).map { index in
            Record(
                id: index, name: "Record number \(index)", score: Double(index) * 1.25 + 0.1,
                created: Date(timeIntervalSince1970: 1_700_000_000 + Double(index)),
                payload: Data((0..<16).map { UInt8(truncatingIfNeeded: index &+ $0) }),
                note: index.isMultiple(of: 2) ? "even" : nil,
                lines: [Record.Line(sku: "SKU-\(index)", quantity: index % 7), Record.Line(sku: "X", quantity: 1)])
        }
    }

    /// A record as version 1 wrote it: what `versioned-decode-5-steps-1k` reads, and the peer,
    /// a plain type that needs no migration, decodes.
    struct RecordV1: Codable {
        var identifier: Int
        var title: String
        var rating: Double
        var created: Date
        var lines: [Record.Line]
    }

    /// The same record, five versions on, as a hand-written chain of closures brings it there
    /// (the form the kit had before ModelGen generated steps; kept as a second figure).
    struct HandMigratedRecord: Codable, Versioned {
        static let version = 6
        static let migrations = [
            Migration(from: 1) { try $0.rename("identifier", to: "id") },
            Migration(from: 2) { try $0.rename("title", to: "name") },
            Migration(from: 3) { try $0.rename("rating", to: "score") },
            Migration(from: 4) { $0["flagged"] = .bool(false) },
            Migration(from: 5) { $0["note"] = .string("migrated") },
        ]
        var id: Int
        var name: String
        var score: Double
        var created: Date
        var flagged: Bool
        var note: String
        var lines: [Record.Line]
    }

    static func cases() async throws -> [BenchmarkCase] {
        var cases: [BenchmarkCase] = []
        for count in [1_000, 100_000] {
            let records = records(count)
            let suffix = count == 1_000 ? "1k" : "100k"

            let json = Serializer(.json)
            let ourJSON = try json.data(records)
            let theirJSON = try JSONEncoder().encode(records)
            cases.append(
                BenchmarkCase(
                    suite: "serialization", name: "json-encode-\(suffix)", peer: "JSONEncoder", target: 0.9,
                    ours: { _ = try json.data(records) }, theirs: { _ = try JSONEncoder().encode(records) },
                    metrics: { ["ours_bytes": Double(ourJSON.count), "peer_bytes": Double(theirJSON.count)] }))
            cases.append(
                BenchmarkCase(
                    suite: "serialization", name: "json-decode-\(suffix)", peer: "JSONDecoder", target: 0.9,
                    ours: { _ = try json.read([Record].self, from: ourJSON) },
                    theirs: { _ = try JSONDecoder().decode([Record].self, from: theirJSON) }))

            let binary = Serializer(.binaryPropertyList)
            let ourPlist = try binary.data(records)
            let plistEncoder = PropertyListEncoder()
            plistEncoder.outputFormat = .binary
            let theirPlist = try plistEncoder.encode(records)
            cases.append(
                BenchmarkCase(
                    suite: "serialization", name: "bplist-encode-\(suffix)", peer: "PropertyListEncoder",
                    target: 0.9, ours: { _ = try binary.data(records) },
                    theirs: { _ = try plistEncoder.encode(records) },
                    metrics: { ["ours_bytes": Double(ourPlist.count), "peer_bytes": Double(theirPlist.count)] }))
            cases.append(
                BenchmarkCase(
                    suite: "serialization", name: "bplist-decode-\(suffix)", peer: "PropertyListDecoder",
                    target: 0.9, ours: { _ = try binary.read([Record].self, from: ourPlist) },
                    theirs: { _ = try PropertyListDecoder().decode([Record].self, from: theirPlist) }))
        }

        let json = Serializer(.json)
        let v1 = try json.data(
            records(1_000).map {
                RecordV1(identifier: $0.id, title: $0.name, rating: $0.score, created: $0.created, lines: $0.lines)
            })
        // EvolvedRecord is ModelGen's output for a six-version design (Suites/EvolvedRecord,
        // checked against ModelGen by BenchmarkModelTests): five generated steps.
        let migrated = try json.read([EvolvedRecord].self, from: v1)
        guard migrated.count == 1_000, migrated[1].id == 1, migrated[1].name == "Record number 1",
            migrated[1].note == "migrated", !migrated[1].flagged, migrated[1].lines.count == 2,
            try json.read([HandMigratedRecord].self, from: v1)[1].note == "migrated"
        else {
            throw SerializationError.malformed("the migrated benchmark data is wrong", .init())
        }
        cases.append(
            BenchmarkCase(
                suite: "serialization", name: "versioned-decode-5-steps-1k", peer: "plain decode", target: 0.8,
                ours: { _ = try json.read([EvolvedRecord].self, from: v1) },
                theirs: { _ = try json.read([RecordV1].self, from: v1) }))
        cases.append(
            BenchmarkCase(
                suite: "serialization", name: "versioned-decode-5-closure-steps-1k", peer: "plain decode",
                ours: { _ = try json.read([HandMigratedRecord].self, from: v1) },
                theirs: { _ = try json.read([RecordV1].self, from: v1) }))
        return cases
    }
}
