import Foundation
import Networking
import _KitSupport

/// A Networking `Transport` that answers from canned replies in memory, for unit tests that
/// need no sockets: give it to an `HTTPClient` and stub the routes the code under test calls.
///
/// Routes are matched by method and path (`"GET /api/notes"`; `*` matches one path segment),
/// the query ignored; the most recently added matching stub wins, so a test can override a
/// default. Every request is recorded in ``requests``, matched or not. A request no stub
/// matches fails with ``StubTransportError/unmatched(method:path:)`` rather than an invented
/// answer, so a test that forgets a stub says which one.
///
/// ```swift
/// let transport = StubTransport()
/// transport.stub("GET /api/notes", .json(#"[{"id":1}]"#))
/// let client = HTTPClient(baseURL: URL(string: "https://example.test/api/")!, transport: transport)
/// let notes: [Note] = try await client.get("notes")
/// #expect(transport.requests.map(\.path) == ["/api/notes"])
/// ```
///
/// The client's own behaviour (redirects, retries, auth, validation) runs as it does against a
/// real server, because `HTTPClient` does it above the transport.
public final class StubTransport: Transport {
    private struct Stub: Sendable {
        let method: String
        let segments: [Substring]
        let handler: @Sendable (SeenRequest) async throws -> Reply
    }

    private let state = Locked<(stubs: [Stub], seen: [SeenRequest])>(([], []))

    /// A transport with no stubs.
    public init() {}

    /// Every request performed so far, in order, including unmatched ones.
    public var requests: [SeenRequest] { state.withLock { $0.seen } }

    /// Answers requests matching `route` (such as `"POST /api/notes"`) with `reply`.
    public func stub(_ route: String, _ reply: Reply) {
        stub(route) { _ in reply }
    }

    /// Answers requests matching `route` with what `handler` returns for each; a thrown error
    /// becomes the transport's error, as a connection failure would.
    public func stub(_ route: String, _ handler: @escaping @Sendable (SeenRequest) async throws -> Reply) {
        let parts = route.split(separator: " ", maxSplits: 1)
        let method = parts.count == 2 ? String(parts[0]).uppercased() : "*"
        let path = parts.last ?? ""
        let stub = Stub(method: method, segments: path.split(separator: "/"), handler: handler)
        state.withLock { $0.stubs.append(stub) }
    }

    /// Removes every stub and every recorded request.
    public func reset() {
        state.withLock { $0 = ([], []) }
    }

    /// Records `request`, finds its stub and delivers the reply to `receiver`.
    ///
    /// - Throws: ``StubTransportError/unmatched(method:path:)`` when no stub matches,
    ///   `CancellationError` when the task is cancelled (also during a reply's delay), or the
    ///   stub handler's or receiver's error.
    public func perform(_ request: OutgoingRequest, receiver: any ResponseReceiver) async throws {
        try Task.checkCancellation()
        let seen = try Self.seen(request)
        let stub = state.withLock { state -> Stub? in
            state.seen.append(seen)
            let segments = seen.path.split(separator: "/")
            return state.stubs.last { stub in
                (stub.method == "*" || stub.method == seen.method) && stub.segments.count == segments.count
                    && zip(stub.segments, segments).allSatisfy { $0 == "*" || $0 == $1 }
            }
        }
        guard let stub else { throw StubTransportError.unmatched(method: seen.method, path: seen.path) }
        let reply = try await stub.handler(seen)
        if reply.delay > .zero { try await Task.sleep(for: reply.delay) }
        try Task.checkCancellation()
        if !seen.body.isEmpty { receiver.sent(Int64(seen.body.count), of: Int64(seen.body.count)) }
        var headers = HTTPHeaders(reply.headers)
        if headers["Content-Length"] == nil { headers.add("Content-Length", "\(reply.body.count)") }
        let head = ResponseHead(status: HTTPStatus(reply.status), headers: headers, url: request.url)
        try receiver.receive(head: head)
        if !reply.body.isEmpty { try receiver.receive(reply.body) }
    }

    private static func seen(_ request: OutgoingRequest) throws -> SeenRequest {
        let components = URLComponents(url: request.url, resolvingAgainstBaseURL: true)
        var query: [String: String] = [:]
        for item in components?.queryItems ?? [] { query[item.name] = item.value ?? "" }
        var headers: [String: String] = [:]
        for field in request.headers {
            let name = field.name.lowercased()
            headers[name] = headers[name].map { "\($0), \(field.value)" } ?? field.value
        }
        let body: Data
        switch request.body {
        case .empty: body = Data()
        case .data(let data): body = data
        case .file(let url): body = try Data(contentsOf: url)
        }
        let path = components?.percentEncodedPath ?? request.url.path
        return SeenRequest(
            method: request.method.rawValue, path: path.isEmpty ? "/" : path,
            rawQuery: components?.percentEncodedQuery ?? "", query: query, headers: headers, body: body)
    }
}

/// Why a ``StubTransport`` could not answer.
public enum StubTransportError: Error, Equatable, CustomStringConvertible {
    /// No stub matches the request's method and path.
    case unmatched(method: String, path: String)

    /// Names the request and the stub it lacked.
    public var description: String {
        switch self {
        case .unmatched(let method, let path):
            "StubTransport has no stub for \(method) \(path); add one with stub(\"\(method) \(path)\", …)"
        }
    }
}
