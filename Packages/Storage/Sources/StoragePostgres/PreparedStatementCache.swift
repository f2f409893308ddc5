import Foundation
import PostgresNIO

/// Statements prepared on the pool's connections, a few per connection, keyed by SQL text.
///
/// Preparing is a round trip and a parse per query; reusing the statement saves about a fifth
/// of a small indexed query. postgres-nio's `PostgresPreparedStatement` wants the SQL fixed per
/// type, but ours is built per query shape, so this keeps `PreparedQuery`s itself.
///
/// A pooled connection is leased to one task at a time, so two tasks never prepare on the same
/// connection at once; the lock only guards the dictionary and is never held across an await.
/// An entry keeps its connection alive, so an `ObjectIdentifier` is never reused while cached;
/// the connection's close drops its entry.
package final class PreparedStatementCache: @unchecked Sendable {
    private struct Entry {
        var statement: PreparedQuery
        var lastUse: UInt64
    }

    private struct Statements {
        let connection: PostgresConnection
        var bySQL: [String: Entry] = [:]
    }

    /// Statements kept per connection; the least recently used one goes first.
    package let capacity: Int
    private let lock = NSLock()
    private var connections: [ObjectIdentifier: Statements] = [:]
    private var clock: UInt64 = 0
    private var prepared = 0

    package init(capacity: Int) {
        self.capacity = max(1, capacity)
    }

    /// How many statements were prepared so far: a reused statement does not count.
    package var preparations: Int { lock.withLock { prepared } }

    /// How many statements are kept, over all connections.
    package var count: Int { lock.withLock { connections.values.reduce(0) { $0 + $1.bySQL.count } } }

    /// How many connections have statements kept.
    package var connectionCount: Int { lock.withLock { connections.count } }

    /// The rows of `sql` with `binds` on `connection`, prepared once per connection.
    ///
    /// A statement the server refuses because the table changed under it (`cached plan must
    /// not change result type`), or no longer has, is deallocated, prepared again and run once more.
    func rows(_ sql: String, _ binds: [PostgresData], on connection: PostgresConnection) async throws -> [PostgresRow] {
        var retried = false
        while true {
            let statement = try await self.statement(sql, on: connection)
            do {
                return try await statement.execute(binds).get()
            } catch  where !retried && Self.isStalePlan(error) {
                retried = true
                if let stale = remove(sql, on: connection) { try? await stale.deallocate().get() }
            }
        }
    }

    private func statement(_ sql: String, on connection: PostgresConnection) async throws -> PreparedQuery {
        let id = ObjectIdentifier(connection)
        let hit: PreparedQuery? = lock.withLock {
            guard var entry = connections[id]?.bySQL[sql] else { return nil }
            clock += 1
            entry.lastUse = clock
            connections[id]?.bySQL[sql] = entry
            return entry.statement
        }
        if let hit { return hit }
        let statement = try await connection.prepare(query: sql).get()
        let (evicted, isNew) = insert(statement, sql, on: connection)
        if isNew {
            // After the insert: a connection already closed completes at once and drops it again.
            connection.closeFuture.whenComplete { [weak self] _ in self?.drop(id) }
        }
        // Deallocating on the server keeps the cap true there too; a failure means the
        // connection is going away, taking its statements with it.
        if let evicted { try? await evicted.deallocate().get() }
        return statement
    }

    private func insert(
        _ statement: PreparedQuery, _ sql: String, on connection: PostgresConnection
    ) -> (evicted: PreparedQuery?, isNew: Bool) {
        let id = ObjectIdentifier(connection)
        return lock.withLock {
            prepared += 1
            clock += 1
            let isNew = connections[id] == nil
            var statements = connections[id] ?? Statements(connection: connection)
            var evicted: PreparedQuery?
            if statements.bySQL[sql] == nil, statements.bySQL.count >= capacity,
                let oldest = statements.bySQL.min(by: { $0.value.lastUse < $1.value.lastUse })
            {
                evicted = oldest.value.statement
                statements.bySQL[oldest.key] = nil
            }
            statements.bySQL[sql] = Entry(statement: statement, lastUse: clock)
            connections[id] = statements
            return (evicted, isNew)
        }
    }

    private func remove(_ sql: String, on connection: PostgresConnection) -> PreparedQuery? {
        lock.withLock { connections[ObjectIdentifier(connection)]?.bySQL.removeValue(forKey: sql)?.statement }
    }

    private func drop(_ id: ObjectIdentifier) {
        lock.withLock { _ = connections.removeValue(forKey: id) }
    }

    /// Whether `error` is the server refusing a prepared statement whose result columns changed
    /// since it was prepared (SQLSTATE 0A000, `cached plan must not change result type`), or
    /// one it no longer has.
    static func isStalePlan(_ error: any Error) -> Bool {
        let state: String?
        let message: String?
        switch error {
        case PostgresError.server(let info):
            state = info.fields[.sqlState]
            message = info.fields[.message]
        case let error as PSQLError:
            state = error.serverInfo?[.sqlState]
            message = error.serverInfo?[.message]
        default:
            return false
        }
        // 26000: the statement is gone from the server (a `DEALLOCATE ALL` by someone else).
        return state == "26000" || (state == "0A000" && message?.contains("cached plan") == true)
    }
}
