import Foundation
import Testing

@testable import Serialization

/// `Serializer.reader(for:)` reads many documents of one type, each exactly as `read` does.
@Suite("A serializer's reader reads each document as read does")
struct SerializerReaderTests {
    struct Note: Codable, Equatable {
        var id: Int
        var title: String
        var score: Double?
    }

    struct Dated: Codable, Equatable {
        var id: Int
        var when: Date
    }

    /// What `body` gives, or its error, as text.
    func outcome<T>(_ body: () throws -> T) -> String {
        do { return "\(try body())" } catch { return "error: \(error)" }
    }

    @Test(
        "good, bad and odd documents in a row give read's answers",
        arguments: [Serializer(.json), Serializer(.prettyJSON), Serializer(.xmlPropertyList)])
    func mixedDocuments(serializer: Serializer) throws {
        let good = try (0..<20).map {
            try serializer.data(Note(id: $0, title: "note \($0)", score: $0 % 3 == 0 ? nil : 1.5))
        }
        let odd = [
            Data(#"{"id":1,"title":"a","id":2}"#.utf8), Data(#"{"id":1.0,"title":"integral"}"#.utf8),
            Data(#"{"id":"x","title":"a"}"#.utf8), Data("not json".utf8), Data(), Data([0xFF, 0xFE]),
        ]
        let reader = serializer.reader(for: Note.self)
        for data in good + odd + good.reversed() {
            #expect(outcome { try reader.read(from: data) } == outcome { try serializer.read(Note.self, from: data) })
        }
        #expect(try reader.read(from: good[4]) == Note(id: 4, title: "note 4", score: 1.5))
    }

    @Test("a type only the two-phase reader handles is read by it, document after document")
    func datedModels() throws {
        let json = Serializer(.json)
        let reader = json.reader(for: Dated.self)
        for id in 0..<5 {
            let value = Dated(id: id, when: Date(timeIntervalSince1970: Double(id) * 1000))
            #expect(try reader.read(from: json.data(value)) == value)
        }
        #expect(JSONFastReader.kind(of: Dated.self) == .unhandled)
    }

    @Test("a reader made with a key strategy applies it")
    func keyStrategy() throws {
        struct Person: Codable, Equatable { var firstName: String }
        let snake = Serializer(.json, options: CodingOptions(keys: .snakeCase))
        let reader = snake.reader(for: Person.self)
        #expect(try reader.read(from: Data(#"{"first_name":"Ada"}"#.utf8)) == Person(firstName: "Ada"))
        #expect(throws: SerializationError.self) { try reader.read(from: Data(#"{"firstName":"Ada"}"#.utf8)) }
    }

    @Test("readers in many tasks at once each read their own documents")
    func concurrentReaders() async throws {
        let json = Serializer(.json)
        let results = try await withThrowingTaskGroup(of: Bool.self) { group in
            for task in 0..<8 {
                group.addTask {
                    let reader = json.reader(for: Note.self)
                    for id in 0..<500 {
                        let note = Note(id: task * 1000 + id, title: "t\(task)-\(id)", score: Double(id))
                        guard try reader.read(from: json.data(note)) == note else { return false }
                        // Single reads share tapes between tasks: they must not mix either.
                        guard try json.read(Note.self, from: json.data(note)) == note else { return false }
                    }
                    return true
                }
            }
            return try await group.reduce(into: [Bool]()) { $0.append($1) }
        }
        #expect(results == Array(repeating: true, count: 8))
    }

    @Test(
        "reading from memory someone else owns gives what reading Data gives",
        arguments: [
            #"{"id":7,"title":"seven","score":2.5}"#, #"{"id":7.0,"title":"integral"}"#, #"{"id":1}"#, "", "[",
        ])
    func fromMemory(_ text: String) {
        let json = Serializer(.json)
        let reader = json.reader(for: Note.self)
        let bytes = Array(text.utf8)
        let fromMemory = outcome { try bytes.withUnsafeBytes { try reader.read(from: $0) } }
        #expect(fromMemory == outcome { try json.read(Note.self, from: Data(text.utf8)) })
        #expect(outcome { try reader.read(from: UnsafeRawBufferPointer(start: nil, count: 0)) }.hasPrefix("error:"))
    }
}
