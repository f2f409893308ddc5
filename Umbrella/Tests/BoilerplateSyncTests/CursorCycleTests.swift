import Foundation
import Hummingbird
import NIOCore
import Testing

@testable import BoilerplateSync

/// A feed whose cursors come back round (c1 → c2 → c1 …, always "more follow") would be read
/// forever: a cursor seen twice in one pull is a corrupt page.
@Suite struct CursorCycleTests {
    /// Answers `c1 → c2 → c1 …` with `hasMore: true`, one new record per page; after 40 requests
    /// it says the feed ended (so a client that does not notice the cycle still stops, and fails
    /// the test instead of hanging it).
    final class CyclingFeed: @unchecked Sendable {
        // @unchecked: `served` is only touched while holding `lock`.
        private let lock = NSLock()
        private var served = 0

        var requests: Int { lock.withLock { served } }

        func add(to router: Router<BasicRequestContext>) {
            router.get("cycle/changes") { request, _ -> Response in
                let count = self.lock.withLock {
                    self.served += 1
                    return self.served
                }
                let after = request.uri.queryParameters.get("after")
                let next = after == "c1.cycle.1" ? "c1.cycle.2" : "c1.cycle.1"
                let record = #"{"id":"p\#(count)","text":"page","revision":0,"model_version":1}"#
                let body = """
                    {"protocol":1,"entries":[{"id":"p\(count)","op":"saved","revision":0,"record":\(record)}],
                     "next":"\(next)","hasMore":\(count < 40)}
                    """
                return Response(
                    status: .ok, headers: [.contentType: "application/json"],
                    body: ResponseBody(byteBuffer: ByteBuffer(string: body)))
            }
        }
    }

    @Test func aCursorSeenTwiceInOnePullIsACorruptPage() async throws {
        let feed = CyclingFeed()
        try await withServer(extra: { feed.add(to: $0) }) { server in
            try await withFolder { folder in
                let device = try Device.open("a", in: folder, server: server, path: "cycle")
                await #expect {
                    try await device.engine.sync()
                } throws: { error in
                    if case .corruptPage(let problem, _) = error as? SyncError {
                        problem.contains("cursor")
                    } else {
                        false
                    }
                }
                // The pages before the repeated cursor were applied; the one that repeats is not.
                #expect(feed.requests == 3)
                #expect(try await device.notes().keys.sorted() == ["p1", "p2"])
                #expect(try await device.store.cursor() == "c1.cycle.2")
                guard case .corruptPage = device.engine.state.lastError else {
                    Issue.record("lastError \(String(describing: device.engine.state.lastError))")
                    return
                }
            }
        }
    }
}
