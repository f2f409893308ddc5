import Foundation
import Hummingbird
import Storage

/// The sync protocol's routes for one resource (<doc:SyncProtocolV1>), over a `RecordStore`
/// kept in SQLite or PostgreSQL with a change feed.
///
/// ```swift
/// let notes = try RecordStore<Note>(sqlite: folder.appending(path: "notes.sqlite"), table: "notes", changeFeed: true)
/// let sync = try await SyncRoutes(store: notes, path: "notes")
/// let router = Router()
/// sync.add(to: router)          // GET /notes/changes, POST /notes, PUT and DELETE /notes/{id}
/// ```
///
/// Every write carries `Sync-Client-ID`, `Idempotency-Key` and (updates and deletes)
/// `Sync-Base-Revision`. Its answer is stored as a receipt in the same transaction as the record
/// change, so a replay — even after the server crashed between commit and response — is answered
/// as the first time. A write on a stale revision is answered 409 with the server's record.
public struct SyncRoutes<Record: Codable & Identifiable & Sendable & RevisionedRecord>: Sendable
where Record.ID: Codable & Sendable {
    /// The records the routes serve.
    public let store: RecordStore<Record>
    /// The resource's path segment (`notes` serves `/notes/changes`, `/notes/{id}`).
    public let path: String
    /// Limits and retention.
    public let configuration: SyncConfiguration

    let backend: any ReceiptRecordBackend<Record>
    /// Called after a write committed, before its answer is sent: tests stop the server there.
    let afterCommit: (@Sendable () async -> Void)?
    /// The app's checks of a write, run before it commits.
    let validate: (@Sendable (SyncWrite<Record>) async throws -> Void)?
    /// The app's observer of committed writes.
    let didApply: (@Sendable (SyncWrite<Record>) async throws -> Void)?

    /// Routes serving `store` under `/<path>`.
    ///
    /// The hooks let the app's own rules and events cover sync writes, as they cover writes made
    /// through its commands (<doc:StorageSyncServer>, "Domain rules and events"):
    ///
    /// ```swift
    /// let sync = try await SyncRoutes(
    ///     store: notes, path: "notes",
    ///     validate: { write in
    ///         if let note = write.record, note.title.allSatisfy(\.isWhitespace) {
    ///             throw SyncWriteRefused("The title must not be blank.", field: "title")
    ///         }
    ///     },
    ///     didApply: { write in bus.trigger(NoteSynced(id: write.id, operation: write.operation)) })
    /// ```
    ///
    /// - Parameters:
    ///   - store: Records in a `SQLiteRecordBackend` or `PostgresRecordBackend` opened with
    ///     `changeFeed: true`.
    ///   - path: One path segment: letters, digits, `-` and `_`.
    ///   - configuration: Limits and retention.
    ///   - validate: Checks a write before it commits. It runs once per decided write, after the
    ///     routes read the record and found the write on its current revision (a write that
    ///     conflicts is answered 409 without it), and never for a replay. Throwing
    ///     ``SyncWriteRefused`` refuses the write: `422 recordRefused`, kept as its receipt.
    ///     Any other error is answered 500 and leaves no receipt, so a retry is decided again.
    ///   - didApply: Called once after each write commits, before its answer is sent; never for
    ///     a refused, conflicting or replayed write. An error it throws is logged and does not
    ///     change the answer (the write has committed). A server that crashes between the
    ///     commit and this call does not call it for that write: events published here are at
    ///     most once; the change feed is the at-least-once record of every change.
    /// - Throws: ``SyncSetupError`` for a bad path, a backend that cannot keep receipts, or a
    ///   table without a change feed; the backend's error when its receipts table cannot be made.
    public init(
        store: RecordStore<Record>, path: String, configuration: SyncConfiguration = .init(),
        validate: (@Sendable (SyncWrite<Record>) async throws -> Void)? = nil,
        didApply: (@Sendable (SyncWrite<Record>) async throws -> Void)? = nil
    ) async throws {
        try await self.init(
            store: store, path: path, configuration: configuration, validate: validate, didApply: didApply,
            afterCommit: nil)
    }

    /// Routes that call `afterCommit` between a write's commit and its answer (before `didApply`).
    package init(
        store: RecordStore<Record>, path: String, configuration: SyncConfiguration,
        validate: (@Sendable (SyncWrite<Record>) async throws -> Void)? = nil,
        didApply: (@Sendable (SyncWrite<Record>) async throws -> Void)? = nil,
        afterCommit: (@Sendable () async -> Void)?
    ) async throws {
        guard !path.isEmpty, path.utf8.count <= 64,
            path.utf8.allSatisfy({ SyncHeader.isTokenByte($0) && ![UInt8(ascii: "/"), UInt8(ascii: ":")].contains($0) })
        else { throw SyncSetupError.invalidPath(path) }
        guard let backend = store.backend as? any ReceiptRecordBackend<Record> else {
            throw SyncSetupError.unsupportedBackend(String(describing: type(of: store.backend)))
        }
        do {
            _ = try await store.changes(after: nil, limit: 1)
        } catch let error as ChangeFeedError {
            throw SyncSetupError.noChangeFeed(error.message)
        }
        try await backend.prepareReceipts()
        self.store = store
        self.path = path
        self.configuration = configuration
        self.backend = backend
        self.afterCommit = afterCommit
        self.validate = validate
        self.didApply = didApply
    }

    /// Adds the routes to `router` (or a group of it):
    ///
    /// | Method and path              | Does                                                   |
    /// |------------------------------|--------------------------------------------------------|
    /// | `GET /<path>/changes`        | a page of the change feed: `?after=<cursor>&limit=<n>` |
    /// | `POST /<path>`               | creates the record in the body (its id chosen by the client) |
    /// | `PUT /<path>/{id}`           | replaces the record, made on `Sync-Base-Revision`       |
    /// | `DELETE /<path>/{id}`        | deletes the record, made on `Sync-Base-Revision`        |
    ///
    /// - Parameters:
    ///   - router: The router, or a group of it (a group's middleware runs first).
    ///   - authorize: Decides whether a request may be served, before any of its headers or body
    ///     is read (<doc:SyncProtocolV1>, "Authorization"). Throw
    ///     ``SyncAccessError/unauthenticated(challenge:)`` for `401` (with `WWW-Authenticate`) or
    ///     ``SyncAccessError/forbidden(reason:)`` for `403`; any other error is answered 500 and
    ///     the request is not served. Nil serves every request.
    public func add<Context: RequestContext>(
        to router: some RouterMethods<Context>,
        authorize: (@Sendable (Request, Context, SyncAccess) async throws -> Void)? = nil
    ) {
        let group = router.group(RouterPath(path))
        let gate = SyncGate(path: path, authorize: authorize)
        group.get("changes") { request, context in
            if let refused = await gate.refusal(request, context, .read, id: nil) { return refused }
            return await self.changes(request)
        }
        group.post { request, context in
            if let refused = await gate.refusal(request, context, .create, id: nil) { return refused }
            return await self.write(.create, request, id: nil, context: context)
        }
        group.put(":id") { request, context in
            let id = context.parameters.get("id")
            if let refused = await gate.refusal(request, context, .update, id: id) { return refused }
            return await self.write(.update, request, id: id, context: context)
        }
        group.delete(":id") { request, context in
            let id = context.parameters.get("id")
            if let refused = await gate.refusal(request, context, .delete, id: id) { return refused }
            return await self.write(.delete, request, id: id, context: context)
        }
    }

    /// Drops receipts older than ``SyncConfiguration/receiptRetention`` and tombstones older than
    /// ``SyncConfiguration/tombstoneRetention`` (by the server's clock); run it periodically,
    /// e.g. hourly from a service.
    ///
    /// - Returns: How many of each were dropped.
    public func pruneExpired(now: Date = Date()) async throws -> SyncPruning {
        let receipts = try await backend.pruneReceipts(
            storedBefore: now.addingTimeInterval(-Self.seconds(configuration.receiptRetention)))
        let tombstones = try await store.pruneTombstones(
            deletedBefore: now.addingTimeInterval(-Self.seconds(configuration.tombstoneRetention)))
        return SyncPruning(receipts: receipts, tombstones: tombstones)
    }

    static func seconds(_ duration: Duration) -> TimeInterval {
        let (seconds, attoseconds) = duration.components
        return TimeInterval(seconds) + TimeInterval(attoseconds) / 1e18
    }
}
