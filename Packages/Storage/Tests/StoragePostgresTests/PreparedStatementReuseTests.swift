import Foundation
import PostgresNIO
import Storage
import StoragePostgres
import StoragePostgresTesting
import Testing

struct Parcel: Codable, Identifiable, Sendable, Equatable {
    var id: Int
    var bucket: Int
    var weight: Double
}

extension Parcel: QueryableRecord {
    static let queryableFields: [QueryField<Parcel>] = [QueryField(\.bucket, "bucket"), QueryField(\.weight, "weight")]
}

/// `Parcel` as a later version of the app declares it: one more queryable field.
struct TaggedParcel: Codable, Identifiable, Sendable, Equatable {
    var id: Int
    var bucket: Int
    var weight: Double
    var tag: String?
}

extension TaggedParcel: QueryableRecord {
    static let queryableFields: [QueryField<TaggedParcel>] = [
        QueryField(\.bucket, "bucket"), QueryField(\.weight, "weight"), QueryField(\.tag, "tag"),
    ]
}

@Suite("PostgreSQL queries reuse each connection's prepared statements", .timeLimit(.minutes(5)))
struct PreparedStatementReuseTests {
    private static func parcels() -> [Parcel] {
        (1...30).map { Parcel(id: $0, bucket: $0 % 3, weight: Double($0) / 2) }
    }

