import Foundation
import Testing

@testable import StorageSyncServer

@Suite("Request fingerprints: SHA-256, so a reused key with another body is never taken for a replay")
struct RequestFingerprintTests {
    @Test("the fingerprint is SHA-256 of the framed write, as 64 lowercase hex digits")
    func digest() {
        // Digests computed apart (Python's hashlib) over "sync-v1\n<method>\n<id>\n<base>\n" + body.
        let body = Data(#"{"id":"n1"}"#.utf8)
        #expect(
            SyncRoutes<SyncNote>.fingerprint(.update, id: "n1", base: 3, body: body)
                == "84bd6aaa4e6a8208c7881db21b882118be456bd75796aa06e5141c66d7eb3efc")
        #expect(
            SyncRoutes<SyncNote>.fingerprint(.delete, id: "n1", base: 3, body: Data())
                == "6a5c3b9bda9895978bbb5456b1d44f6a99c2d58ee4661e35272df56760779840")
    }

    @Test("method, record, base revision and every body byte take part")
    func parts() {
        let body = Data(#"{"id":"n1"}"#.utf8)
        let base = SyncRoutes<SyncNote>.fingerprint(.update, id: "n1", base: 3, body: body)
        #expect(base == SyncRoutes<SyncNote>.fingerprint(.update, id: "n1", base: 3, body: body))
        #expect(base != SyncRoutes<SyncNote>.fingerprint(.delete, id: "n1", base: 3, body: body))
        #expect(base != SyncRoutes<SyncNote>.fingerprint(.update, id: "n2", base: 3, body: body))
        #expect(base != SyncRoutes<SyncNote>.fingerprint(.update, id: "n1", base: 4, body: body))
        #expect(base != SyncRoutes<SyncNote>.fingerprint(.update, id: "n1", base: 3, body: body + Data(" ".utf8)))
    }
}
