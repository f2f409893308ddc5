import Errors
import Foundation
import Networking
import Observation
import Storage
import StorageSQLite
import _KitSupport

/// Keeps a ``SyncedRecordStore`` in step with a server that speaks the kit's sync protocol (v1,
/// as `StorageSyncServer`'s `SyncRoutes` serve it): pushes the outbox, pulls the change feed,
/// and decides conflicts by a policy, reporting every one.
///
/// ```swift
/// let client = HTTPClient(baseURL: URL(string: "https://api.example.com/")!)
/// let engine = SyncEngine(store: notes, client: client, path: "sync/notes")
/// try await engine.sync()          // once: push the outbox, then pull
/// engine.start()                   // or keep syncing: on local writes and every minute
/// ```
///
/// A sync round first sends every pending change, oldest first, each with its own idempotency
/// key (a retry after a lost answer is answered as the first time and applied once), then reads
/// the feed page by page from the stored cursor, applying each page with its cursor in one
/// transaction. Nothing is ordered by a clock: by the outbox's order, the server's revisions and
/// the feed's positions only.
///
/// ``state`` is `Observable`: pending changes, the last sync, the last error, a re-fetch, a pause.
/// 401/403 pause sync (``SyncPause/unauthorized(status:)``) and a record from a newer model
/// version pauses it (``SyncPause/appTooOld(found:supported:)``); the outbox is kept either way.
public final class SyncEngine<Record: RevisionedRecord & Codable & Identifiable & Sendable>: Observable,
    @unchecked Sendable
