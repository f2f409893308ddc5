import Foundation
import Hummingbird
import NIOCore
import Networking
import NetworkingAsyncHTTPClient

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Benchmarks of the Networking package against its peers (see the package's issue for the targets).
///
/// A Hummingbird server in this process answers `GET /api/note` with a small JSON object on
/// 127.0.0.1. (Not FlyingFox, which the tests use: it writes a response's head and body
/// separately without `TCP_NODELAY`, so every request waited ~40 ms for a delayed ACK and the
/// benchmark measured the kernel's timer, for us and the peer alike.) One unit is 5 000 GETs decoded as JSON, sequentially or 16 at a time; the peer is
/// raw `URLSession.data(for:)` + `JSONDecoder` on an ephemeral session. The last case compares
/// our client on the AsyncHTTPClient transport with the same client on URLSession (report only).
enum NetworkingBenchmarks {
    struct Note: Codable, Sendable {
        var id: Int
        var text: String
        var tags: [String]
    }

    /// Keeps results alive so the work is not optimised away.
    final class Sink: @unchecked Sendable { var value = 0 }

    static let requests = 5_000
    static let width = 16

    static func cases() async throws -> [BenchmarkCase] {
        let server = try await startServer()
        let base = URL(string: "http://127.0.0.1:\(server.port)/api/")!
        let noteURL = base.appendingPathComponent("note")

        let ours = Networking.HTTPClient(baseURL: base)
        let onAHC = Networking.HTTPClient(baseURL: base, transport: AsyncHTTPClientTransport.shared)
        let peerSession = URLSession(configuration: .ephemeral)
        let peerRequest = URLRequest(url: noteURL)
        let sink = Sink()

        let oursOne: @Sendable () async throws -> Int = {
            let note: Note = try await ours.get("note")
            return note.id
        }
        let ahcOne: @Sendable () async throws -> Int = {
            let note: Note = try await onAHC.get("note")
            return note.id
        }
        let peerOne: @Sendable () async throws -> Int = {
            let (data, response) = try await peerSession.data(for: peerRequest)
            guard (response as? HTTPURLResponse)?.statusCode == 200 else { throw URLError(.badServerResponse) }
            return try JSONDecoder().decode(Note.self, from: data).id
        }

        return [
            BenchmarkCase(
                suite: "networking", name: "sequential-get-json-5000", peer: "URLSession.data(for:) + JSONDecoder",
                target: 0.9,
                ours: { try await sequential(oursOne, sink: sink) },
                theirs: { try await sequential(peerOne, sink: sink) },
                metrics: { ["server_requests": Double(server.served.withLock { $0 })] }),
            BenchmarkCase(
                suite: "networking", name: "concurrent16-get-json-5000", peer: "URLSession.data(for:) + JSONDecoder",
                target: 0.9,
                ours: { try await concurrent(oursOne, sink: sink) },
                theirs: { try await concurrent(peerOne, sink: sink) }),
            BenchmarkCase(
                suite: "networking", name: "concurrent16-ahc-vs-urlsession-transport", peer: "URLSession transport",
                ours: { try await concurrent(ahcOne, sink: sink) },
                theirs: { try await concurrent(oursOne, sink: sink) }),
        ]
    }

    static func sequential(_ one: @Sendable () async throws -> Int, sink: Sink) async throws {
        var total = 0
        for _ in 0..<requests { total &+= try await one() }
        sink.value &+= total
    }

    /// `requests` calls, at most `width` in flight at once.
    static func concurrent(_ one: @escaping @Sendable () async throws -> Int, sink: Sink) async throws {
        let total = try await withThrowingTaskGroup(of: Int.self) { group in
            var started = 0
            var sum = 0
            while started < min(width, requests) {
                group.addTask { try await one() }
                started += 1
            }
            while let value = try await group.next() {
                sum &+= value
                if started < requests {
                    group.addTask { try await one() }
                    started += 1
                }
            }
            return sum
        }
        sink.value &+= total
    }

    /// The benchmark's server, kept for the life of the process.
    final class Server: Sendable {
        let port: Int
        let served: BenchLock<Int>
        init(port: Int, served: BenchLock<Int>) {
            self.port = port
            self.served = served
        }
    }

    static func startServer() async throws -> Server {
        let body = try JSONEncoder().encode(Note(id: 42, text: "Buy milk and bread", tags: ["home", "errands"]))
        let counter = BenchLock(0)
        let router = Hummingbird.Router()
        router.get("api/note") { _, _ -> Hummingbird.Response in
            counter.withLock { $0 += 1 }
            return Hummingbird.Response(
                status: .ok, headers: [.contentType: "application/json"],
                body: ResponseBody(byteBuffer: ByteBuffer(bytes: body)))
        }
        let port = try await LoopbackServer.start(router, label: "bench-server")
        return Server(port: port, served: counter)
    }
}

/// A lock-guarded value for the networking benchmark's server.
final class BenchLock<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value
    init(_ value: Value) { self.value = value }
    func withLock<R>(_ body: (inout Value) -> R) -> R {
        lock.lock()
        defer { lock.unlock() }
        return body(&value)
    }
}
