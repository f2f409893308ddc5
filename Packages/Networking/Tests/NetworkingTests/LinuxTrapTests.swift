import Foundation
import Networking
import NetworkingTesting
import Testing
import _KitSupport

/// The FoundationNetworking behaviours the issue lists, each designed around and tested.
@Suite("Known Linux URLSession traps")
struct LinuxTrapTests {
    @Test("download size is checked against Content-Length: a body written twice is an error")
    func bodyWrittenTwice() async throws {
        // Linux's download(for:delegate:) once wrote the body twice; our downloads stream
        // through a data delegate and compare what they wrote with Content-Length.
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let source = directory.url.appendingPathComponent("source.bin")
        let bytes = Data.pattern(count: 750_000)
        try bytes.write(to: source)
        try await withServer { server throws in
            await server.file("GET /api/twice.bin", at: source)
            let client = HTTPClient(baseURL: server.apiURL)
            let destination = directory.url.appendingPathComponent("twice.bin")
            try await client.download("twice.bin", to: destination)
            let size = try FileManager.default.attributesOfItem(atPath: destination.path)[.size] as? Int
            #expect(size == bytes.count)

            // A transport that delivers every chunk twice, as the trap did, is caught.
            let doubling = HTTPClient(baseURL: server.apiURL, transport: DoublingTransport())
            let error = await #expect(throws: HTTPClientError.self) {
                try await doubling.download("twice.bin", to: directory.url.appendingPathComponent("doubled.bin"))
            }
            guard case .incompleteDownload(let expected, let received, _) = try #require(error) else {
                Issue.record("expected incompleteDownload, got \(String(describing: error))")
                return
            }
            #expect(expected == Int64(bytes.count))
            #expect(received == Int64(bytes.count) * 2)
            #expect(!FileManager.default.fileExists(atPath: directory.url.appendingPathComponent("doubled.bin").path))
        }
    }

    @Test("a data task's progress is computed from bytes received, not left at 0")
    func dataTaskProgress() async throws {
        try await withServer { server throws in
            await server.route("GET /api/data") { _ in Reply(body: Data.pattern(count: 400_000)) }
            let client = HTTPClient(baseURL: server.apiURL)
            let fractions = Locked<[Double]>([])
            let response = try await client.send(
                HTTPRequest(path: "data"),
                progress: { progress in
                    fractions.withLock { $0.append(progress.fractionCompleted) }
                })
            #expect(response.body.count == 400_000)
            #expect(fractions.withLock { $0.last } == 1)
            #expect(fractions.withLock { $0.count } >= 2)
        }
    }

    @Test("cancellation surfaces as CancellationError, never URLError(.cancelled)")
    func cancellationError() async throws {
        try await withServer { server throws in
            await server.route("GET /api/slow") { _ in Reply(delay: .seconds(5)) }
            let client = HTTPClient(baseURL: server.apiURL)
            let task = Task {
                try await Task.sleep(for: .milliseconds(100))
                return try await client.send(HTTPRequest(path: "slow"))
            }
            task.cancel()
            do {
                _ = try await task.value
                Issue.record("the request finished")
            } catch {
                #expect(error is CancellationError)
                #expect(!(error is URLError))
            }
        }
    }

    @Test("bytes(for:) does not exist on Linux: chunks(_:) streams the body instead")
    func streaming() async throws {
        try await withServer { server throws in
            let payload = Data.pattern(count: 300_000)
            await server.route("GET /api/stream") { _ in Reply(body: payload) }
            await server.route("GET /api/nope") { _ in .text("nope", status: 403) }
            let client = HTTPClient(baseURL: server.apiURL)
            var received = Data()
            for try await chunk in client.chunks(HTTPRequest(path: "stream")) {
                received.append(chunk)
            }
            #expect(received == payload)
            await #expect(throws: HTTPClientError.self) {
                for try await _ in client.chunks(HTTPRequest(path: "nope")) {}
            }
        }
    }
}

/// A transport that wraps URLSession's and hands every chunk over twice.
struct DoublingTransport: Transport {
    let inner = URLSessionTransport()

    final class Doubler: ResponseReceiver {
        let wrapped: any ResponseReceiver
        init(_ wrapped: any ResponseReceiver) { self.wrapped = wrapped }
        func receive(head: ResponseHead) throws { try wrapped.receive(head: head) }
        func receive(_ chunk: Data) throws {
            try wrapped.receive(chunk)
            try wrapped.receive(chunk)
        }
    }

    func perform(_ request: OutgoingRequest, receiver: any ResponseReceiver) async throws {
        try await inner.perform(request, receiver: Doubler(receiver))
    }
}
