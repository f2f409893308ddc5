import Foundation
import Hummingbird
import NIOCore
import Testing

@testable import BoilerplateSync

/// `refetchAll()` asked while a re-fetch runs is kept: the next sync reads the feed from the
/// start again, instead of the running re-fetch's end clearing the request.
@Suite struct RefetchRequestTests {
    /// Two pages; while answering the second, calls `during` (the app asking for a re-fetch).
    final class Feed: @unchecked Sendable {
        // @unchecked: the fields are only touched while holding `lock`.
        private let lock = NSLock()
        private var afters: [String?] = []
        private var hook: (@Sendable () async throws -> Void)?

        var received: [String?] { lock.withLock { afters } }
        var during: (@Sendable () async throws -> Void)? {
            get { lock.withLock { hook } }
            set { lock.withLock { hook = newValue } }
        }

        func add(to router: Router<BasicRequestContext>) {
            router.get("again/changes") { request, _ -> Response in
                let after = request.uri.queryParameters.get("after")
                self.lock.withLock { self.afters.append(after) }
                let id = after == nil ? "a" : "b"
                let record = #"{"id":"\#(id)","text":"t","revision":0,"model_version":1}"#
                if after != nil, let during = self.during {
                    self.during = nil
                    try await during()
                }
                let body =
                    #"{"protocol":1,"entries":[{"id":"\#(id)","op":"saved","revision":0,"record":\#(record)}],"#
                    + #""next":"c1.again.\#(id)","hasMore":\#(after == nil)}"#
                return Response(
                    status: .ok, headers: [.contentType: "application/json"],
                    body: ResponseBody(byteBuffer: ByteBuffer(string: body)))
            }
        }
    }

    @Test func aRefetchAskedDuringARunningRefetchIsNotLost() async throws {
        let feed = Feed()
        try await withServer(extra: { feed.add(to: $0) }) { server in
            try await withFolder { folder in
                let device = try Device.open("a", in: folder, server: server, path: "again")
                try await device.engine.sync()
                #expect(feed.received == [nil, "c1.again.a"])
                try await device.engine.refetchAll()
                let engine = device.engine
                feed.during = { try await engine.refetchAll() }
                try await device.engine.sync()
                // The re-fetch read both pages; the request made during it is still there.
                #expect(feed.received == [nil, "c1.again.a", nil, "c1.again.a"])
                #expect(device.engine.state.refetch == .needed)
                try await device.engine.sync()
                #expect(feed.received == [nil, "c1.again.a", nil, "c1.again.a", nil, "c1.again.a"])
                #expect(device.engine.state.refetch == SyncRefetch.none)
            }
        }
    }
}
