import Foundation
import Networking
import NetworkingTesting
import Testing
import _KitSupport

@Suite("Retries, timeouts and cancellation")
struct ReliabilityTests {
    @Test("a GET answered 500 with Retry-After waits as told and retries until it succeeds")
    func retryAfter() async throws {
        try await withServer { server throws in
            let calls = Counter()
            await server.route("GET /api/flaky") { _ in
                calls.next() < 3
                    ? Reply(status: 500, headers: [("Retry-After", "2")], body: Data("busy".utf8)) : .text("fine")
            }
            let sleeps = SleepRecorder()
            let client = HTTPClient(baseURL: server.apiURL)
            client.retryPolicy = sleeps.policy()
            #expect(try await client.send(HTTPRequest(path: "flaky")).text == "fine")
            #expect(calls.count == 3)
            #expect(sleeps.recorded == [.seconds(2), .seconds(2)])
        }
    }

    @Test("retries stop at the attempt limit and the last error is thrown")
    func maxAttempts() async throws {
        try await withServer { server throws in
            await server.route("GET /api/down") { _ in .text("down", status: 503) }
            let sleeps = SleepRecorder()
            let client = HTTPClient(baseURL: server.apiURL)
            client.retryPolicy = sleeps.policy(maxAttempts: 4)
            let error = await #expect(throws: HTTPClientError.self) { try await client.send(HTTPRequest(path: "down")) }
            #expect(error?.status == .serviceUnavailable)
            #expect(server.requests.count == 4)
            #expect(sleeps.recorded == [.milliseconds(100), .milliseconds(200), .milliseconds(400)])
        }
    }

    @Test("POST is not retried unless the policy allows it")
    func postNotRetried() async throws {
        try await withServer { server throws in
            await server.route("POST /api/orders") { _ in .text("oops", status: 503) }
            let sleeps = SleepRecorder()
            let client = HTTPClient(baseURL: server.apiURL)
            client.retryPolicy = sleeps.policy()
            await #expect(throws: HTTPClientError.self) { try await client.post("orders") }
            #expect(server.requests.count == 1)

            var request = HTTPRequest(method: .post, path: "orders")
            request.retry = sleeps.policy(retriesNonIdempotent: true)
            await #expect(throws: HTTPClientError.self) { try await client.send(request) }
            #expect(server.requests.count == 4)
        }
    }

