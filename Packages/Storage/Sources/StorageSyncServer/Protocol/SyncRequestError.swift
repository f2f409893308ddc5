import Errors
import _KitSupport

/// Why the sync routes refused a request: each case is one `reason` of the protocol's problem
/// details, with the HTTP status it is answered with.
public enum SyncRequestError: AppError, Equatable {
    /// A write without `Sync-Client-ID`.
    case missingClientID
    /// A `Sync-Client-ID` that is empty, too long, repeated, or has a byte outside the allowed set.
    case invalidClientID(reason: String)
    /// A write without `Idempotency-Key`.
    case missingIdempotencyKey
    /// An `Idempotency-Key` that is empty, too long, repeated, or has a byte outside the allowed set.
    case invalidIdempotencyKey(reason: String)
    /// An update or delete without `Sync-Base-Revision`.
    case missingBaseRevision
    /// A `Sync-Base-Revision` that is not a non-negative decimal number, or sent with a create.
    case invalidBaseRevision(reason: String)
    /// The record id in the path is not one this resource's records can have.
    case invalidRecordID(String)
    /// The `after` query parameter is not a cursor this server wrote.
    case malformedCursor(reason: String)
    /// The `limit` query parameter is not a whole number of at least 1.
    case invalidLimit(String)
    /// The body is not a record of this resource.
    case invalidRecord(reason: String)
    /// The record in the body has another id than the path names.
    case idMismatch(path: String, body: String)
    /// The body is larger than the routes accept.
    case bodyTooLarge(limit: Int)
    /// The client used this idempotency key before for a different request.
    case idempotencyKeyReused(key: String)

    /// The HTTP status the protocol answers this error with.
    public var status: Int {
        switch self {
        case .missingClientID, .invalidClientID, .missingIdempotencyKey, .invalidIdempotencyKey,
            .missingBaseRevision, .invalidBaseRevision, .invalidRecordID, .malformedCursor, .invalidLimit:
            400
        case .bodyTooLarge: 413
        case .invalidRecord, .idMismatch, .idempotencyKeyReused: 422
        }
    }

    /// The problem's `reason` member: the case's name, stable across wording changes.
    public var reason: String {
        switch self {
        case .missingClientID: "missingClientID"
        case .invalidClientID: "invalidClientID"
        case .missingIdempotencyKey: "missingIdempotencyKey"
        case .invalidIdempotencyKey: "invalidIdempotencyKey"
        case .missingBaseRevision: "missingBaseRevision"
        case .invalidBaseRevision: "invalidBaseRevision"
        case .invalidRecordID: "invalidRecordID"
        case .malformedCursor: "malformedCursor"
        case .invalidLimit: "invalidLimit"
        case .invalidRecord: "invalidRecord"
        case .idMismatch: "idMismatch"
        case .bodyTooLarge: "bodyTooLarge"
        case .idempotencyKeyReused: "idempotencyKeyReused"
        }
    }

    /// A sentence naming the problem and what to do.
    public var message: String {
        switch self {
        case .missingClientID: "A write must name its client in the Sync-Client-ID header."
        case .invalidClientID(let reason): "The Sync-Client-ID header is invalid: \(reason)."
        case .missingIdempotencyKey: "A write must carry an Idempotency-Key header, unique per client and write."
        case .invalidIdempotencyKey(let reason): "The Idempotency-Key header is invalid: \(reason)."
        case .missingBaseRevision:
            "An update or delete must carry the revision it was made on in the Sync-Base-Revision header."
        case .invalidBaseRevision(let reason): "The Sync-Base-Revision header is invalid: \(reason)."
        case .invalidRecordID(let id): "\(UntrustedText.shown(id)) is not a record id of this resource."
        case .malformedCursor(let reason): "The after parameter is not a change cursor: \(reason)."
        case .invalidLimit(let text):
            "The limit parameter must be a whole number of at least 1; \(UntrustedText.shown(text)) was given."
        case .invalidRecord(let reason): "The body is not a record of this resource: \(reason)."
        case .idMismatch(let path, let body):
            "The path names the record \(UntrustedText.shown(path)) but the body holds \(UntrustedText.shown(body))."
        case .bodyTooLarge(let limit): "The body is larger than the \(limit) bytes this resource accepts."
        case .idempotencyKeyReused(let key):
            "The idempotency key \(UntrustedText.shown(key)) was used before by this client for a different request; "
                + "use a new key for a new write."
        }
    }
}
