import Commands
import Foundation
import Testing

/// The journal keeps every kind of command — empty, small plain values, large ones, ones holding
/// references, failed ones — and each reads back as it was recorded, also once the bounded
/// journal has wrapped around and overwritten its oldest records with commands of other kinds.
@Suite("Journal storage of commands")
struct JournalStorageTests {
    /// No fields: zero bytes.
    struct Tick: Command, Codable {
        func execute(_ model: inout Counter) throws { model.value += 1 }
    }

    /// Three words of plain data: fits an existential's inline buffer.
    struct Move: Command, Codable {
        var x: Int
        var y: Int
        var z: Int
        func execute(_ model: inout Counter) throws { model.value &+= x &+ y &+ z }
    }

    /// Four words of plain data: too large for the inline buffer.
    struct Wide: Command, Codable {
        var a: Int
        var b: Int
        var c: Int
        var d: Int
        func execute(_ model: inout Counter) throws { model.value += a + b + c + d }
    }

    /// Holds a reference (a string's storage).
    struct Note: Command, Codable {
        var text: String
        func execute(_ model: inout Counter) throws { model.log.append(text) }
    }

    /// Plain data, but a failure: recorded with its outcome.
    struct Refuse: Command, Codable {
        var code: Int
        func execute(_ model: inout Counter) throws { throw CocoaError(.featureUnsupported) }
    }

    @Test("each kind of command reads back with its input, in order, after the ring wrapped")
    func readsBack() throws {
        let runner = CommandRunner(store: ModelStore(Counter()), journalLimit: 7)
        let long = String(repeating: "a long note that does not fit in a small string ", count: 4)
        for round in 0..<5 {
            try runner.execute(Tick())
            try runner.execute(Move(x: round, y: -round, z: Int.max - round))
            try runner.execute(Wide(a: round, b: 2, c: 3, d: 4))
            try runner.execute(Note(text: "\(round) \(long)"))
            _ = try? runner.execute(Refuse(code: round))
        }
        let journal = runner.journal
        // The last 7 of 25 records: rounds 3 (its last two) and 4 (all five).
        #expect(journal.map(\.name) == ["Note", "Refuse", "Tick", "Move", "Wide", "Note", "Refuse"])
        let decoder = JSONDecoder()
        #expect(try decoder.decode(Note.self, from: try #require(journal[0].input)).text == "3 \(long)")
        #expect(try decoder.decode(Refuse.self, from: try #require(journal[1].input)).code == 3)
        #expect(journal[1].outcome != .succeeded)
        #expect(journal[2].input.map { String(decoding: $0, as: UTF8.self) } == "{}")
        let move = try decoder.decode(Move.self, from: try #require(journal[3].input))
        #expect((move.x, move.y, move.z) == (4, -4, Int.max - 4))
        let wide = try decoder.decode(Wide.self, from: try #require(journal[4].input))
        #expect((wide.a, wide.b, wide.c, wide.d) == (4, 2, 3, 4))
        #expect(try decoder.decode(Note.self, from: try #require(journal[5].input)).text == "4 \(long)")
        #expect(journal.filter { $0.outcome == .succeeded }.count == 5)
    }

    @Test("a command overwriting a record of its own kind, or of another, reads back with its own input")
    func overwritesInPlace() throws {
        let runner = CommandRunner(store: ModelStore(Counter()), journalLimit: 4)
        // Many times round the ring with one plain inline kind: each record is written over the
        // oldest, which holds the same kind.
        for step in 0..<23 { try runner.execute(Move(x: step, y: step * 2, z: -step)) }
        let decoder = JSONDecoder()
        let moves = try runner.journal.map { try decoder.decode(Move.self, from: try #require($0.input)) }
        #expect(moves.map(\.x) == [19, 20, 21, 22])
        #expect(moves.map(\.y) == [38, 40, 42, 44])
        #expect(moves.map(\.z) == [-19, -20, -21, -22])
        // Then kinds taking each other's places: a plain one over a string-holding one, a wide
        // one over a plain one, and back.
        let long = String(repeating: "not a small string ", count: 8)
        for step in 0..<9 {
            switch step % 3 {
            case 0: try runner.execute(Note(text: "\(step) \(long)"))
            case 1: try runner.execute(Move(x: step, y: 0, z: 0))
            default: try runner.execute(Wide(a: step, b: 0, c: 0, d: 0))
            }
        }
        let journal = runner.journal
        #expect(journal.map(\.name) == ["Wide", "Note", "Move", "Wide"])
        #expect(try decoder.decode(Wide.self, from: try #require(journal[0].input)).a == 5)
        #expect(try decoder.decode(Note.self, from: try #require(journal[1].input)).text == "6 \(long)")
        #expect(try decoder.decode(Move.self, from: try #require(journal[2].input)).x == 7)
        #expect(try decoder.decode(Wide.self, from: try #require(journal[3].input)).a == 8)
    }
}