    @Test("backoff doubles up to the maximum, and jitter stays within it")
    func backoff() {
        let policy = RetryPolicy(maxAttempts: 10, baseDelay: .seconds(1), maxDelay: .seconds(5), jitter: false)
        #expect(
            (1...5).map { policy.delay(beforeRetry: $0) } == [
                .seconds(1), .seconds(2), .seconds(4), .seconds(5), .seconds(5),
            ])
        #expect(policy.delay(beforeRetry: 10) == nil)
        let jittered = RetryPolicy(maxAttempts: 10, baseDelay: .seconds(1), maxDelay: .seconds(5))
        for retry in 1...8 {
            let delay = jittered.delay(beforeRetry: retry)
            #expect(delay.map { $0 >= .zero && $0 <= .seconds(5) } == true)
        }
    }

    @Test("Retry-After is read as seconds or as an HTTP date, and a too-long one stops retrying")
    func retryAfterParsing() {
        let policy = RetryPolicy(maxAttempts: 3, maxRetryAfter: .seconds(60))
        let now = Date(timeIntervalSince1970: 1_445_412_480)  // Wed, 21 Oct 2015 07:28:00 GMT
        #expect(policy.delay(beforeRetry: 1, retryAfter: "7", now: now) == .seconds(7))
        #expect(policy.delay(beforeRetry: 1, retryAfter: "Wed, 21 Oct 2015 07:28:30 GMT", now: now) == .seconds(30))
        #expect(policy.delay(beforeRetry: 1, retryAfter: "3600", now: now) == nil)
        // The wait itself, for callers that wait past one request's retries: any length.
        #expect(RetryPolicy.retryAfter("3600", now: now) == .seconds(3600))
        #expect(RetryPolicy.retryAfter("Wed, 21 Oct 2015 07:28:30 GMT", now: now) == .seconds(30))
        #expect(RetryPolicy.retryAfter("Wed, 21 Oct 2015 07:27:00 GMT", now: now) == .zero)
        #expect(RetryPolicy.retryAfter("-5", now: now) == nil)
        #expect(RetryPolicy.retryAfter("soon", now: now) == nil)
    }

    @Test("a request idle past its timeout fails with a timeout")
    func requestTimeout() async throws {
        try await withServer { server throws in
            await server.route("GET /api/slow") { _ in Reply(body: Data("late".utf8), delay: .seconds(3)) }
            let client = HTTPClient(baseURL: server.apiURL)
            client.retryPolicy = .never
            var request = HTTPRequest(path: "slow")
            request.timeout = .milliseconds(300)
            let error = await #expect(throws: HTTPClientError.self) { try await client.send(request) }
            guard case .transport(_, let underlying) = try #require(error) else {
                Issue.record("expected a transport error, got \(String(describing: error))")
                return
            }
            #expect((underlying as? URLError)?.code == .timedOut)
        }
    }

    @Test("a request past its resource timeout throws timedOut")
    func resourceTimeout() async throws {
        try await withServer { server throws in
            await server.route("GET /api/slow") { _ in Reply(body: Data("late".utf8), delay: .seconds(3)) }
            let client = HTTPClient(baseURL: server.apiURL)
            client.resourceTimeout = .milliseconds(300)
            let error = await #expect(throws: HTTPClientError.self) { try await client.send(HTTPRequest(path: "slow")) }
            guard case .timedOut(_, let after) = try #require(error) else {
                Issue.record("expected timedOut, got \(String(describing: error))")
                return
            }
            #expect(after == .milliseconds(300))
        }
    }

    @Test("cancelling the task throws CancellationError, not URLError(.cancelled)")
    func cancellation() async throws {
        try await withServer { server throws in
            let arrived = AsyncStream<Void>.makeStream()
            await server.route("GET /api/slow") { _ in
                arrived.continuation.yield()
                return Reply(body: Data("late".utf8), delay: .seconds(5))
            }
            let client = HTTPClient(baseURL: server.apiURL)
            let task = Task { try await client.send(HTTPRequest(path: "slow")) }
            var iterator = arrived.stream.makeAsyncIterator()
            await iterator.next()
            task.cancel()
            let result = await task.result
            #expect(throws: CancellationError.self) { try result.get() }
            #expect(client.requestsInFlight == 0)
        }
    }

    @Test("a connection refused is retried for GET, then reported as a transport error")
    func connectionRefused() async throws {
        let server = try await TestServer.start()
        let url = server.apiURL
        await server.stop()
        let sleeps = SleepRecorder()
        let client = HTTPClient(baseURL: url)
        client.retryPolicy = sleeps.policy(maxAttempts: 2)
        let error = await #expect(throws: HTTPClientError.self) { try await client.send(HTTPRequest(path: "x")) }
        guard case .transport = try #require(error) else {
            Issue.record("expected a transport error, got \(String(describing: error))")
            return
        }
        #expect(sleeps.recorded.count == 1)
    }

    @Test("identical GETs in flight share one exchange when sharing is on")
    func sharedGETs() async throws {
        try await withServer { server throws in
            await server.route("GET /api/shared") { _ in Reply(body: Data("same".utf8), delay: .milliseconds(500)) }
            let client = HTTPClient(baseURL: server.apiURL)
            client.sharesIdenticalGETs = true
            let texts = try await withThrowingTaskGroup(of: String?.self) { group in
                for _ in 0..<8 { group.addTask { try await client.send(HTTPRequest(path: "shared")).text } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(texts == Array(repeating: "same", count: 8))
            #expect(server.requests.count == 1)
        }
    }

    @Test("the activity hook reports requests in flight, back to zero at the end")
    func activity() async throws {
        try await withServer { server throws in
            await server.route("GET /api/a") { _ in .text("a") }
            let client = HTTPClient(baseURL: server.apiURL)
            let counts = Locked<[Int]>([])
            client.onActivity = { count in counts.withLock { $0.append(count) } }
            try await client.send(HTTPRequest(path: "a"))
            #expect(counts.withLock { $0 } == [1, 0])
        }
    }
}

@Suite("Concurrency")
struct ConcurrencyStressTests {
    @Test("300 requests, 24 at a time, through one client while its settings change, all complete")
    func stress() async throws {
        try await withServer { server throws in
            await server.route("GET /api/n/*") { request in .text(String(request.path.split(separator: "/").last ?? ""))
            }
            let client = HTTPClient(baseURL: server.apiURL)
            let peak = Locked(0)
            client.onActivity = { count in peak.withLock { $0 = max($0, count) } }
            let answers = Locked<[Int]>([])
            try await withThrowingTaskGroup(of: Void.self) { group in
                for index in 0..<300 {
                    if index >= 24 { try await group.next() }
                    group.addTask {
                        if index % 10 == 0 { client.headers["X-Round"] = "\(index)" }
                        let text = try await client.send(HTTPRequest(path: "n/\(index)")).text
                        answers.withLock { $0.append(Int(text ?? "") ?? -1) }
                    }
                }
                try await group.waitForAll()
            }
            #expect(answers.withLock { $0.sorted() } == Array(0..<300))
            #expect(server.requests.count == 300)
            #expect(client.requestsInFlight == 0)
            #expect(peak.withLock { $0 } <= 24)
            #expect(peak.withLock { $0 } > 1)
        }
    }
}