    @Test("queries of one shape prepare once and give the same answers as before")
    func reuse() async throws {
        try await PostgresTestServer.with { server in
            let backend = try await PostgresRecordBackend<Parcel>(url: server.url, table: "parcels")
            let store = RecordStore(backend: backend)
            try await backend.apply(Self.parcels().map { .insert($0) })
            let before = backend.statements.preparations
            for bucket in 0..<3 {
                let found = try await store.fetch(where: \.bucket == bucket)
                // Ordered by id as text, as every backend orders.
                #expect(
                    found.map(\.id)
                        == Self.parcels().filter { $0.bucket == bucket }.map(\.id).sorted { "\($0)" < "\($1)" })
            }
            // One shape, one preparation: the other two buckets ran the prepared statement.
            #expect(backend.statements.preparations == before + 1)
            #expect(try await store.count(where: \.bucket == 1) == 10)
            #expect(try await store.count(where: \.bucket == 2) == 10)
            #expect(try await store.fetch(id: 7)?.bucket == 1)
            #expect(try await store.fetch(id: 8)?.bucket == 2)
            #expect(try await store.fetch(id: 99) == nil)
            #expect(try await store.fetchAll().count == 30)
            #expect(try await store.fetchAll().count == 30)
            // count(where:), fetch(id:), fetchAll: one more each.
            #expect(backend.statements.preparations == before + 4)
            // A real column compared with a double, and a text search: typed parameters.
            #expect(try await store.count(where: \.weight > 14) == 2)
            #expect(try await store.count(where: \.weight > 14.5) == 1)
            #expect(backend.statements.preparations == before + 5)
            // The server holds them too, on the connection that ran them.
            let held = try await backend.client.withConnection { connection in
                var held = 0
                let rows = try await connection.query(
                    "SELECT COUNT(*) FROM pg_prepared_statements WHERE statement LIKE '%parcels%'", logger: Self.logger)
                for try await count in rows.decode(Int64.self) { held = Int(count) }
                return held
            }
            #expect(held >= 1)
            #expect(held <= PostgresRecordBackend<Parcel>.statementsPerConnection)
            try await backend.shutdown()
        }
    }

    @Test("keeps at most statementsPerConnection statements on a connection, dropping the oldest")
    func bounded() async throws {
        try await PostgresTestServer.with { server in
            let backend = try await PostgresRecordBackend<Parcel>(url: server.url, table: "parcels")
            let store = RecordStore(backend: backend)
            try await backend.apply(Self.parcels().map { .insert($0) })
            let cap = PostgresRecordBackend<Parcel>.statementsPerConnection
            // Each limit is a different SQL text, so a different statement.
            for limit in 1...(cap + 5) {
                let found = try await store.fetch(where: \.bucket == 0, sortedBy: \.weight, limit: limit)
                #expect(found.count == min(limit, 10))
            }
            #expect(backend.statements.count <= cap * backend.statements.connectionCount)
            #expect(backend.statements.count >= 1)
            let held = try await backend.client.withConnection { connection in
                var held = 0
                let rows = try await connection.query(
                    "SELECT COUNT(*) FROM pg_prepared_statements", logger: Self.logger)
                for try await count in rows.decode(Int64.self) { held = Int(count) }
                return held
            }
            #expect(held <= cap)
            try await backend.shutdown()
        }
    }

    @Test("a column added by another backend opening between two queries does not fail the second")
    func columnAdded() async throws {
        try await PostgresTestServer.with { server in
            let backend = try await PostgresRecordBackend<Parcel>(url: server.url, table: "parcels")
            let store = RecordStore(backend: backend)
            try await backend.apply(Self.parcels().map { .insert($0) })
            let first = try await store.fetch(where: \.bucket == 1)
            // A newer version of the app opens the same table: ALTER TABLE … ADD COLUMN q_tag.
            let newer = try await PostgresRecordBackend<TaggedParcel>(url: server.url, table: "parcels")
            try await RecordStore(backend: newer).insert(TaggedParcel(id: 31, bucket: 1, weight: 1, tag: "x"))
            try await newer.shutdown()
            let second = try await store.fetch(where: \.bucket == 1)
            #expect(Set(second.map(\.id)) == Set(first.map(\.id) + [31]))
            #expect(try await store.count(where: \.bucket == 1) == 11)
            try await backend.shutdown()
        }
    }

    @Test("a statement whose result type changed under it is prepared again and retried, not surfaced")
    func resultTypeChanged() async throws {
        try await PostgresTestServer.with { server in
            let backend = try await PostgresRecordBackend<Parcel>(url: server.url, table: "parcels")
            let store = RecordStore(backend: backend)
            try await backend.apply(Self.parcels().map { .insert($0) })
            let first = try await store.fetch(where: \.bucket == 2)
            let before = backend.statements.preparations
            // The body column's type changes (to a domain over bytea): the server refuses the
            // prepared statement with "cached plan must not change result type".
            try await backend.client.withConnection { connection in
                try await connection.query("CREATE DOMAIN parcel_body AS BYTEA", logger: Self.logger)
                try await connection.query(
                    "ALTER TABLE parcels ALTER COLUMN body TYPE parcel_body", logger: Self.logger)
            }
            let second = try await store.fetch(where: \.bucket == 2)
            #expect(second == first)
            #expect(backend.statements.preparations == before + 1)
            try await backend.shutdown()
        }
    }

    @Test("a statement deallocated behind the cache's back is prepared again, not surfaced")
    func deallocatedElsewhere() async throws {
        try await PostgresTestServer.with { server in
            let backend = try await PostgresRecordBackend<Parcel>(url: server.url, table: "parcels")
            let store = RecordStore(backend: backend)
            try await backend.apply(Self.parcels().map { .insert($0) })
            #expect(try await store.count(where: \.bucket == 0) == 10)
            let before = backend.statements.preparations
            _ = try await backend.client.withConnection { connection in
                try await connection.query("DEALLOCATE ALL", logger: Self.logger)
            }
            #expect(try await store.count(where: \.bucket == 0) == 10)
            #expect(backend.statements.preparations == before + 1)
            try await backend.shutdown()
        }
    }

    @Test("a lost connection drops its statements; the next query prepares on a new connection")
    func connectionLost() async throws {
        try await PostgresTestServer.with { server in
            let backend = try await PostgresRecordBackend<Parcel>(url: server.url, table: "parcels")
            let store = RecordStore(backend: backend)
            try await backend.apply(Self.parcels().map { .insert($0) })
            _ = try await store.fetch(where: \.bucket == 1)
            #expect(backend.statements.connectionCount >= 1)
            let killer = try await PostgresRecordBackend<Parcel>(url: server.url, table: "other")
            _ = try await killer.client.withConnection { connection in
                try await connection.query(
                    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE pid <> pg_backend_pid() AND backend_type = 'client backend'",
                    logger: Self.logger)
            }
            try await killer.shutdown()
            let deadline = ContinuousClock.now + .seconds(10)
            while backend.statements.connectionCount > 0, ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(20))
            }
            #expect(backend.statements.connectionCount == 0)
            let before = backend.statements.preparations
            #expect(try await store.fetch(where: \.bucket == 1).count == 10)
            #expect(backend.statements.preparations == before + 1)
            try await backend.shutdown()
        }
    }

    private static let logger = Logger(label: "PreparedStatementReuseTests")
}
