import BoilerplateSync
import Foundation
import Networking
import Storage
import StorageSQLite
import StorageSyncServer
import Testing

/// Records with UUID and integer ids: the protocol writes ids as text (a UUID in upper case, an
/// integer in decimal), and the client turns them back into the record's id type.
@Suite struct RecordIDTests {
    struct Card: Codable, Identifiable, Sendable, Equatable, RevisionedRecord {
        var id: UUID
        var title: String
        var revision = 0
    }

    struct Counter: Codable, Identifiable, Sendable, Equatable, RevisionedRecord {
        var id: Int
        var value: Int
        var revision = 0
    }

    @Test func uuidAndIntegerIdsRoundTrip() async throws {
        try await withFolder { serverFolder in
            let database = serverFolder.appendingPathComponent("typed.sqlite")
            let cards = try RecordStore<Card>(sqlite: database, table: "cards", changeFeed: true)
            let counters = try RecordStore<Counter>(sqlite: database, table: "counters", changeFeed: true)
            let cardRoutes = try await SyncRoutes(store: cards, path: "cards")
            let counterRoutes = try await SyncRoutes(store: counters, path: "counters")
            try await withServer(extra: { router in
                cardRoutes.add(to: router)
                counterRoutes.add(to: router)
            }) { server in
                try await withFolder { folder in
                    let client = HTTPClient(baseURL: server.baseURL)
                    func open<Record>(
                        _ name: String, _ table: String
                    ) throws -> (SyncedRecordStore<Record>, SyncEngine<Record>) {
                        let store = try SyncedRecordStore<Record>(
                            url: folder.appendingPathComponent(name), table: table)
                        return (store, SyncEngine(store: store, client: client, path: table))
                    }
                    let (aCards, aCardSync): (SyncedRecordStore<Card>, SyncEngine<Card>) = try open("a.sqlite", "cards")
                    let (bCards, bCardSync): (SyncedRecordStore<Card>, SyncEngine<Card>) = try open("b.sqlite", "cards")
                    let (aCounters, aCounterSync): (SyncedRecordStore<Counter>, SyncEngine<Counter>) = try open(
                        "a.sqlite", "counters")
                    let (bCounters, bCounterSync): (SyncedRecordStore<Counter>, SyncEngine<Counter>) = try open(
                        "b.sqlite", "counters")
                    let kept = UUID()
                    let dropped = UUID()
                    try await aCards.insert(Card(id: kept, title: "kept"))
                    try await aCards.insert(Card(id: dropped, title: "dropped"))
                    try await aCounters.insert(Counter(id: 7, value: 1))
                    try await aCounters.insert(Counter(id: -3, value: 2))
                    try await aCardSync.sync()
                    try await aCounterSync.sync()
                    // b holds both before they change, so the tombstones' ids must find its rows.
                    try await bCardSync.sync()
                    try await bCounterSync.sync()
                    #expect(try await bCards.records.count() == 2)
                    #expect(try await bCounters.records.count() == 2)
                    try await aCards.update(Card(id: kept, title: "kept, edited"))
                    try await aCards.delete(id: dropped)
                    try await aCounters.update(Counter(id: 7, value: 10))
                    try await aCounters.delete(id: -3)
                    try await aCardSync.sync()
                    try await aCounterSync.sync()
                    try await bCardSync.sync()
                    try await bCounterSync.sync()
                    #expect(try await bCards.records.fetchAll() == [Card(id: kept, title: "kept, edited", revision: 1)])
                    #expect(try await bCounters.records.fetchAll() == [Counter(id: 7, value: 10, revision: 1)])
                    #expect(try await cards.fetchAll() == [Card(id: kept, title: "kept, edited", revision: 1)])
                    #expect(try await counters.fetchAll() == [Counter(id: 7, value: 10, revision: 1)])
                }
            }
        }
    }
}
