import Foundation
import Hummingbird
import Logging

/// The suites' in-process HTTP servers: Hummingbird on a free port of 127.0.0.1, running for the
/// life of the process (the suites' cases share them).
enum LoopbackServer {
    /// Starts `router` and returns its port once it listens.
    static func start(_ router: Hummingbird.Router<BasicRequestContext>, label: String) async throws -> Int {
        var logger = Logger(label: label)
        logger.logLevel = .error
        let (ports, portContinuation) = AsyncStream<Int>.makeStream()
        let app = Application(
            router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { channel in
                portContinuation.yield(channel.localAddress?.port ?? 0)
                portContinuation.finish()
            }, logger: logger)
        Task { try await app.run() }
        var iterator = ports.makeAsyncIterator()
        guard let port = await iterator.next(), port > 0 else { throw URLError(.cannotConnectToHost) }
        return port
    }
}
