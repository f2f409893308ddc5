import Dispatch
import Foundation

/// The serial write queue. Every change happens in a job; jobs run one at a time, in the order
/// they were submitted, on whichever thread found the queue idle (the "writer"). A job submitted
/// while another runs, including from a change observer on the writer thread, waits its turn.
extension ModelStore {
    /// Runs `work` as the next job and returns its result, blocking until it has run.
    ///
    /// - Throws: ``CommandError/reentrantExecute(command:)`` when called on the writer thread
    ///   (from an observer or a command), where waiting would deadlock and running would nest.
    @inlinable
    func performNow<T>(_ name: @autoclosure () -> String, _ work: () throws -> T) throws -> T {
        ReadScope.checkNotReading(name())
        lock.lock()
        if isWriting {
            lock.unlock()
            return try performQueued(name(), work)
        }
        isWriting = true
        writer = CurrentThread.id
        lock.unlock()
        defer { drain() }
        return try work()
    }

    /// The slow path of ``performNow(_:_:)``: another thread is writing.
    @usableFromInline
    func performQueued<T>(_ name: String, _ work: () throws -> T) throws -> T {
        lock.lock()
        guard isWriting else {
            // The writer finished meanwhile: become the writer.
            isWriting = true
            writer = CurrentThread.id
            lock.unlock()
            defer { drain() }
            return try work()
        }
        if CurrentThread.isSame(writer) {
            lock.unlock()
            throw CommandError.reentrantExecute(command: name)
        }
        return try withoutActuallyEscaping(work) { work in
            // The job holds `handoff`, never `work` itself, and drops `work` before it
            // signals: the drainer may still hold the job when this call returns.
            let handoff = Handoff(work)
            let done = DispatchSemaphore(value: 0)
            pending.append {
                handoff.run()
                done.signal()
            }
            lock.unlock()
            done.wait()
            return try handoff.take()
        }
    }

    /// Queues `job`; runs it (and everything queued behind it) right away when the queue is idle.
    func submit(_ name: @autoclosure () -> String, _ job: @escaping () -> Void) {
        ReadScope.checkNotReading(name())
        lock.lock()
        pending.append(job)
        if isWriting {
            lock.unlock()
            return
        }
        isWriting = true
        writer = CurrentThread.id
        lock.unlock()
        drain()
    }

    /// Runs `work` as a job and returns its result without blocking a thread.
    func perform<T: Sendable>(_ name: String, _ work: @escaping () -> T) async -> T {
        await withCheckedContinuation { continuation in
            submit(name) { continuation.resume(returning: work()) }
        }
    }

    /// Runs queued jobs until the queue is empty, then gives up the writer role.
    @inlinable
    func drain() {
        while true {
            lock.lock()
            guard pendingHead < pending.count else {
                if !pending.isEmpty {
                    pending.removeAll(keepingCapacity: true)
                    pendingHead = 0
                }
                isWriting = false
                writer = nil
                lock.unlock()
                return
            }
            let job = pending[pendingHead]
            pendingHead += 1
            if pendingHead >= 64 && pendingHead * 2 >= pending.count {
                pending.removeFirst(pendingHead)
                pendingHead = 0
            }
            lock.unlock()
            job()
        }
    }
}

/// Carries a blocking caller's work to the writer thread and its result back.
/// The semaphore the caller waits on orders every access.
private final class Handoff<T>: @unchecked Sendable {
    private var work: (() throws -> T)?
    private var result: Swift.Result<T, any Error>?

    init(_ work: @escaping () throws -> T) {
        self.work = work
    }

    func run() {
        guard let work else { return }
        self.work = nil
        result = Swift.Result { try work() }
    }

    func take() throws -> T {
        guard let result else { preconditionFailure("Commands: a write job finished without a result.") }
        return try result.get()
    }
}
