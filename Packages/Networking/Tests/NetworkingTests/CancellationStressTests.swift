import Foundation
import Networking
import NetworkingTesting
import Testing
import _KitSupport

/// Cancelling a request must end it at once with `CancellationError`, whatever the transport is
/// doing at that moment, and leave nothing behind that still runs.
@Suite("Cancellation under load")
struct CancellationStressTests {
    /// Where a request was when its task was cancelled, as its progress saw it.
    enum Stage: Sendable {
        case beforeHead, atHead, inBody
    }

    /// How one request of the stress test ended.
    enum Outcome: Sendable {
        case completed
        case cancelled(Stage)
        case wrongBody(Int)
        case unexpected(String)
    }

    static let chunkSize = 8_192
    static let chunks = 12

    /// Requests in the stress test; `CANCEL_STRESS_REQUESTS` raises it for a longer soak.
    static var requestCount: Int {
        ProcessInfo.processInfo.environment["CANCEL_STRESS_REQUESTS"].flatMap { Int($0) } ?? 2_000
    }

    /// The longest a request on a timer runs before its cancel, in microseconds. (The second
    /// half of the requests is cancelled within 3 ms, while the session is still setting them up:
    /// there, before the fix, FoundationNetworking lost about one completion in a few thousand
    /// cancels, and the request hung. Mixed with the others, those early cancels slowed them
    /// down so much that hardly any got its head before its cancel.)
    static var maxCancelDelay: Int {
        ProcessInfo.processInfo.environment["CANCEL_STRESS_DELAY_US"].flatMap { Int($0) } ?? 100_000
    }

    @Test(
        "hundreds of requests, 16 at a time, each cancelled at a random moment: each ends, with its body or CancellationError"
    )
    func randomCancels() async throws {
        let total = Self.requestCount
        try await withServer { server throws in
            await server.stream("GET /api/slow") {
                // Some heads come late, so some cancels land before the head.
                try await Task.sleep(for: .microseconds(Int.random(in: 0...4_000)))
                return SlowBody(chunkSize: Self.chunkSize, chunks: Self.chunks, pause: .milliseconds(2))
            }
            let client = HTTPClient(baseURL: server.apiURL)
            let outcomes = Locked<[Outcome]>([])
            let finished = await within(.seconds(90)) {
                await withTaskGroup(of: Void.self) { group in
                    for index in 0..<total {
                        if index >= 16 { await group.next() }
                        group.addTask {
                            let outcome = await Self.cancelledRequest(
                                client, index: index, plan: Self.plan(index, of: total))
                            outcomes.withLock { $0.append(outcome) }
                        }
                    }
                }
                return true
            }
            let seen = outcomes.withLock { $0 }
            #expect(finished == true, "hang: only \(seen.count) of \(total) requests ended")
            var completed = 0
            var beforeHead = 0
            var atHead = 0
            var inBody = 0
            for outcome in seen {
                switch outcome {
                case .completed: completed += 1
                case .cancelled(.beforeHead): beforeHead += 1
                case .cancelled(.atHead): atHead += 1
                case .cancelled(.inBody): inBody += 1
                case .wrongBody(let count): Issue.record("a completed request had \(count) bytes")
                case .unexpected(let error): Issue.record("a request failed with \(error)")
                }
            }
            #expect(seen.count == total)
            print(
                "cancellation stress: \(total) requests, \(completed) completed, \(beforeHead) cancelled before the head, \(atHead) at the head, \(inBody) in the body"
            )
        }
    }

    /// When a request of the stress test is cancelled.
    enum Plan {
        /// After a random delay of up to `microseconds`.
        case after(microseconds: Int)
        /// From its progress handler, on the session's queue, as the head arrives.
        case atHead
        /// From its progress handler, on the session's queue, once `bytes` of the body are in.
        case inBody(bytes: Int64)
    }

    /// The plan for request `index` of `total`: the first half mixes a random delay of up to
    /// ``maxCancelDelay`` (on loopback a head takes some 50 ms to come back and the body some
    /// 25 ms more) with cancels at the head and in the body, which land there however loaded
    /// the machine is; the second half is cancelled within 3 ms.
    static func plan(_ index: Int, of total: Int) -> Plan {
        if index >= total / 2 { return .after(microseconds: 3_000) }
        switch index % 3 {
        case 0: return .after(microseconds: maxCancelDelay)
        case 1: return .atHead
        default: return .inBody(bytes: Int64.random(in: 1..<Int64(chunkSize * chunks)))
        }
    }

