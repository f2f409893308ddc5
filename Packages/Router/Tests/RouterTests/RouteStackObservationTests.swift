import Observation
import Router
import Testing

/// Counts how often a reading is invalidated, re-arming after each change as SwiftUI does when
/// it renders again.
private final class Reader: Sendable {
    private let changes = Recorder<Void>()
    private let read: @Sendable () -> Void

    init(_ read: @escaping @Sendable () -> Void) {
        self.read = read
        track()
    }

    var count: Int { changes.values.count }

    private func track() {
        withObservationTracking(read) { [self] in
            changes.append(())
            track()
        }
    }
}

@Suite("Observing a RouteStack")
struct RouteStackObservationTests {
    @Test("a reader of the path is told of pushes and pops, never of a modal presentation")
    func pathReader() {
        let stack = RouteStack<String>(["home"])
        let reader = Reader { _ = stack.path }
        stack.present("settings")
        stack.dismiss()
        #expect(reader.count == 0)
        stack.push("detail")
        stack.pop()
        #expect(reader.count == 2)
    }

    @Test("a reader of the presented destination is told when it changes, not of pushes")
    func presentedReader() {
        let stack = RouteStack<String>(["home"])
        let reader = Reader { _ = stack.presented }
        stack.push("detail")
        stack.replace(with: ["home", "detail"])  // the same path: nothing changed
        #expect(reader.count == 0)
        stack.present("login")
        stack.present("login")  // already presented: nothing changed
        stack.dismiss()
        #expect(reader.count == 2)
    }

    @Test("a change that leaves the stack as it was signals nothing; a reader of everything sees both parts")
    func noOpAndCurrent() {
        let stack = RouteStack<Int>([1])
        let reader = Reader { _ = stack.current }
        stack.pop(0)
        stack.popToRoot()
        stack.dismiss()
        #expect(reader.count == 0)
        stack.start(2)
        stack.present(3)
        #expect(reader.count == 2)
    }

    @Test("a reader called back by Observation can read the stack, and sees the new path")
    func readsInsideOnChange() {
        let stack = RouteStack<String>([])
        let seen = Recorder<[String]>()
        withObservationTracking {
            _ = stack.path
        } onChange: {
            seen.append(stack.path)
        }
        stack.push("a")
        #expect(seen.values == [["a"]])
    }
}
