import Foundation
import Hummingbird
import NIOCore
import Testing

@testable import BoilerplateSync

/// A cursor is opaque text of at most 55 bytes (SyncProtocolV1, "Reading changes"): the client
/// stores it as given and sends it back exactly, whatever visible characters a server uses
/// (base64's `+/=`, `&`, `%`, `#`); only what cannot be a cursor (empty, over 55 bytes, control
/// characters, spaces) is a corrupt page.
@Suite struct OpaqueCursorTests {
    static let cursor = "c1+/=&#%?..%2F~x"

    /// Answers one page with ``cursor`` as its next, then an empty last page to a request that
    /// sends it back, keeping the `after` values it received.
    final class Feed: @unchecked Sendable {
        // @unchecked: `afters` is only touched while holding `lock`.
        private let lock = NSLock()
        private var afters: [String?] = []

        var received: [String?] { lock.withLock { afters } }

        func add(to router: Router<BasicRequestContext>) {
            router.get("opaque/changes") { request, _ -> Response in
                let after = request.uri.queryParameters.get("after")
                self.lock.withLock { self.afters.append(after) }
                let record = #"{"id":"n","text":"one","revision":0,"model_version":1}"#
                let next = #"c1+\/=&#%?..%2F~x"#
                let body =
                    after == nil
                    ? #"{"protocol":1,"entries":[{"id":"n","op":"saved","revision":0,"record":\#(record)}],"#
                        + #""next":"\#(next)","hasMore":true}"#
                    : #"{"protocol":1,"entries":[],"next":"\#(next)","hasMore":false}"#
                return Response(
                    status: .ok, headers: [.contentType: "application/json"],
                    body: ResponseBody(byteBuffer: ByteBuffer(string: body)))
            }
        }
    }

    @Test func aCursorWithAnyVisibleCharactersIsStoredAndSentBackAsGiven() async throws {
        let feed = Feed()
        try await withServer(extra: { feed.add(to: $0) }) { server in
            try await withFolder { folder in
                let device = try Device.open("a", in: folder, server: server, path: "opaque")
                try await device.engine.sync()
                #expect(try await device.store.cursor() == Self.cursor)
                #expect(feed.received == [nil, Self.cursor])
                #expect(try await device.notes().keys.sorted() == ["n"])
            }
        }
    }
}