    /// One request, cancelled as `plan` says.
    static func cancelledRequest(_ client: HTTPClient, index: Int, plan: Plan) async -> Outcome {
        let stage = Locked(Stage.beforeHead)
        let handle = Locked<Task<HTTPResponse, any Error>?>(nil)
        let request = Task {
            try await client.send(
                HTTPRequest(path: "slow", query: ["i": "\(index)"]),
                progress: { progress in
                    stage.withLock { $0 = progress.completedBytes == 0 ? .atHead : .inBody }
                    switch plan {
                    case .atHead where progress.completedBytes == 0: handle.withLock { $0 }?.cancel()
                    case .inBody(let bytes) where progress.completedBytes >= bytes: handle.withLock { $0 }?.cancel()
                    default: break
                    }
                })
        }
        handle.withLock { $0 = request }
        var at: Stage?
        if case .after(let microseconds) = plan {
            try? await Task.sleep(for: .microseconds(Int.random(in: 0...microseconds)))
            at = stage.withLock { $0 }
            request.cancel()
        }
        switch await request.result {
        case .success(let response):
            return response.body.count == chunkSize * chunks ? .completed : .wrongBody(response.body.count)
        case .failure(let error):
            return error is CancellationError
                ? .cancelled(at ?? stage.withLock { $0 }) : .unexpected(String(describing: error))
        }
    }

    @Test(
        "a download cancelled mid-body throws CancellationError, and its partial file is no longer written",
        arguments: [false, true])
    func cancelledDownload(cancelFromProgress: Bool) async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let body = SlowBody(chunkSize: 16_384, chunks: 400, pause: .milliseconds(3))
        try await withServer { server throws in
            await server.stream("GET /api/big.bin") { body }
            let client = HTTPClient(baseURL: server.apiURL)
            let destination = directory.url.appendingPathComponent("big.bin")
            let partial = destination.path + ".partial"
            let (reached, signal) = AsyncStream<Void>.makeStream()
            let task = Locked<Task<URL, any Error>?>(nil)
            let reported = Locked<Int64>(0)
            let download = Task {
                try await client.download("big.bin", to: destination) { progress in
                    reported.withLock { $0 = progress.completedBytes }
                    guard progress.completedBytes >= 262_144 else { return }
                    // From the progress handler, the cancel comes while the receiver is running.
                    if cancelFromProgress { task.withLock { $0 }?.cancel() }
                    signal.yield()
                }
            }
            task.withLock { $0 = download }
            let started = await within(.seconds(60)) {
                for await _ in reached { return true }
                return false
            }
            #expect(started == true, "the download never got 256 KiB in")
            download.cancel()
            guard let result = await within(.seconds(60), { await download.result }) else {
                Issue.record("hang: the cancelled download never ended")
                return
            }
            #expect(throws: CancellationError.self) { try result.get() }
            #expect(!FileManager.default.fileExists(atPath: destination.path))
            let size = Self.size(of: partial)
            // Every chunk written was reported before download threw, and none is written after.
            #expect(size == reported.withLock { $0 })
            #expect(size > 0 && size < Int64(body.count))
            try await Task.sleep(for: .milliseconds(300))
            #expect(Self.size(of: partial) == size)
            #expect(reported.withLock { $0 } == size)
        }
    }

    @Test("a Content-Length over the size limit fails with responseTooLarge long before the body could be sent")
    func overLimitHead() async throws {
        let produced = Counter()
        // 64 MiB at 16 KiB per 2 ms or slower: sending it all would take 8 s at least.
        let body = SlowBody(chunkSize: 16_384, chunks: 4_096, pause: .milliseconds(2), produced: produced)
        try await withServer { server throws in
            await server.stream("GET /api/huge") { body }
            let client = HTTPClient(baseURL: server.apiURL)
            client.maxResponseSize = 1_048_576
            let outcome = await within(.seconds(120)) { () -> String in
                do {
                    let response = try await client.send(HTTPRequest(path: "huge"))
                    return "a body of \(response.body.count) bytes"
                } catch let error as HTTPClientError {
                    if case .responseTooLarge(let limit, _) = error, limit == 1_048_576 { return "too large" }
                    return "\(error)"
                } catch {
                    return "\(error)"
                }
            }
            #expect(outcome == "too large")
            let atThrow = produced.count
            try await Task.sleep(for: .milliseconds(300))
            let settled = produced.count
            // The client cancelled on the head: the server stopped early, and stays stopped.
            #expect(atThrow < body.count / 4)
            #expect(settled < body.count / 4)
        }
    }

    static func size(of path: String) -> Int64 {
        ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.int64Value ?? -1
    }
}
