import Foundation

/// A single model on a server at a fixed path, such as `users/:user/profile`: `fetch` is
/// `GET`, `save` is `PUT` and `destroy` is `DELETE`, with 422 replies mapped to
/// ``RemoteError/validationFailed(_:request:)``.
public struct RemoteResource<Element: Codable & Sendable>: Sendable {
    /// The client the requests go through.
    public let client: HTTPClient
    /// The resource's path.
    public var path: URLTemplate
    /// Values for the template's parameters.
    public var parameters: [String: String]

    /// A resource at `path` (relative to the client's base URL).
    public init(client: HTTPClient, path: URLTemplate, parameters: [String: String] = [:]) {
        self.client = client
        self.path = path
        self.parameters = parameters
    }

    /// The model: `GET path`.
    public func fetch() async throws -> Element {
        try await client.get(try path.expand(parameters))
    }

    /// Replaces the model: `PUT path`, returning the server's copy.
    public func save(_ element: Element) async throws -> Element {
        try await mappingValidation { try await client.put(try path.expand(parameters), json: element) }
    }

    /// Deletes the model: `DELETE path`.
    public func destroy() async throws {
        try await mappingValidation { try await client.delete(try path.expand(parameters)) }
    }
}
