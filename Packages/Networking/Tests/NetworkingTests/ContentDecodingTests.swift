import Foundation
import Networking
import NetworkingTesting
import Testing
import _KitSupport

/// A gzip-coded response arrives decoded, so its `Content-Length` (the coded bytes) promises
/// nothing about the body: downloads and buffered requests must not check it.
@Suite("Content-coded responses")
struct ContentDecodingTests {
    static let bytes = Data.pattern(count: 300_000)

    static func gzipRoute(_ server: TestServer, path: String = "GET /api/coded") async {
        let coded = Gzip.encode(bytes)
        await server.route(path) { _ in
            Reply(headers: [("Content-Type", "application/octet-stream"), ("Content-Encoding", "gzip")], body: coded)
        }
    }

    @Test("a gzip download completes with the decoded bytes, and is not kept for resuming")
    func download() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try await withServer { server throws in
            await Self.gzipRoute(server)
            let client = HTTPClient(baseURL: server.apiURL)
            let destination = directory.url.appendingPathComponent("coded.bin")
            let progress = Locked<[TransferProgress]>([])
            try await client.download("coded", to: destination) { update in progress.withLock { $0.append(update) } }
            #expect(try Data(contentsOf: destination) == Self.bytes)
            // The coded length is not the total: progress does not claim a total it cannot know.
            #expect(progress.withLock { $0 }.allSatisfy { $0.totalBytes == nil })
            #expect(!FileManager.default.fileExists(atPath: destination.path + ".partial.validator"))
        }
    }

    @Test("the head says the body was decoded; Content-Length is the coded length")
    func head() async throws {
        try await withServer { server throws in
            await Self.gzipRoute(server)
            let head = Locked<ResponseHead?>(nil)
            final class Capture: ResponseReceiver, @unchecked Sendable {
                let head: Locked<ResponseHead?>
                let count = Locked(0)
                init(head: Locked<ResponseHead?>) { self.head = head }
                func receive(head: ResponseHead) throws { self.head.withLock { $0 = head } }
                func receive(_ chunk: Data) throws { count.withLock { $0 += chunk.count } }
            }
            let capture = Capture(head: head)
            try await URLSessionTransport().perform(
                OutgoingRequest(method: .get, url: server.apiURL.appendingPathComponent("coded")), receiver: capture)
            let received = try #require(head.withLock { $0 })
            #expect(received.isContentDecoded)
            #expect(received.expectedContentLength == Int64(Gzip.encode(Self.bytes).count))
            #expect(received.deliveredContentLength == nil)
            #expect(capture.count.withLock { $0 } == Self.bytes.count)
            let plain = ResponseHead(
                status: 200, headers: ["Content-Length": "5", "Content-Encoding": "identity"], url: server.apiURL)
            #expect(!plain.isContentDecoded && plain.deliveredContentLength == 5)
        }
    }

    @Test("a buffered gzip response is checked against the size limit by its decoded bytes")
    func buffered() async throws {
        try await withServer { server throws in
            await Self.gzipRoute(server)
            let client = HTTPClient(baseURL: server.apiURL)
            let response = try await client.send(HTTPRequest(path: "coded"))
            #expect(response.body == Self.bytes)
            client.maxResponseSize = 200_000
            let error = await #expect(throws: HTTPClientError.self) {
                try await client.send(HTTPRequest(path: "coded"))
            }
            guard case .responseTooLarge(let limit, _) = error else {
                Issue.record("expected responseTooLarge, got \(String(describing: error))")
                return
            }
            #expect(limit == 200_000)
        }
    }
}
