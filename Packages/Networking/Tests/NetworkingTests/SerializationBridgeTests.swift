import Foundation
import Networking
import NetworkingTesting
import Serialization
import Testing

@Suite("JSON through Serialization")
struct SerializationBridgeTests {
    struct Event: Codable, Sendable, Equatable {
        var name: String
        var at: Date
    }

    @Test("request bodies are Serialization's JSON: sorted keys, ISO 8601 dates in UTC")
    func encodesThroughSerializer() async throws {
        try await withServer { server throws in
            await server.route("POST /api/events") { request in Reply(body: request.body) }
            let client = HTTPClient(baseURL: server.apiURL)
            let event = Event(name: "launch", at: Date(timeIntervalSince1970: 0))
            let response = try await client.post("events", body: .json(event))
            let expected = try Serializer(.json).data(event)
            #expect(response.body == expected)
            #expect(response.text?.contains("1970-01-01T00:00:00Z") == true)
            #expect(try response.decode(Event.self) == event)
        }
    }

    @Test("a custom coder replaces the default")
    func customCoder() async throws {
        try await withServer { server throws in
            await server.route("GET /api/event") { _ in .json(#"{"name":"x","at":0}"#) }
            let client = HTTPClient(baseURL: server.apiURL)
            await #expect(throws: HTTPClientError.self) {
                let _: Event = try await client.get("event")
            }
            client.jsonCoder = JSONBodyCoder(
                encode: { try JSONEncoder().encode($0) },
                decode: { type, data in
                    let decoder = JSONDecoder()
                    decoder.dateDecodingStrategy = .secondsSince1970
                    return try decoder.decode(type, from: data)
                })
            let event: Event = try await client.get("event")
            #expect(event == Event(name: "x", at: Date(timeIntervalSince1970: 0)))
        }
    }
}
