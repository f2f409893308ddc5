import Foundation
import Networking
import NetworkingTesting
import Testing

/// An id or parameter that could address another resource — `..`, `.`, empty, with `/` or a
/// control character — is refused with a typed error before anything is sent.
@Suite("URL template segments")
struct URLTemplateSegmentTests {
    struct Tag: Codable, Identifiable, Sendable, Equatable {
        var id: String
    }

    static let refused: [(String, SegmentProblem)] = [
        ("..", .dotSegment), (".", .dotSegment), ("", .empty), ("a/b", .slash), ("../admin", .slash),
        ("a\nb", .controlCharacter), ("a\u{0}", .controlCharacter), ("\u{7F}", .controlCharacter),
    ]

    @Test("destroy, fetch and save refuse a bad id and send nothing")
    func memberIDs() async throws {
        try await withServer { server throws in
            await server.route("/api/*") { _ in .json("{}") }
            let client = HTTPClient(baseURL: server.apiURL)
            for path in ["tags", "tags/:id", "users/:user/tags/:id"] {
                let remote = RemoteCollection<Tag>(client: client, path: path, parameters: ["user": "7"])
                for (id, problem) in Self.refused {
                    let error = await #expect(throws: RemoteError.self) { try await remote.destroy(id: id) }
                    guard case .invalidSegment(let value, let parameter, let template, let found) = error else {
                        Issue.record(
                            "expected invalidSegment for \(id.debugDescription), got \(String(describing: error))")
                        continue
                    }
                    #expect(value == id && parameter == "id" && template == path && found == problem)
                    await #expect(throws: RemoteError.self) { try await remote.fetch(id: id) }
                    await #expect(throws: RemoteError.self) { _ = try await remote.save(Tag(id: id)) }
                }
            }
            #expect(server.requests.isEmpty)
        }
    }

    @Test("every template parameter is checked, for collections and single resources")
    func otherParameters() async throws {
        try await withServer { server throws in
            await server.route("/api/*") { _ in .json("{}") }
            let client = HTTPClient(baseURL: server.apiURL)
            let collection = RemoteCollection<Tag>(client: client, path: "users/:user/tags", parameters: ["user": ".."])
            await #expect(throws: RemoteError.self) { _ = try await collection.fetchAll() }
            let resource = RemoteResource<Tag>(client: client, path: "users/:user/profile", parameters: ["user": ""])
            await #expect(throws: RemoteError.self) { _ = try await resource.fetch() }
            await #expect(throws: RemoteError.self) { try await resource.destroy() }
            #expect(server.requests.isEmpty)
        }
    }

    @Test("the error says which value, parameter and template")
    func message() {
        let template: URLTemplate = "notes/:id"
        let error = #expect(throws: RemoteError.self) { try template.expand(["id": ".."]) }
        #expect(
            error?.message
                == "The value \"..\" for \":id\" in the URL template \"notes/:id\" cannot be a path segment: "
                + "\".\" and \"..\" would address the resource itself or its parent.")
    }

    @Test("ordinary values, dots inside them and escapes are encoded as one segment and sent")
    func goodValues() async throws {
        try await withServer { server throws in
            await server.route("DELETE /api/tags/*") { _ in Reply(status: 204) }
            let client = HTTPClient(baseURL: server.apiURL)
            let remote = RemoteCollection<Tag>(client: client, path: "tags/:id")
            for id in ["a..b", "...", ".hidden", "%2E%2E", "café", "a b"] {
                try await remote.destroy(id: id)
            }
            // The test server decodes paths once, as servers do.
            #expect(
                server.requests.map(\.path) == [
                    "/api/tags/a..b", "/api/tags/...", "/api/tags/.hidden", "/api/tags/%2E%2E", "/api/tags/café",
                    "/api/tags/a b",
                ])
        }
    }
}
