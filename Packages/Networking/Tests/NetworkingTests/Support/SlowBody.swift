import FlyingFox
import FlyingSocks
import Foundation
import NetworkingTesting
import _KitSupport

/// A response body the test server produces chunk by chunk, pausing before each chunk and
/// counting what it produced, so a test sees how much of it a client made the server send.
struct SlowBody: AsyncBufferedSequence {
    typealias Element = UInt8

    var chunkSize: Int
    var chunks: Int
    var pause: Duration
    /// Counts the bytes produced so far, when given.
    var produced: Counter?

    var count: Int { chunkSize * chunks }

    func makeAsyncIterator() -> Iterator { Iterator(body: self) }

    struct Iterator: AsyncBufferedIteratorProtocol {
        typealias Buffer = Data
        let body: SlowBody
        var chunk = 0
        var offset = 0

        mutating func next() async throws -> UInt8? {
            try await nextBuffer(suggested: 1)?.first
        }

        mutating func nextBuffer(suggested count: Int) async throws -> Data? {
            guard chunk < body.chunks else { return nil }
            if offset == 0, body.pause > .zero { try await Task.sleep(for: body.pause) }
            let length = Swift.min(Swift.max(count, 1), body.chunkSize - offset)
            offset += length
            let data = Data(repeating: UInt8(truncatingIfNeeded: chunk), count: length)
            if offset == body.chunkSize {
                chunk += 1
                offset = 0
            }
            body.produced?.add(length)
            return data
        }
    }
}

extension TestServer {
    /// Adds a route such as `"GET /api/slow"` answering 200 with the body `make` returns, its
    /// length in `Content-Length`; `make` may sleep first to delay the head.
    func stream(_ route: String, _ make: @escaping @Sendable () async throws -> SlowBody) async {
        await httpServer.appendRoute(HTTPRoute(stringLiteral: route)) { _ in
            let body = try await make()
            var headers = FlyingFox.HTTPHeaders()
            headers.addValue("application/octet-stream", for: .contentType)
            return FlyingFox.HTTPResponse(
                statusCode: .ok, headers: headers, body: HTTPBodySequence(from: body, count: body.count))
        }
    }
}

/// Runs `body` and returns its result, or nil when it has not finished within `limit`: a hang
/// guard, not a timing check. On nil the work is cancelled and left behind, never awaited.
func within<T: Sendable>(_ limit: Duration, _ body: @escaping @Sendable () async -> T) async -> T? {
    let work = Task { await body() }
    let gate = Locked<CheckedContinuation<T?, Never>?>(nil)
    let resolve: @Sendable (T?) -> Void = { value in
        let continuation = gate.withLock { slot -> CheckedContinuation<T?, Never>? in
            defer { slot = nil }
            return slot
        }
        continuation?.resume(returning: value)
    }
    let result = await withCheckedContinuation { (continuation: CheckedContinuation<T?, Never>) in
        gate.withLock { $0 = continuation }
        let timer = Task {
            try? await Task.sleep(for: limit)
            resolve(nil)
        }
        Task {
            let value = await work.value
            timer.cancel()
            resolve(value)
        }
    }
    if result == nil { work.cancel() }
    return result
}
