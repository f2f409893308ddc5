import Errors
import Foundation
import Testing

private struct Opaque: Error {}
private struct Titled: Decodable { var title: String }

@Suite("userMessage on any error")
struct UserMessageTests {
    @Test("localized errors give their description")
    func localized() {
        struct Offline: LocalizedError { var errorDescription: String? { "You are offline." } }
        #expect((Offline() as any Error).userMessage == "You are offline.")
    }

    @Test("Foundation errors give their localized description")
    func foundation() {
        let error = NSError(domain: "Example", code: 7, userInfo: [NSLocalizedDescriptionKey: "Something broke."])
        #expect((error as any Error).userMessage == "Something broke.")
    }

    @Test("cancellation reads as a sentence")
    func cancellation() {
        #expect((CancellationError() as any Error).userMessage == "The operation was cancelled.")
    }

    @Test("decoding errors name the missing key and where it was expected")
    func decoding() throws {
        let data = Data(#"[{"title":"a"},{"name":"b"}]"#.utf8)
        do {
            _ = try JSONDecoder().decode([Titled].self, from: data)
            Issue.record("expected a decoding error")
        } catch {
            #expect(error.userMessage == "No value for key 'title' at '[1]'.")
        }
    }

    @Test("other errors fall back to their description")
    func opaque() {
        #expect((Opaque() as any Error).userMessage == "Opaque()")
    }

    @Test("coding paths are spelled with dots and subscripts")
    func codingPaths() {
        struct Key: CodingKey {
            var stringValue: String
            var intValue: Int?
            init(stringValue: String) { self.stringValue = stringValue }
            init(intValue: Int) {
                self.stringValue = "\(intValue)"
                self.intValue = intValue
            }
        }
        let path: [any CodingKey] = [Key(stringValue: "items"), Key(intValue: 2), Key(stringValue: "title")]
        #expect(CodingPath.string(path) == "items[2].title")
    }
}
