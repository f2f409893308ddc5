import Foundation
import Observation

/// The records a query selects, kept current, as an `Observable` a SwiftUI view can read.
///
/// A view that reads ``records`` re-renders when the query's result changes — a write that
/// leaves the result as it was signals nothing — and never for a write that failed (a backend
/// reports only committed changes):
///
/// ```swift
/// let urgent = try LiveQuery(notes, matching: RecordQuery(where: \.stars == 5, sortedBy: [.descending(\.stars)]))
/// // in a view: ForEach(urgent.records) { … }
/// ```
///
/// It follows `RecordStore.changes(matching:)`, so it sees the writes that sequence sees on
/// each backend. It stops when cancelled or released; a failure of the backend ends it
/// and is kept in ``failure``.
public final class LiveQuery<Record: Codable & Identifiable & Sendable>: Observable, @unchecked Sendable
where Record.ID: Codable & Sendable {
    // @unchecked: the stored state is only touched while holding `lock`; Observation's registrar
    // is Sendable.
    private let lock = NSLock()
    private var current: [Record] = []
    private var encoded: Data?
    private var loaded = false
    private var failed: (any Error)?
    private var task: Task<Void, Never>?
    private let registrar = ObservationRegistrar()

    /// Starts following `query` on `store`; ``records`` is empty until the first result arrives
    /// (``isLoaded`` says when).
    /// - Throws: ``RecordStoreError/unqueryableField(keyPath:record:)`` at once, for a key path
    ///   `Record` does not declare queryable.
    public init(_ store: RecordStore<Record>, matching query: RecordQuery<Record>) throws
    where Record: QueryableRecord {
        let results = try store.changes(matching: query)
        task = Task { [weak self] in
            do {
                for try await records in results {
                    guard let self else { return }
                    self.publish(records)
                }
            } catch {
                self?.fail(error)
            }
        }
    }

    /// Starts following the records `predicate` selects, ordered by id.
    /// - Throws: ``RecordStoreError/unqueryableField(keyPath:record:)`` at once.
    public convenience init(_ store: RecordStore<Record>, matching predicate: RecordPredicate<Record>) throws
    where Record: QueryableRecord {
        try self.init(store, matching: RecordQuery(where: predicate))
    }

    deinit {
        task?.cancel()
    }

    /// The query's current result, in its order.
    public var records: [Record] {
        registrar.access(self, keyPath: \.records)
        return lock.withLock { current }
    }

    /// Whether the first result has arrived.
    public var isLoaded: Bool {
        registrar.access(self, keyPath: \.isLoaded)
        return lock.withLock { loaded }
    }

    /// The error that ended the observation (a lost database connection, say), or nil.
    public var failure: (any Error)? {
        registrar.access(self, keyPath: \.failure)
        return lock.withLock { failed }
    }

    /// Stops following the query; ``records`` keeps the last result.
    public func cancel() {
        lock.withLock { task }?.cancel()
    }

    /// Takes a new result; readers are told only when it differs from the last (records need
    /// not be Equatable, so their encodings are compared) and, once, when the first arrives.
    private func publish(_ records: [Record]) {
        let data = try? RecordJSON.data(records)
        let (changed, firstLoad) = lock.withLock { () -> (Bool, Bool) in
            let firstLoad = !loaded
            let changed = data == nil || data != encoded || firstLoad
            return (changed, firstLoad)
        }
        guard changed else { return }
        if firstLoad { registrar.willSet(self, keyPath: \.isLoaded) }
        registrar.willSet(self, keyPath: \.records)
        lock.withLock {
            current = records
            encoded = data
            loaded = true
        }
        registrar.didSet(self, keyPath: \.records)
        if firstLoad { registrar.didSet(self, keyPath: \.isLoaded) }
    }

    private func fail(_ error: any Error) {
        registrar.willSet(self, keyPath: \.failure)
        lock.withLock { failed = error }
        registrar.didSet(self, keyPath: \.failure)
    }
}
