import Foundation
import Testing
import _KitSupport

@Suite("FastLock")
struct FastLockTests {
    /// State of several parts guarded by one lock, the way the bus and the command store use it.
    final class Pair: @unchecked Sendable {
        let lock = FastLock()
        var first = 0
        var second = 0
    }

    @Test("lock and unlock guard state that withLock also guards")
    func lockAndUnlock() {
        let pair = Pair()
        pair.lock.lock()
        pair.first = 1
        pair.lock.unlock()
        let sum = pair.lock.withLock { pair.first + pair.second }
        #expect(sum == 1)
    }

    @Test("an error thrown inside withLock gives the lock back")
    func throwingBody() {
        struct Refused: Error {}
        let lock = FastLock()
        #expect(throws: Refused.self) { try lock.withLock { () throws(Refused) in throw Refused() } }
        lock.lock()  // would hang if the lock were still held
        lock.unlock()
    }

    @Test("threads that contend sleep and wake in turn, and every change is kept together")
    func stressContention() async {
        let pair = Pair()
        let threads = 8
        let iterations = 20_000
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<threads {
                group.addTask {
                    await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
                        let thread = Thread {
                            for _ in 0..<iterations {
                                pair.lock.lock()
                                pair.first += 1
                                pair.second -= 1
                                pair.lock.unlock()
                            }
                            done.resume()
                        }
                        thread.start()
                    }
                }
            }
        }
        pair.lock.withLock {
            #expect(pair.first == threads * iterations)
            #expect(pair.first + pair.second == 0)
        }
    }
}
