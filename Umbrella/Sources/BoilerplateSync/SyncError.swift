import Errors
import Foundation
import Serialization

/// Everything a ``SyncEngine`` can fail with, each case saying what was wrong and where.
///
/// A failed sync changes nothing it has not finished: a feed page is applied with its cursor in
/// one transaction or not at all, and an outbox entry leaves the outbox only when the server's
/// answer to it has been applied.
public enum SyncError: AppError, Equatable {
    /// The server answered 401 or 403 to `request`, or the client's token provider
    /// (`HTTPAuth.refreshing`) failed to give a token (a 401): sync is paused
    /// (``SyncPause/unauthorized(status:)``) and the outbox kept. Fix the credentials, then call
    /// ``SyncEngine/resume()`` or ``SyncEngine/sync()``.
    case unauthorized(status: Int, request: String)
    /// The server sent a record of a newer model version than this app knows: sync is paused
    /// (``SyncPause/appTooOld(found:supported:)``), nothing of the page was applied and the cursor
    /// stayed where it was. The app must be updated.
    case appTooOld(found: ModelVersion, supported: ModelVersion, request: String)
    /// A page of the change feed was hostile or corrupt: nothing of it was applied and the cursor
    /// is unchanged. `problem` says what was wrong.
    case corruptPage(problem: String, request: String)
    /// The answer to a write was not what the protocol promises (a body that does not decode, an
    /// entry for another record): the outbox entry is kept and sent again next time.
    case corruptAnswer(problem: String, request: String)
    /// The server refused a write with a 400 that is not about the record (a missing or malformed
    /// sync header: this client's own fault, which every write would meet). The round stops and
    /// the outbox entry is kept (``SyncedRecordStore/discardPendingChange(sequence:)`` drops it).
    /// A write refused for its record — 422 (`recordRefused` by the server's rules, an invalid
    /// record), 413, 400 `invalidRecordID` — is not an error: it is reported as a ``SyncRefusal``,
    /// dropped from the outbox, and sync goes on.
    case writeRejected(status: Int, reason: String?, request: String)
    /// The server answered with a status the protocol does not use here, or kept failing (5xx,
    /// 429) after the retry policy's last attempt.
    case server(status: Int, reason: String?, request: String)
    /// The server could not be reached, or the exchange failed, after the retry policy's last
    /// attempt. `detail` is the transport's message.
    case network(detail: String, request: String)
    /// The feed's cursor was refused as malformed (400 `malformedCursor`): the stored cursor is
    /// not one this server wrote. ``SyncEngine/refetchAll()`` starts over from the beginning.
    case cursorRefused(reason: String, request: String)
    /// The local database failed: `detail` names it.
    case database(detail: String)

    /// What went wrong, naming the request.
    public var message: String {
        switch self {
        case .unauthorized(let status, let request):
            "The sync server refused the credentials (\(status)) for \(request); sync is paused, the outbox kept."
        case .appTooOld(let found, let supported, let request):
            "The sync server sent a record of model version \(found), newer than this app's \(supported) "
                + "(\(request)); sync is paused until the app is updated."
        case .corruptPage(let problem, let request):
            "The sync server's change page for \(request) is invalid: \(problem). Nothing was applied."
        case .corruptAnswer(let problem, let request):
            "The sync server's answer to \(request) is invalid: \(problem). The change stays pending."
        case .writeRejected(let status, let reason, let request):
            "The sync server refused \(request) (\(status)\(reason.map { " \($0)" } ?? "")); the change stays pending."
        case .server(let status, let reason, let request):
            "The sync server answered \(request) with \(status)\(reason.map { " \($0)" } ?? "")."
        case .network(let detail, let request):
            "The sync server could not be reached for \(request): \(detail)"
        case .cursorRefused(let reason, let request):
            "The sync server refused the stored cursor (\(reason)) for \(request)."
        case .database(let detail):
            "The sync database failed: \(detail)"
        }
    }
}
