import Foundation
import Testing
import _KitSupport

@testable import Boilerplate

@Suite("Services shut down on real signals")
struct ServiceSignalTests {
    /// How it works: the child process `ServicesProbe` registers a ← b ← c and runs them with
    /// `ServiceRegistry.run`; it says on stdout when each one starts, runs, stops and ends its
    /// run. The test waits until c has started, sends the signal, and reads what followed.
    @Test(
        "SIGTERM and SIGINT stop every service in reverse dependency order, and the process exits 0",
        arguments: [SIGTERM, SIGINT])
    func signalStopsInReverseOrder(signal: Int32) async throws {
        let probe = try ChildProbe(arguments: [])
        try await probe.waitFor("run c")
        kill(probe.process.processIdentifier, signal)
        let status = try await probe.waitForExit(within: .seconds(20))
        let lines = probe.lines
        #expect(status == 0, "output: \(lines)")
        #expect(lines.filter { $0.hasPrefix("start ") } == ["start a", "start b", "start c"])
        #expect(lines.filter { $0.hasPrefix("stop ") } == ["stop c", "stop b", "stop a"])
        // Each service's run is cancelled after its stop, before the next service stops.
        for (service, next) in [("c", "b"), ("b", "a")] {
            let stopped = try #require(lines.firstIndex(of: "stop \(service)"))
            let ended = try #require(lines.firstIndex(of: "end \(service)"))
            let nextStopped = try #require(lines.firstIndex(of: "stop \(next)"))
            #expect(stopped < ended && ended < nextStopped, "output: \(lines)")
        }
        #expect(lines.last == "report trigger=signal \(signal) stopped=c,b,a timedOut=")
    }

    @Test("a service that hangs in stop is reported after its timeout; the others are still stopped")
    func hangingStopIsReported() async throws {
        let probe = try ChildProbe(arguments: ["hang"])
        try await probe.waitFor("run c")
        let sent = ContinuousClock.now
        kill(probe.process.processIdentifier, SIGTERM)
        let status = try await probe.waitForExit(within: .seconds(20))
        let elapsed = try #require(probe.exitedAt) - sent
        let lines = probe.lines
        #expect(status == 1, "output: \(lines)")
        #expect(lines.filter { $0.hasPrefix("stop ") } == ["stop c", "stop b", "stop a"])
        #expect(lines.last == "report trigger=signal \(SIGTERM) stopped=c,a timedOut=b")
        // b's timeout is 0.5 s: the shutdown waited for it, and no longer than the 5 s default.
        #expect(elapsed >= .milliseconds(500), "shut down after \(elapsed)")
        #expect(elapsed < .seconds(5), "shut down after \(elapsed)")
    }

    @Test("a signal during startup is kept: startup finishes, then everything stops in reverse order")
    func signalDuringStartup() async throws {
        let probe = try ChildProbe(arguments: ["slow-start"])
        // c takes 1 s to start; the signal lands while it does.
        try await probe.waitFor("start c")
        kill(probe.process.processIdentifier, SIGTERM)
        let status = try await probe.waitForExit(within: .seconds(20))
        let lines = probe.lines
        #expect(status == 0, "output: \(lines)")
        // Neither lost nor fatal: c finished starting, and only then did the shutdown begin.
        #expect(lines.contains("started c"), "output: \(lines)")
        #expect(lines.filter { $0.hasPrefix("stop ") } == ["stop c", "stop b", "stop a"])
        #expect(lines.last == "report trigger=signal \(SIGTERM) stopped=c,b,a timedOut=")
    }
}

/// A running `ServicesProbe` whose output is collected as it comes, without blocking a thread.
final class ChildProbe: Sendable {
    let process: Process
    private let output = Locked(Data())
    private let closed = Locked(false)
    private let exited = Locked<(status: Int32?, waiter: CheckedContinuation<Int32, Never>?)>((nil, nil))
    private let exitTime = Locked<ContinuousClock.Instant?>(nil)

    /// When the process was seen to exit.
    var exitedAt: ContinuousClock.Instant? { exitTime.withLock { $0 } }

    init(arguments: [String]) throws {
        let url = try #require(
            BuiltExecutable.url(named: "ServicesProbe"), "ServicesProbe is not built beside the tests")
        process = Process()
        process.executableURL = url
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.terminationHandler = { [exited, exitTime] process in
            exitTime.withLock { $0 = ContinuousClock.now }
            let waiter = exited.withLock { state in
                state.status = process.terminationStatus
                defer { state.waiter = nil }
                return state.waiter
            }
            waiter?.resume(returning: process.terminationStatus)
        }
        try process.run()
        // Blocking reads on a thread of their own, not a readabilityHandler: tearing down the
        // dispatch read source behind one can crash libdispatch on Linux
        // (swift-corelibs-libdispatch#949). The thread ends at the end of the output.
        let reading = pipe.fileHandleForReading
        Thread { [output, closed] in
            while case let chunk = reading.availableData, !chunk.isEmpty {
                output.withLock { $0.append(chunk) }
            }
            closed.withLock { $0 = true }
        }.start()
    }

    deinit { if process.isRunning { process.terminate() } }

    /// The complete lines printed so far.
    var lines: [String] {
        let text = output.withLock { String(decoding: $0, as: UTF8.self) }
        return text.split(separator: "\n").map(String.init)
    }

    /// Returns once `line` was printed; fails after 20 s.
    func waitFor(_ line: String) async throws {
        let deadline = ContinuousClock.now + .seconds(20)
        while !lines.contains(line) {
            try #require(ContinuousClock.now < deadline, "'\(line)' never came; output: \(lines)")
            try #require(process.isRunning, "the probe exited early; output: \(lines)")
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    /// The exit status; fails when the process is still running after `timeout`.
    func waitForExit(within timeout: Duration) async throws -> Int32 {
        let waiting = Task {
            await withCheckedContinuation { continuation in
                let status = exited.withLock { state -> Int32? in
                    if state.status == nil { state.waiter = continuation }
                    return state.status
                }
                if let status { continuation.resume(returning: status) }
            }
        }
        let status = try #require(await Deadline.value(of: waiting, within: timeout), "the probe did not exit")
        // The last lines may still be in the pipe when the exit is seen: read up to the report,
        // the probe's last line. (The pipe's end is not awaited: a child spawned meanwhile by
        // another test may have inherited it and hold it open.)
        let deadline = ContinuousClock.now + .seconds(5)
        while !closed.withLock({ $0 }) && ContinuousClock.now < deadline
            && !lines.contains(where: { $0.hasPrefix("report ") || $0.hasPrefix("error ") })
        {
            try await Task.sleep(for: .milliseconds(10))
        }
        return status
    }
}