where Record.ID: Codable & Sendable {
    // @unchecked: the mutable state (`current`, `loop`, `passes`, the subscribers) is only touched under
    // `lock`; Observation's registrar is Sendable.

    /// The records kept in step.
    public let store: SyncedRecordStore<Record>
    /// The client requests go through: its base URL, headers, auth and interceptors apply.
    public let client: HTTPClient
    /// The resource's path relative to the client's base URL (`"sync/notes"`): the feed is
    /// `<path>/changes`, writes `POST <path>` and `PUT`/`DELETE <path>/<id>`.
    public let path: String
    /// How it syncs.
    public let configuration: SyncEngineConfiguration<Record>

    private let registrar = ObservationRegistrar()
    private let lock = NSLock()
    private var current = SyncState()
    /// The place of the outbox size ``state`` shows (``PendingReading/order``).
    private var shownPendingOrder: UInt64 = 0
    /// How long the server last asked to be left alone (`Retry-After` on a failure); the loop
    /// waits at least that long before its next round.
    private var serverAskedToWait: Duration?
    private var loop: Task<Void, Never>?
    /// How many times the loop has decided whether to sync (a round, or none while paused): lets
    /// tests wait for the loop to have seen a wake-up instead of sleeping.
    private var passes = 0
    var loopPasses: Int { lock.withLock { passes } }
    private var subscribers: [UUID: AsyncStream<SyncConflict<Record>>.Continuation] = [:]
    private var refusalSubscribers: [UUID: AsyncStream<SyncRefusal<Record>>.Continuation] = [:]
    private let turn = SyncTurn()
    private let wakeUp = WakeUp()
    private let writeToken: UUID

    /// An engine syncing `store` with the resource at `path` of `client`'s server.
    public init(
        store: SyncedRecordStore<Record>, client: HTTPClient, path: String,
        configuration: SyncEngineConfiguration<Record> = SyncEngineConfiguration()
    ) {
        self.store = store
        self.client = client
        self.path = path.hasSuffix("/") ? String(path.dropLast()) : path
        self.configuration = configuration
        let wakeUp = wakeUp
        let box = WeakBox<SyncEngine>()
        writeToken = store.localWrites.add { pending in
            box.value?.show(pending)
            wakeUp.signal()
        }
        box.value = self
        // The outbox survives restarts: show what waits without waiting for the first round.
        Task { [weak self] in try? await self?.refresh() }
    }

    deinit {
        store.localWrites.remove(writeToken)
        loop?.cancel()
        for continuation in subscribers.values { continuation.finish() }
        for continuation in refusalSubscribers.values { continuation.finish() }
    }

    // MARK: State

    /// Where sync stands; observable (a SwiftUI view reading it re-renders when it changes).
    public var state: SyncState {
        registrar.access(self, keyPath: \.state)
        return lock.withLock { current }
    }

    func update(_ change: (inout SyncState) -> Void) {
        registrar.withMutation(of: self, keyPath: \.state) {
            lock.withLock { change(&current) }
        }
    }

    /// Shows `pending` unless a later transaction's size is already shown: sizes are read in the
    /// store's order but reach the engine from several tasks, in any order.
    func show(_ pending: PendingReading) {
        registrar.withMutation(of: self, keyPath: \.state) {
            lock.withLock {
                guard pending.order > shownPendingOrder else { return }
                shownPendingOrder = pending.order
                current.pendingCount = pending.count
            }
        }
    }

    /// Reads the pending count and re-fetch state from the database into ``state`` (the engine
    /// keeps them current itself after its first sync or local write).
    public func refresh() async throws {
        let (pending, refetch) = try await store.read { db, tables in
            (try tables.pendingReading(in: db), try tables.value(tables.refetchName, in: db))
        }
        update { $0.refetch = Self.refetch(refetch) }
        show(pending)
    }

    static func refetch(_ stored: String?) -> SyncRefetch {
        switch stored {
        case "needed": .needed
        case "running": .running
        default: .none
        }
    }

    /// A sequence of every conflict decided from now on, as it is decided (the store keeps them
    /// all too: ``SyncedRecordStore/conflicts()``). It ends when the engine is released.
    public func conflictReports() -> AsyncStream<SyncConflict<Record>> {
        let (stream, continuation) = AsyncStream<SyncConflict<Record>>.makeStream()
        let token = UUID()
        lock.withLock { subscribers[token] = continuation }
        continuation.onTermination = { [weak self] _ in
            guard let self else { return }
            _ = self.lock.withLock { self.subscribers.removeValue(forKey: token) }
        }
        return stream
    }

    func report(_ conflicts: [SyncConflict<Record>]) {
        guard !conflicts.isEmpty else { return }
        let continuations = lock.withLock { Array(subscribers.values) }
        for conflict in conflicts {
            for continuation in continuations { continuation.yield(conflict) }
        }
    }

    /// A sequence of every write the server refuses for good from now on (``SyncRefusal``), as
    /// each is handled (the store keeps them all too: ``SyncedRecordStore/refusals()``). It ends
    /// when the engine is released.
    public func refusalReports() -> AsyncStream<SyncRefusal<Record>> {
        let (stream, continuation) = AsyncStream<SyncRefusal<Record>>.makeStream()
        let token = UUID()
        lock.withLock { refusalSubscribers[token] = continuation }
        continuation.onTermination = { [weak self] _ in
            guard let self else { return }
            _ = self.lock.withLock { self.refusalSubscribers.removeValue(forKey: token) }
        }
        return stream
    }

    func report(_ refusal: SyncRefusal<Record>) {
        let continuations = lock.withLock { Array(refusalSubscribers.values) }
        for continuation in continuations { continuation.yield(refusal) }
    }

    // MARK: Syncing

    /// Syncs once: sends every pending change, then reads the feed to its end (and sends what a
    /// conflict found there queued). Clears a pause first, so after a 401 and new credentials
    /// this continues where sync stopped.
    /// - Throws: ``SyncError`` (a local database failure is ``SyncError/database(detail:)``); the
    ///   same error is in ``state``'s `lastError`. `CancellationError` when the calling task is
    ///   cancelled: nothing half-done is kept, and `lastError` stays as it was.
    public func sync() async throws {
        try await turn.run { try await self.round(clearingPause: true) }
    }

    /// Lifts a pause and wakes the loop; the next round runs at once.
    public func resume() {
        update { $0.pause = nil }
        wakeUp.signal()
    }

    /// Pauses the loop (``SyncPause/byApp``) until ``resume()`` or ``sync()``.
    public func pause() {
        update { $0.pause = .byApp }
    }

    /// Drops the cursor: the next sync reads the whole feed again, replacing the local copy, and
    /// removes local records the server no longer has (pending changes are kept and sent).
    public func refetchAll() async throws {
        try await store.bookkeeping { db, tables in try tables.set(tables.refetchName, to: "needed", in: db) }
        update { $0.refetch = .needed }
    }

    /// Syncs now, then after each local write and every ``SyncEngineConfiguration/interval``, until the
    /// task is cancelled. Failed rounds are in ``state``; a paused engine waits for ``resume()``.
    /// Run it in a task group or a task of its own, once per engine.
    public func run() async {
        var delay = LoopDelay(configuration)
        while !Task.isCancelled {
            let outcome = await pass()
            if Task.isCancelled { return }
            await wakeUp.wait(upTo: delay.after(outcome))
        }
    }

    /// One turn of the loop: a round unless paused. A pause or a cancellation is not a failure.
    private func pass() async -> PassOutcome {
        defer { lock.withLock { passes += 1 } }
        guard !state.isPaused else { return .done }
        lock.withLock { serverAskedToWait = nil }
        do {
            try await turn.run { try await self.round(clearingPause: false) }
            return .done
        } catch {
            guard !(error is CancellationError), !state.isPaused else { return .done }
            return .failed(serverAskedToWait: lock.withLock { serverAskedToWait })
        }
    }

    /// Starts the loop of ``run()`` in a task of its own (if not already running); ``stop()``
    /// ends it. The task holds the engine only during a round, not while it waits: an engine the
    /// app releases ends its loop and its report streams.
    public func start() {
        lock.withLock {
            guard loop == nil else { return }
            let wakeUp = wakeUp
            let configuration = configuration
            loop = Task { [weak self] in
                var delay = LoopDelay(configuration)
                while !Task.isCancelled {
                    guard let outcome = await Self.pass(of: self) else { return }
                    if Task.isCancelled { return }
                    await wakeUp.wait(upTo: delay.after(outcome))
                }
            }
        }
    }

    /// Runs a pass of `engine` if it is still alive (the strong reference lasts for the call
    /// only): how its round ended, nil when the engine is gone.
    private static func pass(of engine: SyncEngine?) async -> PassOutcome? {
        guard let engine else { return nil }
        return await engine.pass()
    }

    /// Stops the loop ``start()`` began; a round in flight is cancelled between requests.
    /// - Returns: The loop's task (nil when none ran): `await engine.stop()?.value` returns once
    ///   the loop has ended, after which nothing more is synced.
    @discardableResult
    public func stop() -> Task<Void, Never>? {
        let task = lock.withLock {
            defer { loop = nil }
            return loop
        }
        task?.cancel()
        return task
    }

    private func round(clearingPause: Bool) async throws {
        update { state in
            state.isSyncing = true
            if clearingPause { state.pause = nil }
        }
        do {
            var setAside = SetAside()
            try await push(&setAside)
            try await pull()
            // A conflict the pull decided for the local side queued a change: send it now, so a
            // round leaves nothing behind that it could send.
            if try await store.pendingCount() > 0 { try await push(&setAside) }
            let pending = try await store.pendingReading()
            show(pending)
            if let failure = setAside.firstFailure { throw failure }
            update { state in
                state.isSyncing = false
                state.lastError = nil
                state.lastSyncedAt = Date()
            }
        } catch {
            // A cancelled round is not a failure: it stays a CancellationError (also when the
            // cancellation surfaced inside a database call) and leaves lastError as it was.
            let failure: SyncError?
            if let error = error as? SyncError {
                failure = error
            } else if Task.isCancelled || error.chain.contains(where: { $0 is CancellationError }) {
                failure = nil
            } else {
                failure = .database(detail: error.localizedDescription)
            }
            if failure != nil, let pending = try? await store.pendingReading() { show(pending) }
            update { state in
                state.isSyncing = false
                guard let failure else { return }
                state.lastError = failure
                switch failure {
                case .unauthorized(let status, _): state.pause = .unauthorized(status: status)
                case .appTooOld(let found, let supported, _):
                    state.pause = .appTooOld(found: found, supported: supported)
                default: break
                }
            }
            throw failure ?? CancellationError()
        }
    }

    // MARK: HTTP

    /// Sends `request` with the protocol's retries, returning any status; a transport failure
    /// after the last retry is ``SyncError/network(detail:request:)``.
    func exchange(_ request: HTTPRequest) async throws -> HTTPResponse {
        var request = request
        request.acceptableStatus = Set(100..<600)
        request.retry = configuration.retry
        do {
            return try await client.send(request)
        } catch is CancellationError {
            throw CancellationError()
        } catch let error as HTTPClientError {
            if case .responseTooLarge(let limit, _) = error, request.method == .get {
                // A feed page over the client's limit: the pull asks for fewer entries.
                throw PageTooLarge(limit: limit)
            }
            throw SyncError.network(detail: error.message, request: "\(request.method) \(request.path)")
        } catch {
            // With a token provider, an error that is neither the client's nor the transport's is
            // the provider's: no token could be had (a revoked refresh token, signed out). That
            // is the protocol's "pause" (as a 401 is), not a server to try again at every write.
            if case .refreshing = client.auth, !error.chain.contains(where: { $0 is URLError }) {
                throw SyncError.unauthorized(status: 401, request: "\(request.method) \(request.path)")
            }
            throw SyncError.network(detail: "\(error)", request: "\(request.method) \(request.path)")
        }
    }

    /// The failure a status other than success or conflict means.
    func failure(_ response: HTTPResponse, _ request: String) -> SyncError {
        // The retry policy gave up (or the wait was over its `maxRetryAfter`): the loop honours
        // the server's wish instead of coming back after its own backoff.
        if let header = response.headers["Retry-After"], let wait = RetryPolicy.retryAfter(header) {
            lock.withLock { serverAskedToWait = wait }
        }
        let reason = (try? JSONSerialization.jsonObject(with: response.body) as? [String: Any])?["reason"] as? String
        let shown = reason.map { UntrustedText.sanitized($0) }
        switch response.status.code {
        case 401, 403: return .unauthorized(status: response.status.code, request: request)
        case 400, 413, 422: return .writeRejected(status: response.status.code, reason: shown, request: request)
        default: return .server(status: response.status.code, reason: shown, request: request)
        }
    }

    /// `id` as one path segment. A segment of dots only ("." and "..") has its dots escaped
    /// (`%2E`): unescaped, URL resolution would remove it as a dot segment and send the request
    /// to another path; the server's percent-decoding restores the id.
    static func segment(_ id: String) -> String {
        if !id.isEmpty, id.allSatisfy({ $0 == "." }) { return String(repeating: "%2E", count: id.count) }
        var allowed = CharacterSet.urlPathAllowed
        allowed.remove(charactersIn: "/?#;%")
        return id.addingPercentEncoding(withAllowedCharacters: allowed) ?? id
    }
}

/// A feed page larger than the `HTTPClient`'s `maxResponseSize`: not a network failure, and not
/// a corrupt page unless it holds a single entry.
struct PageTooLarge: Error {
    let limit: Int
}

/// A weak reference the store's write handler holds, so the store does not keep its engines alive.
final class WeakBox<Value: AnyObject>: @unchecked Sendable {
    // @unchecked: `stored` is only touched while holding `lock`.
    private let lock = NSLock()
    private weak var stored: Value?

    var value: Value? {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }
}
