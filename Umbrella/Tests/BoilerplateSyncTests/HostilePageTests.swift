import BoilerplateSync
import Foundation
import Serialization
import Storage
import Testing

/// A hostile or corrupt feed page is a typed error with nothing applied and the cursor unchanged.
@Suite struct HostilePageTests {
    static let good = """
        {"protocol":1,"entries":[{"id":"k","op":"saved","revision":0,"record":{"id":"k","text":"kept","revision":0,"model_version":1}}],
         "next":"c1.aaaa.1","hasMore":false}
        """

    /// A page whose first entry is fine, so applying anything of a refused page would show.
    static func page(
        _ entries: String, next: String = "\"c1.aaaa.9\"", hasMore: String = "false", extra: String = ""
    )
        -> String
    {
        """
        {"protocol":1,"entries":[{"id":"fresh","op":"saved","revision":0,"record":{"id":"fresh","text":"new","revision":0,"model_version":1}}\(entries.isEmpty ? "" : ",")\(entries)],
         "next":\(next),"hasMore":\(hasMore)\(extra)}
        """
    }

    static let hostile: [(name: String, body: String)] = [
        ("not JSON", "<html>502 Bad Gateway</html>"),
        ("a cursor with a space", page("", next: "\"c1 aaaa\"")),
        ("an empty cursor", page("", next: "\"\"")),
        ("a 70-byte cursor", page("", next: "\"" + String(repeating: "c", count: 70) + "\"")),
        ("a cursor with a newline", page("", next: "\"c1.aa\\nbb\"")),
        ("no next cursor", #"{"protocol":1,"entries":[],"hasMore":false}"#),
        ("another protocol", #"{"protocol":2,"entries":[],"next":"c1.aaaa.2","hasMore":false}"#),
        (
            "more entries than asked for",
            page(
                (1...3).map { #"{"id":"o\#($0)","op":"deleted","revision":0}"# }.joined(separator: ","))
        ),
        ("a record that does not decode", page(#"{"id":"bad","op":"saved","revision":0,"record":{"id":"bad"}}"#)),
        ("a record of the wrong type", page(#"{"id":"bad","op":"saved","revision":0,"record":[1,2]}"#)),
        ("a saved entry without a record", page(#"{"id":"bad","op":"saved","revision":0}"#)),
        ("an entry without an op", page(#"{"id":"bad","revision":0}"#)),
        ("an unknown op", page(#"{"id":"bad","op":"exploded","revision":0}"#)),
        (
            "a record under another id",
            page(#"{"id":"bad","op":"saved","revision":0,"record":{"id":"k","text":"x","revision":0}}"#)
        ),
        (
            "a revision the record does not have",
            page(#"{"id":"bad","op":"saved","revision":3,"record":{"id":"bad","text":"x","revision":0}}"#)
        ),
        ("the same record twice", page(#"{"id":"fresh","op":"deleted","revision":0}"#)),
        ("a negative revision", page(#"{"id":"bad","op":"deleted","revision":-1}"#)),
        ("an empty page that says more follow", #"{"protocol":1,"entries":[],"next":"c1.aaaa.2","hasMore":true}"#),
        // The cursor the client sends is the one the good page gave: this page would come back forever.
        ("more follow, but the cursor stays", page("", next: "\"c1.aaaa.1\"", hasMore: "true")),
        // An empty page's next is the cursor sent: a moved one skips changes nobody saw.
        (
            "an empty last page that moves the cursor",
            #"{"protocol":1,"entries":[],"next":"c1.aaaa.7","hasMore":false}"#
        ),
    ]

    @Test func hostilePagesApplyNothing() async throws {
        let feed = ScriptedFeed()
        try await withServer(extra: { feed.add(to: $0, path: "hostile") }) { server in
            try await withFolder { folder in
                let device = try Device.open("a", in: folder, server: server, path: "hostile", pageSize: 2)
                feed.body = Self.good
                try await device.engine.sync()
                let before = try await device.notes()
                #expect(before.keys.sorted() == ["k"])
                for (name, body) in Self.hostile {
                    feed.body = body
                    await #expect(Comment(rawValue: name)) {
                        try await device.engine.sync()
                    } throws: { error in
                        if case .corruptPage = error as? SyncError { true } else { false }
                    }
                    #expect(try await device.notes() == before, Comment(rawValue: name))
                    #expect(try await device.store.cursor() == "c1.aaaa.1", Comment(rawValue: name))
                    if case .corruptPage = device.engine.state.lastError {
                    } else {
                        Issue.record("\(name): lastError \(String(describing: device.engine.state.lastError))")
                    }
                }
            }
        }
    }

    @Test func anOversizedPageIsRefusedByItsBytes() async throws {
        let feed = ScriptedFeed()
        try await withServer(extra: { feed.add(to: $0, path: "hostile") }) { server in
            try await withFolder { folder in
                let store = try SyncedRecordStore<Note>(url: folder.appendingPathComponent("a.sqlite"), table: "notes")
                let engine = SyncEngine(
                    store: store, client: .init(baseURL: server.baseURL), path: "hostile",
                    configuration: SyncEngineConfiguration(retry: Device.quickRetry, maximumPageBytes: 4096))
                let padding = String(repeating: "x", count: 8000)
                feed.body = Self.page(
                    #"{"id":"big","op":"saved","revision":0,"record":{"id":"big","text":"\#(padding)","revision":0}}"#)
                await #expect {
                    try await engine.sync()
                } throws: { error in
                    if case .corruptPage(let problem, _) = error as? SyncError {
                        problem.contains("bytes")
                    } else {
                        false
                    }
                }
                #expect(try await store.records.count() == 0)
                #expect(try await store.cursor() == nil)
            }
        }
    }
}
