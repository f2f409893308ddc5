import Foundation
import PostgresNIO
import Storage
import StoragePostgres
import StoragePostgresTesting
import Testing

/// A writer whose logged writes stop at `step` until `release` opens, saying so on `reached`.
private func pausedWriter(
    _ server: PostgresTestServer, at step: ChangeFeedStep, reached: Latch, release: Latch
) async throws -> PostgresRecordBackend<Note> {
    try await PostgresRecordBackend<Note>(
        configuration: PostgresRecordBackend<Note>.configuration(from: server.url), table: "notes",
        openTimeout: .seconds(15), changeFeed: true,
        feedPause: { reachedStep in
            guard reachedStep == step else { return }
            await reached.open()
            await release.wait()
        })
}

/// Each record's table sequence number (`seq BIGSERIAL`), by id.
private func sequenceNumbers(_ backend: PostgresRecordBackend<Note>) async throws -> [String: Int64] {
    var numbers: [String: Int64] = [:]
    for try await (id, seq) in try await backend.client.query("SELECT id, seq FROM notes").decode((String, Int64).self)
    {
        numbers[id] = seq
    }
    return numbers
}

@Suite("Change feed on PostgreSQL: concurrent writers never make a reader skip a change", .timeLimit(.minutes(5)))
struct ChangeFeedOrderingTests {
    @Test("a writer that commits after a later one, with the lower sequence number, is still read")
    func lowerNumberCommitsLater() async throws {
        try await PostgresTestServer.with { server in
            let reader = try await PostgresRecordBackend<Note>(url: server.url, table: "notes", changeFeed: true)
            let (reached, release) = (Latch(), Latch())
            let slow = try await pausedWriter(server, at: .beforeNumbering, reached: reached, release: release)
            let fast = try await PostgresRecordBackend<Note>(url: server.url, table: "notes")
            let start = try await reader.changes(after: nil, limit: 10).next
            // The slow writer inserts first (taking the lower BIGSERIAL number) and stops before
            // its commit; the fast one inserts and commits meanwhile.
            let slowWrite = Task { try await slow.apply([.insert(Note(id: 1, text: "slow", stars: 1))]) }
            await reached.wait()
            try await fast.apply([.insert(Note(id: 2, text: "fast", stars: 2))])
            let first = try await reader.changes(after: start, limit: 10)
            #expect(first.entries.map(\.id) == ["2"])
            await release.open()
            try await slowWrite.value
            let second = try await reader.changes(after: first.next, limit: 10)
            #expect(second.entries.map(\.id) == ["1"])
            #expect(try await reader.changes(after: second.next, limit: 10).entries.isEmpty)
            // The interleaving was the dangerous one: a cursor on `seq` would have passed 1 at 2.
            let numbers = try await sequenceNumbers(reader)
            #expect(try #require(numbers["1"]) < #require(numbers["2"]))
            for backend in [reader, slow, fast] { try await backend.shutdown() }
        }
    }

    @Test("a writer holding feed positions makes the next writer of the table wait until it commits")
    func positionsCommitInOrder() async throws {
        try await PostgresTestServer.with { server in
            let reader = try await PostgresRecordBackend<Note>(url: server.url, table: "notes", changeFeed: true)
            let (reached, release) = (Latch(), Latch())
            let holder = try await pausedWriter(server, at: .afterNumbering, reached: reached, release: release)
            let next = try await PostgresRecordBackend<Note>(url: server.url, table: "notes")
            let start = try await reader.changes(after: nil, limit: 10).next
            let held = Task { try await holder.apply([.insert(Note(id: 1, text: "held", stars: 1))]) }
            await reached.wait()
            let done = Latch()
            let waiting = Task {
                try await next.apply([.insert(Note(id: 2, text: "next", stars: 2))])
                await done.open()
            }
            // Neither has committed: the reader sees nothing, and stays where it was.
            try await Task.sleep(for: .milliseconds(300))
            let during = try await reader.changes(after: start, limit: 10)
            #expect(during.entries.isEmpty && during.next == start)
            #expect(await !done.opened, "the next writer committed while positions were held")
            await release.open()
            try await held.value
            try await waiting.value
            await done.wait()
            let after = try await reader.changes(after: during.next, limit: 10)
            #expect(after.entries.map(\.id) == ["1", "2"])
            for backend in [reader, holder, next] { try await backend.shutdown() }
        }
    }

    @Test("many writers and a polling reader: every change is read exactly once, in position order")
    func stress() async throws {
        try await PostgresTestServer.with { server in
            let reader = try await PostgresRecordBackend<Note>(url: server.url, table: "notes", changeFeed: true)
            var opened: [PostgresRecordBackend<Note>] = []
            for _ in 0..<4 { opened.append(try await PostgresRecordBackend<Note>(url: server.url, table: "notes")) }
            let writers = opened
            let perWriter = 40
            let total = writers.count * perWriter
            let writing = Task {
                try await withThrowingTaskGroup(of: Void.self) { group in
                    for (index, writer) in writers.enumerated() {
                        group.addTask {
                            for step in 0..<perWriter {
                                let id = index * perWriter + step
                                if step % 3 == 0 {
                                    try await writer.apply([
                                        .insert(Note(id: id, text: "w\(index)", stars: step)),
                                        .insert(Note(id: id + 10_000, text: "extra", stars: 0)),
                                        .delete(id + 10_000),
                                    ])
                                } else {
                                    try await writer.apply([.insert(Note(id: id, text: "w\(index)", stars: step))])
                                }
                            }
                        }
                    }
                    try await group.waitForAll()
                }
            }
            var seen: [String] = []
            var positions: [String] = []
            var cursor: ChangeCursor?
            let deadline = ContinuousClock.now + .seconds(120)
            while ContinuousClock.now < deadline {
                let page = try await reader.changes(after: cursor, limit: 7)
                seen += page.entries.filter { !$0.isDeletion }.map(\.id)
                positions += page.entries.map(\.cursor.description)
                cursor = page.next
                if seen.count >= total, !page.hasMore { break }
            }
            try await writing.value
            let rest = try await reader.changes(after: cursor, limit: 1_000)
            seen += rest.entries.filter { !$0.isDeletion }.map(\.id)
            #expect(seen.count == total)
            #expect(Set(seen) == Set((0..<total).map(String.init)))
            #expect(Set(positions).count == positions.count)
            for backend in writers + [reader] { try await backend.shutdown() }
        }
    }
}
