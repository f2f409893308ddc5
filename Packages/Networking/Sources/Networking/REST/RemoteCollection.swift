import Foundation

/// A collection of models on a server, synced over REST (iStructure's ISCollection):
/// `fetchAll` is `GET path`, `fetch` is `GET path/id`, `save` is `POST path` for a new model
/// (its id assigned from the reply) or `PUT path/id`, and `destroy` is `DELETE path/id`.
///
/// ```swift
/// let remote = RemoteCollection<Note>(client: client, path: "users/:user/notes", parameters: ["user": "7"])
/// var note = try await remote.save(Note(id: nil, text: "draft"))
/// ```
///
/// A model is new when its `id` is nil (an optional id) — 422 replies become
/// ``RemoteError/validationFailed(_:request:)`` with the server's ``FieldErrors``.
public struct RemoteCollection<Element: Codable & Identifiable & Sendable>: Sendable {
    /// The client the requests go through.
    public let client: HTTPClient
    /// The collection's path; a trailing `:id` segment names where a member's id goes.
    public var path: URLTemplate
    /// Values for the template's other parameters.
    public var parameters: [String: String]

    /// A collection at `path` (relative to the client's base URL).
    public init(client: HTTPClient, path: URLTemplate, parameters: [String: String] = [:]) {
        self.client = client
        self.path = path
        self.parameters = parameters
    }

    /// A collection at `path` (relative to the client's base URL).
    public init(client: HTTPClient, path: String, parameters: [String: String] = [:]) {
        self.init(client: client, path: URLTemplate(path), parameters: parameters)
    }

    /// Every model: `GET path`.
    public func fetchAll(query: [String: String] = [:]) async throws -> [Element] {
        try await mappingValidation {
            try await client.get(try collectionPath(), query: query)
        }
    }

    /// One model: `GET path/id`.
    ///
    /// - Throws: ``RemoteError/invalidSegment(_:parameter:template:problem:)`` before sending
    ///   anything when the id is empty, `.` or `..`, or holds `/` or a control character.
    public func fetch(id: Element.ID) async throws -> Element {
        guard let member = try memberPath(for: id) else { throw RemoteError.missingID(path: try collectionPath()) }
        return try await client.get(member)
    }

    /// Creates the model when it is new (`POST`, returning it with the id the server gave),
    /// otherwise updates it (`PUT path/id`), returning the server's copy.
    public func save(_ element: Element) async throws -> Element {
        try await mappingValidation {
            if let member = try memberPath(for: element.id) {
                return try await client.put(member, json: element)
            }
            return try await client.post(try collectionPath(), json: element)
        }
    }

    /// Deletes the model: `DELETE path/id`.
    ///
    /// - Throws: ``RemoteError/missingID(path:)`` for a model that was never saved.
    public func destroy(_ element: Element) async throws {
        try await destroy(id: element.id)
    }

    /// Deletes the model with `id`: `DELETE path/id`.
    ///
    /// - Throws: ``RemoteError/invalidSegment(_:parameter:template:problem:)`` before sending
    ///   anything when the id is empty, `.` or `..`, or holds `/` or a control character — so
    ///   `destroy(id: "..")` never deletes the parent resource.
    public func destroy(id: Element.ID) async throws {
        guard let member = try memberPath(for: id) else { throw RemoteError.missingID(path: try collectionPath()) }
        try await mappingValidation { try await client.delete(member) }
    }

    func collectionPath() throws -> String {
        try path.removingTrailing("id").expand(parameters)
    }

    func memberPath(for id: Element.ID) throws -> String? {
        guard let segment = IdentifierText.text(of: id) else { return nil }
        if path.contains("id") {
            return try path.expand(parameters.merging(["id": segment]) { _, new in new })
        }
        return try collectionPath() + "/" + path.encodeSegment(segment, parameter: "id")
    }
}

/// Turns a 422 into ``RemoteError/validationFailed(_:request:)``.
@discardableResult
func mappingValidation<T: Sendable>(_ body: () async throws -> T) async throws -> T {
    do {
        return try await body()
    } catch let error as HTTPClientError {
        if case .unacceptableStatus(let status, let data, _, let request) = error, status == .unprocessableContent {
            throw RemoteError.validationFailed(FieldErrors(body: data), request: request.description)
        }
        throw error
    }
}

/// The text of an id for a URL, or nil when it is an optional holding nothing.
enum IdentifierText {
    static func text(of id: some Hashable) -> String? {
        if let optional = id as? any OptionalIdentifier { return optional.unwrappedText }
        return "\(id)"
    }
}

/// Lets an `Optional` id say whether it holds a value.
protocol OptionalIdentifier {
    var unwrappedText: String? { get }
}

extension Optional: OptionalIdentifier {
    var unwrappedText: String? {
        guard case .some(let value) = self else { return nil }
        if let nested = value as? any OptionalIdentifier { return nested.unwrappedText }
        return "\(value)"
    }
}
