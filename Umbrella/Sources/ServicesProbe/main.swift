// The child process of the umbrella's signal tests: registers three services (a ← b ← c, each
// depending on the one before), runs them with `ServiceRegistry.run`, and says on stdout, one
// write(2) per line, when each starts, runs, stops and ends its run, then the shutdown report.
// The test sends it SIGTERM or SIGINT.
//
// Arguments: [hang | slow-start] — with `hang`, b's stop never returns (b's stop timeout is
// 0.5 s); with `slow-start`, c takes 1 s to start, so a signal can land during startup.
import Boilerplate
import Foundation

func say(_ line: String) {
    let bytes = Array((line + "\n").utf8)
    bytes.withUnsafeBytes { buffer in _ = write(1, buffer.baseAddress, buffer.count) }
}

/// Continuations that are never resumed: a stop that hangs, ignoring cancellation.
let neverResumed = NeverResumed()
final class NeverResumed: @unchecked Sendable {
    private let lock = NSLock()
    private var held: [CheckedContinuation<Void, Never>] = []
    func wait() async {
        await withCheckedContinuation { continuation in
            lock.lock()
            held.append(continuation)
            lock.unlock()
        }
    }
}

final class ProbeService: AppService {
    let name: String
    let hangsInStop: Bool
    let startsSlowly: Bool
    init(_ name: String, hangsInStop: Bool = false, startsSlowly: Bool = false) {
        self.name = name
        self.hangsInStop = hangsInStop
        self.startsSlowly = startsSlowly
    }
    func start(options: [String: any Sendable]) async throws {
        say("start \(name)")
        if startsSlowly { try await Task.sleep(for: .seconds(1)) }
        say("started \(name)")
    }
    func run() async throws {
        say("run \(name)")
        defer { say("end \(name)") }
        try await Task.sleep(for: .seconds(3600))
    }
    func stop() async throws {
        say("stop \(name)")
        if hangsInStop { await neverResumed.wait() }
    }
}

let mode = CommandLine.arguments.dropFirst().first
let hang = mode == "hang"
let services = ServiceRegistry()
services.register("a") { ProbeService("a") }
services.register("b", dependsOn: ["a"], stopTimeout: .milliseconds(500)) { ProbeService("b", hangsInStop: hang) }
services.register("c", dependsOn: ["b"]) { ProbeService("c", startsSlowly: mode == "slow-start") }
do {
    let report = try await services.run(stopTimeout: .seconds(5))
    say(
        "report trigger=\(report.trigger) stopped=\(report.stopped.joined(separator: ","))"
            + " timedOut=\(report.timedOut.joined(separator: ","))")
    exit(report.isClean ? 0 : 1)
} catch {
    say("error \(error)")
    exit(2)
}
