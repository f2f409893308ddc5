import Foundation
import Testing
import _KitSupport

@Suite("Locked")
struct LockedTests {
    @Test("withLock reads and changes the value, and returns what its body returns")
    func readsAndWrites() {
        let counter = Locked(1)
        let doubled = counter.withLock { value -> Int in
            value *= 2
            return value
        }
        #expect(doubled == 2)
        #expect(counter.withLock { $0 } == 2)
    }

    @Test("copies share one value")
    func copiesShare() {
        let names = Locked([String]())
        let copy = names
        copy.withLock { $0.append("a") }
        #expect(names.withLock { $0 } == ["a"])
    }

    @Test("an error thrown inside gives the lock back, with its type kept")
    func throwingBody() throws {
        struct Refused: Error, Equatable {}
        let value = Locked(0)
        #expect(throws: Refused.self) {
            try value.withLock { (_: inout Int) throws(Refused) in throw Refused() }
        }
        // Taken again: a lock left held would hang here.
        #expect(value.withLock { $0 } == 0)
    }

    @Test("the value is released with the last copy")
    func releasesValue() {
        final class Tracked: Sendable {
            let freed: Locked<Bool>
            init(freed: Locked<Bool>) { self.freed = freed }
            deinit { freed.withLock { $0 = true } }
        }
        let freed = Locked(false)
        do {
            let box = Locked(Tracked(freed: freed))
            box.withLock { _ in }
        }
        #expect(freed.withLock { $0 })
    }

    @Test("many threads incrementing at once lose no increment")
    func stressThreads() async {
        let counter = Locked(0)
        let threads = 8
        let iterations = 20_000
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<threads {
                group.addTask {
                    await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
                        // Plain threads: they block on the lock, which pool threads must not.
                        let thread = Thread {
                            for _ in 0..<iterations { counter.withLock { $0 += 1 } }
                            done.resume()
                        }
                        thread.start()
                    }
                }
            }
        }
        #expect(counter.withLock { $0 } == threads * iterations)
    }

    @Test("many tasks changing a collection at once keep it consistent")
    func stressTasks() async {
        let log = Locked([Int: Int]())
        await withTaskGroup(of: Void.self) { group in
            for task in 0..<16 {
                group.addTask {
                    for step in 0..<2_000 {
                        log.withLock { $0[task, default: 0] += 1 }
                        if step % 100 == 0 { await Task.yield() }
                    }
                }
            }
        }
        #expect(log.withLock { $0 } == Dictionary(uniqueKeysWithValues: (0..<16).map { ($0, 2_000) }))
    }
}
