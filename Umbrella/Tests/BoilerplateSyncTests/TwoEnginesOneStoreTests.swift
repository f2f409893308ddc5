import Foundation
import Hummingbird
import NIOCore
import Testing

@testable import BoilerplateSync

/// Two engines on one database file (an app and its extension): a page fetched before the other
/// engine moved the cursor is not applied over what that engine applied since — it could decide a
/// conflict against an older record and drop a pending edit.
@Suite struct TwoEnginesOneStoreTests {
    /// Answers after `c1.two.0` with X@0 ("old") to the first request, after running `during`
    /// (the other engine's whole sync, answered X@1 "new"); after `c1.two.1`, nothing new.
    final class Feed: @unchecked Sendable {
        // @unchecked: the fields are only touched while holding `lock`.
        private let lock = NSLock()
        private var hook: (@Sendable () async throws -> Void)?

        var during: (@Sendable () async throws -> Void)? {
            get { lock.withLock { hook } }
            set { lock.withLock { hook = newValue } }
        }

        func add(to router: Router<BasicRequestContext>) {
            router.get("two/changes") { request, _ -> Response in
                let after = request.uri.queryParameters.get("after")
                let body: String
                if after == nil {
                    body = Self.page(text: "base", revision: 0, next: "c1.two.0")
                } else if after == "c1.two.0" {
                    if let during = self.during {
                        self.during = nil
                        // Read now (X@0), answered after the other engine's sync.
                        try await during()
                        body = Self.page(text: "old", revision: 0, next: "c1.two.1")
                    } else {
                        body = Self.page(text: "new", revision: 1, next: "c1.two.1")
                    }
                } else {
                    body = #"{"protocol":1,"entries":[],"next":"\#(after ?? "")","hasMore":false}"#
                }
                return Response(
                    status: .ok, headers: [.contentType: "application/json"],
                    body: ResponseBody(byteBuffer: ByteBuffer(string: body)))
            }
        }

        static func page(text: String, revision: Int, next: String) -> String {
            let record = #"{"id":"x","text":"\#(text)","revision":\#(revision),"model_version":1}"#
            return #"{"protocol":1,"entries":[{"id":"x","op":"saved","revision":\#(revision),"record":\#(record)}],"#
                + #""next":"\#(next)","hasMore":false}"#
        }
    }

    @Test func aPageFetchedBeforeTheOtherEngineMovedTheCursorIsNotApplied() async throws {
        let feed = Feed()
        try await withServer(extra: { feed.add(to: $0) }) { server in
            try await withFolder { folder in
                let app = try Device.open("shared", in: folder, server: server, path: "two")
                let ext = try Device.open("shared", in: folder, server: server, path: "two")
                try await app.engine.sync()
                #expect(try await app.store.cursor() == "c1.two.0")
                feed.during = {
                    try await ext.engine.sync()
                    // The user edits x after the extension applied x@1: pending, based on 1.
                    try await ext.store.update(Note(id: "x", text: "edit", revision: 1))
                }
                // The app's page (x@0) arrives after all that: it must not be applied.
                try await app.engine.pull()
                #expect(try await app.store.records.fetch(id: "x")?.text == "edit")
                #expect(try await app.store.pendingChanges().map(\.id) == ["x"])
                #expect(try await app.store.conflicts().isEmpty)
                #expect(try await app.store.cursor() == "c1.two.1")
            }
        }
    }
}
