import Errors
import _KitSupport

@testable import Operations

/// A thread-safe log of events, for checking callback order.
final class EventLog: Sendable {
    private let events = Locked<[String]>([])

    func record(_ event: String) { events.withLock { $0.append(event) } }

    var all: [String] { events.withLock { $0 } }
}

/// A thread-safe counter that also remembers its highest value.
final class Gauge: Sendable {
    private let state = Locked((current: 0, highest: 0, total: 0))

    func enter() {
        state.withLock {
            $0.current += 1
            $0.total += 1
            $0.highest = max($0.highest, $0.current)
        }
    }

    func leave() { state.withLock { $0.current -= 1 } }

    var highest: Int { state.withLock { $0.highest } }
    var total: Int { state.withLock { $0.total } }
}

/// A one-shot gate work can wait on, opened by the test.
final class Gate: Sendable {
    private let state = Locked<(open: Bool, waiters: [CheckedContinuation<Void, Never>])>((false, []))

    func wait() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let open = state.withLock { state -> Bool in
                if state.open { return true }
                state.waiters.append(continuation)
                return false
            }
            if open { continuation.resume() }
        }
    }

    func open() {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.open = true
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }
}

enum LoginError: AppError, Equatable {
    case invalidCredentials, locked(minutes: Int)

    var message: String {
        switch self {
        case .invalidCredentials: "Invalid email and password."
        case .locked(let minutes): "Account locked for \(minutes) minutes."
        }
    }
}

func describe<Output, Failure>(_ outcome: OperationOutcome<Output, Failure>) -> String {
    switch outcome {
    case .succeeded(let value): "succeeded(\(value))"
    case .failed(let error): "failed(\(error.userMessage))"
    case .cancelled: "cancelled"
    }
}

/// Lets other tasks run until `condition` holds or a generous number of turns passed.
func settle(isolation: isolated (any Actor)? = #isolation, _ condition: () -> Bool) async {
    for _ in 0..<10_000 where !condition() {
        await Task.yield()
    }
}
