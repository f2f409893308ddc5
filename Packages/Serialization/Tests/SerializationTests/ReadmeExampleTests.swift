import Foundation
import Serialization
import Testing

@Suite("The README example")
struct ReadmeExampleTests {
    struct Settings: Codable { var userName: String; var lastOpened: Date }

    @Test("runs as written")
    func example() throws {
        let serializer = Serializer(.prettyJSON, options: CodingOptions(keys: .snakeCase))
        let settings = Settings(userName: "ada", lastOpened: Date(timeIntervalSince1970: 0))
        let text = try serializer.string(settings)
        #expect(text == "{\n  \"last_opened\": \"1970-01-01T00:00:00Z\",\n  \"user_name\": \"ada\"\n}")

        var tree = try serializer.tree(settings)  // edit the tree, then decode it
        tree["user_name"] = "grace"
        let edited = try tree.decode(Settings.self, decoder: serializer.decoder)
        #expect(edited.userName == "grace")
        var message = ""
        do {
            _ = try serializer.read(Settings.self, from: #"{"user_name": 1}"#)
        } catch {
            message = error.userMessage
        }
        #expect(message == "Expected String but found int in JSON at key path user_name.")
    }
}
