import Commands
import Testing
import _KitSupport

/// Observers are called in place, through borrowed references into the list taken for the
/// change: these tests hold that list to what it promises when observers come and go mid-call.
@Suite("Calling change observers")
struct ObserverCallTests {
    @Test("ten observers see each change in the order they registered, all with the same old and new")
    func everyObserverInOrder() throws {
        let store = ModelStore(Counter())
        let runner = CommandRunner(store: store)
        let seen = Locked<[String]>([])
        let observations = (0..<10).map { index in
            store.observe { change in
                seen.withLock { $0.append("\(index):\(change.old.value)->\(change.new.value):\(change.name)") }
            }
        }
        try runner.execute(Add(amount: 2))
        try runner.execute(Add(amount: 3))
        let expected =
            (0..<10).map { "\($0):0->2:Add" } + (0..<10).map { "\($0):2->5:Add" }
        #expect(seen.withLock { $0 } == expected)
        withExtendedLifetime(observations) {}
    }

    @Test("an observer that releases its own observation mid-call finishes, the rest still hear of the change")
    func observerReleasesItself() throws {
        let store = ModelStore(Counter())
        let runner = CommandRunner(store: store)
        let seen = Locked<[String]>([])
        let first = store.observe { change in seen.withLock { $0.append("first \(change.new.value)") } }
        let held = Locked<ChangeObservation?>(nil)
        held.withLock { observation in
            observation = store.observe { change in
                // The last reference goes: the observation cancels itself while it is being called.
                held.withLock { $0 = nil }
                seen.withLock { $0.append("leaving \(change.new.value)") }
            }
        }
        let last = store.observe { change in seen.withLock { $0.append("last \(change.new.value)") } }
        try runner.execute(Add(amount: 1))
        try runner.execute(Add(amount: 1))
        #expect(seen.withLock { $0 } == ["first 1", "leaving 1", "last 1", "first 2", "last 2"])
        #expect(held.withLock { $0 } == nil)
        withExtendedLifetime((first, last)) {}
    }

    @Test("an observer that cancels every other observation mid-call is the last one called after that change")
    func observerCancelsTheOthers() throws {
        let store = ModelStore(Counter())
        let runner = CommandRunner(store: store)
        let seen = Locked<[String]>([])
        let others = Locked<[ChangeObservation]>([])
        let canceller = store.observe { change in
            seen.withLock { $0.append("canceller \(change.new.value)") }
            // Released while the list taken for this change still holds them.
            let taken = others.withLock { list in
                defer { list = [] }
                return list
            }
            for observation in taken { observation.cancel() }
        }
        others.withLock { list in
            list = (0..<3).map { index in
                store.observe { change in seen.withLock { $0.append("other\(index) \(change.new.value)") } }
            }
        }
        try runner.execute(Add(amount: 1))
        try runner.execute(Add(amount: 1))
        // The list for the first change was taken before the cancel: it keeps every observer
        // alive to the end of that change; the second change has only the canceller.
        let afterFirst = seen.withLock { $0 }.filter { $0.hasSuffix(" 1") }
        #expect(afterFirst.first == "canceller 1")
        #expect(seen.withLock { $0 }.filter { $0.hasSuffix(" 2") } == ["canceller 2"])
        withExtendedLifetime(canceller) {}
    }
}
