import Foundation

extension RecordStore where Record: QueryableRecord {
    /// The records `predicate` selects, ordered by the field at `keyPath` (then by id), at most
    /// `limit` of them after skipping `offset` — filtered, sorted and counted in the backend.
    ///
    /// ```swift
    /// let top = try await notes.fetch(where: \.stars >= 3, sortedBy: \.stars, ascending: false, limit: 10)
    /// ```
    /// - Throws: ``RecordStoreError/unqueryableField(keyPath:record:)`` when a key path is not in
    ///   ``QueryableRecord/queryableFields``, or the backend's error.
    public func fetch<Value: QueryableValue>(
        where predicate: RecordPredicate<Record>, sortedBy keyPath: KeyPath<Record, Value>, ascending: Bool = true,
        limit: Int? = nil, offset: Int = 0
    ) async throws -> [Record] {
        let sort: RecordSort<Record> = ascending ? .ascending(keyPath) : .descending(keyPath)
        return try await fetch(RecordQuery(where: predicate, sortedBy: [sort], limit: limit, offset: offset))
    }

    /// The records `predicate` selects, ordered by `sort` in turn and then by id, at most `limit`
    /// of them after skipping `offset`.
    ///
    /// ```swift
    /// let page = try await notes.fetch(where: .contains(\.text, "milk"), sortedBy: [.descending(\.stars), .ascending(\.text)], limit: 20, offset: 40)
    /// ```
    /// - Throws: ``RecordStoreError/unqueryableField(keyPath:record:)`` or the backend's error.
    public func fetch(
        where predicate: RecordPredicate<Record>, sortedBy sort: [RecordSort<Record>] = [], limit: Int? = nil,
        offset: Int = 0
    ) async throws -> [Record] {
        try await fetch(RecordQuery(where: predicate, sortedBy: sort, limit: limit, offset: offset))
    }

    /// The records `query` selects, run by the backend.
    /// - Throws: ``RecordStoreError/unqueryableField(keyPath:record:)`` or the backend's error.
    public func fetch(_ query: RecordQuery<Record>) async throws -> [Record] {
        try await backend.fetch(try query.plan())
    }

    /// The number of records `predicate` selects, counted in the backend.
    ///
    /// ```swift
    /// let many = try await notes.count(where: \.stars > 4 && \.text != "")
    /// ```
    /// - Throws: ``RecordStoreError/unqueryableField(keyPath:record:)`` or the backend's error.
    public func count(where predicate: RecordPredicate<Record>) async throws -> Int {
        try await backend.count(try RecordQuery(where: predicate).plan())
    }

    /// The result of `query` now, then again after each change that may alter it: an
    /// `AsyncSequence` of result sets, ending when the consuming task stops iterating.
    ///
    /// ```swift
    /// for try await urgent in try notes.changes(matching: RecordQuery(where: \.stars == 5)) {
    ///     show(urgent)
    /// }
    /// ```
    /// What counts as a change depends on the backend: the file backend sees writes made by
    /// file backends in this process; SQLite sees writes made through the same database handle
    /// (GRDB's `ValueObservation`; other handles and processes are not signalled); PostgreSQL
    /// sees every client's writes (`LISTEN`/`NOTIFY`). When results change faster than they are
    /// consumed, only the latest is kept.
    /// - Throws: ``RecordStoreError/unqueryableField(keyPath:record:)`` at once, not from the sequence.
    public func changes(matching query: RecordQuery<Record>) throws -> AsyncThrowingStream<[Record], any Error> {
        backend.changes(try query.plan())
    }

    /// The records `predicate` selects (ordered by id) now, then after each change that may alter them.
    /// - Throws: ``RecordStoreError/unqueryableField(keyPath:record:)`` at once.
    public func changes(
        matching predicate: RecordPredicate<Record>
    ) throws -> AsyncThrowingStream<
        [Record], any Error
    > {
        try changes(matching: RecordQuery(where: predicate))
    }
}

/// Re-runs a query each time it is poked and yields results that differ from the last: the
/// engine of change observation for backends whose change signal carries no data.
package enum RecordObservation {
    /// A stream yielding `fetch()` now and after each element of `pokes`, skipping repeats; it
    /// fails when `pokes` or `fetch` fails. `onTermination` runs once the consumer stops or the
    /// stream ends.
    package static func stream<Record: Encodable & Sendable>(
        pokes: AsyncThrowingStream<Void, any Error>, fetch: @escaping @Sendable () async throws -> [Record],
        onTermination: @escaping @Sendable () -> Void
    ) -> AsyncThrowingStream<[Record], any Error> {
        let (stream, continuation) = AsyncThrowingStream<[Record], any Error>.makeStream(
            bufferingPolicy: .bufferingNewest(1))
        let task = Task {
            var last: Data?
            var iterator = pokes.makeAsyncIterator()
            do {
                repeat {
                    let result = try await fetch()
                    // Records need not be Equatable: compare their encodings instead.
                    let encoded = try RecordJSON.data(result)
                    if encoded != last {
                        last = encoded
                        continuation.yield(result)
                    }
                } while try await iterator.next() != nil && !Task.isCancelled
                continuation.finish()
            } catch {
                continuation.finish(throwing: error)
            }
        }
        continuation.onTermination = { _ in
            task.cancel()
            onTermination()
        }
        return stream
    }
}

/// In-process change signals for record files, keyed by path: every ``FileRecordBackend`` on a
/// file pokes the observers of that file after it writes.
package enum FileRecordSignals {
    private final class Registry: @unchecked Sendable {
        // @unchecked: `observers` is only touched under `lock`.
        let lock = NSLock()
        var observers: [String: [UUID: AsyncThrowingStream<Void, any Error>.Continuation]] = [:]
    }
    private static let registry = Registry()

    /// A stream that yields each time a backend writes the file at `path`, and its token.
    package static func subscribe(_ path: String) -> (AsyncThrowingStream<Void, any Error>, UUID) {
        let (stream, continuation) = AsyncThrowingStream<Void, any Error>.makeStream(
            bufferingPolicy: .bufferingNewest(1))
        let token = UUID()
        registry.lock.withLock { registry.observers[path, default: [:]][token] = continuation }
        return (stream, token)
    }

    /// Stops signalling `token`.
    package static func unsubscribe(_ path: String, _ token: UUID) {
        let continuation = registry.lock.withLock { () -> AsyncThrowingStream<Void, any Error>.Continuation? in
            let removed = registry.observers[path]?.removeValue(forKey: token)
            if registry.observers[path]?.isEmpty == true { registry.observers[path] = nil }
            return removed
        }
        continuation?.finish()
    }

    /// Tells the observers of `path` that it changed.
    package static func poke(_ path: String) {
        let continuations = registry.lock.withLock { registry.observers[path].map { Array($0.values) } }
        for continuation in continuations ?? [] { continuation.yield() }
    }
}
