import Errors
import Hummingbird

/// One sync write as ``SyncRoutes``' hooks see it: before it commits (`validate`) and after
/// (`didApply`).
public struct SyncWrite<Record: Identifiable & Sendable>: Sendable where Record.ID: Sendable {
    /// What a write does.
    public enum Operation: String, Sendable, Equatable {
        /// `POST`: creates the record.
        case create
        /// `PUT`: replaces the record.
        case update
        /// `DELETE`: deletes the record.
        case delete
    }

    /// What the write does.
    public let operation: Operation
    /// The record's id.
    public let id: Record.ID
    /// The record as the write stores it, at the revision it gets (0 for a create, the base
    /// revision + 1 for an update); nil for a delete.
    public let record: Record?
    /// The record the write replaces or deletes, as stored at the write's base revision when the
    /// routes read it just before the write; nil for a create.
    public let previous: Record?
    /// The `Sync-Client-ID` of the client that sent the write.
    public let clientID: String
}

/// Thrown by a ``SyncRoutes`` `validate` hook to refuse a write: the client gets
/// `422 recordRefused` (<doc:SyncProtocolV1>, "Rules of the server") with `message` as its detail
/// and `field` as its `field` member, nothing is written, and the answer is kept as the write's
/// receipt, so a retry of the write gets the same 422.
public struct SyncWriteRefused: AppError, Equatable {
    /// A sentence for the client saying what is wrong with the record, e.g. "The field 'text'
    /// must not be blank."
    public var message: String
    /// The record's field that is wrong, when one is.
    public var field: String?

    /// A refusal saying `message`, naming `field` when one field is to blame.
    public init(_ message: String, field: String? = nil) {
        self.message = message
        self.field = field
    }
}

/// What a request to the sync routes asks for, as an `authorize` hook of
/// ``SyncRoutes/add(to:authorize:)`` sees it: checked before any header or body is read.
public struct SyncAccess: Sendable, Equatable {
    /// What a request does.
    public enum Operation: String, Sendable, Equatable {
        /// `GET /<path>/changes`: reads the change feed.
        case read
        /// `POST /<path>`: creates a record.
        case create
        /// `PUT /<path>/{id}`: replaces a record.
        case update
        /// `DELETE /<path>/{id}`: deletes a record.
        case delete
    }

    /// The resource's path segment (``SyncRoutes/path``).
    public let path: String
    /// What the request does.
    public let operation: Operation
    /// The `{id}` path segment of an update or delete, as sent (percent-encoded, unchecked); nil
    /// for a read or a create.
    public let recordID: String?
}

/// Thrown by an `authorize` hook of ``SyncRoutes/add(to:authorize:)`` to refuse a request before
/// anything of it is read: the protocol's 401 and 403 answers (<doc:SyncProtocolV1>, "Authorization").
public enum SyncAccessError: AppError, Equatable {
    /// The request carries no credentials, or ones the server does not accept: `401
    /// unauthenticated`, with `challenge` as the `WWW-Authenticate` header (RFC 9110 §11.6.1),
    /// e.g. `Bearer realm="sync"`.
    case unauthenticated(challenge: String)
    /// The credentials are good but do not allow this request: `403 forbidden`, with `reason`
    /// as the problem's detail.
    case forbidden(reason: String)

    /// The HTTP status the protocol answers with.
    public var status: Int {
        switch self {
        case .unauthenticated: 401
        case .forbidden: 403
        }
    }

    /// The problem's `reason` member.
    public var reason: String {
        switch self {
        case .unauthenticated: "unauthenticated"
        case .forbidden: "forbidden"
        }
    }

    /// A sentence for the client.
    public var message: String {
        switch self {
        case .unauthenticated: "The request must carry credentials the server accepts."
        case .forbidden(let reason): reason
        }
    }
}

/// Runs an `authorize` hook and turns its refusal into the protocol's answer.
struct SyncGate<Context: RequestContext>: Sendable {
    let path: String
    let authorize: (@Sendable (Request, Context, SyncAccess) async throws -> Void)?

    /// Nil when the request may be served; else the answer that refuses it.
    func refusal(
        _ request: Request, _ context: Context, _ operation: SyncAccess.Operation, id: String?
    ) async -> Response? {
        guard let authorize else { return nil }
        do {
            try await authorize(request, context, SyncAccess(path: path, operation: operation, recordID: id))
            return nil
        } catch let error as SyncAccessError {
            var response = SyncProblems.problem(status: error.status, reason: error.reason, detail: error.message)
            if case .unauthenticated(let challenge) = error {
                response.headers[.wwwAuthenticate] = challenge
            }
            return response
        } catch {
            // Fail closed: a hook that cannot decide serves nothing.
            context.logger.error(
                "Sync authorization failed", metadata: ["path": .string(path), "error": .string("\(error)")])
            return SyncProblems.serverError()
        }
    }
}
