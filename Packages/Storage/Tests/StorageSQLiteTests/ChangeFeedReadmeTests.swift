import Foundation
import Storage
import StorageSQLite
import Testing

/// The README's change-feed example, unchanged, inside a function; `store` is what it assumes.
@Suite("The README's change feed example")
struct ChangeFeedReadmeTests {
    @Test("compiles and behaves as written")
    func snippet() async throws {
        let database = try TemporaryDatabase()
        let store = try FileStore(directory: database.folder)
        var printed: [String] = []
        func print(_ items: Any...) { printed.append(items.map { "\($0)" }.joined(separator: " ")) }

        // — the snippet —
        let feed = try RecordStore<Note>(sqlite: store.url(for: "feed.sqlite"), changeFeed: true)
        try await feed.insert(Note(id: 1, title: "Groceries"))
        try await feed.insert(Note(id: 2, title: "Call Ana"))
        try await feed.delete(id: 1)

        var cursor: ChangeCursor? = nil  // a client's stored cursor; nil reads everything
        var more = true
        while more {
            let page: ChangePage<Note>
            do {
                page = try await feed.changes(after: cursor, limit: 500)
            } catch let error as ChangeFeedError where error.requiresFullRefetch {
                cursor = nil  // expired, foreign or restored: start over
                continue
            }
            for entry in page.entries {
                switch entry.change {
                case .saved(let note): print("saved", note.title)
                case .deleted(let id): print("deleted", id)
                }
            }
            cursor = page.next  // text: "c1.<feed>.<position>", safe in a URL
            more = page.hasMore
        }
        _ = try await feed.pruneTombstones(deletedBefore: Date().addingTimeInterval(-30 * 86_400))
        // — end of the snippet —

        #expect(printed == ["saved Call Ana", "deleted 1"])
        #expect(cursor?.description.hasSuffix(".3") == true)
    }
}
