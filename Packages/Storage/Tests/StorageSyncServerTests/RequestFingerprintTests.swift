import Foundation
import Testing

@testable import StorageSyncServer

@Suite("Request fingerprints: SHA-256, so a reused key with another body is never taken for a replay")
struct RequestFingerprintTests {
    @Test(
        "the digest matches FIPS 180-4's test vectors",
        arguments: [
            ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
            ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
            (
                "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
                "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
            ),
            (
                String(repeating: "a", count: 1_000_000),
                "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0"
            ),
        ])
    func vectors(_ input: String, _ digest: String) {
        #expect(SHA256.hex(Array(input.utf8)) == digest)
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
