import Commands
import Foundation
import OpenCombine

/// Benchmarks of the Commands package against its peers (see the package's issue for the targets).
///
/// One unit is 1 000 dispatches of a command that increments a counter, so the cost of calling
/// the unit's async closure is noise. Observers do the same trivial work on both sides.
enum CommandsBenchmarks {
    static let dispatchesPerUnit = 1_000

    static func cases() async throws -> [BenchmarkCase] {
        var cases: [BenchmarkCase] = []
        for observers in [0, 10] {
            for setup in Setup.allCases { cases.append(lockPeerCase(observers: observers, setup: setup)) }
            cases.append(combinePeerCase(observers: observers))
        }
        cases.append(try undoRedoCase())
        return cases
    }

    // MARK: - Sync dispatch

    struct Model: Sendable {
        var count = 0
        var name = "bench"
    }

    struct Increment: Command {
        func execute(_ model: inout Model) throws { model.count += 1 }
    }

    /// How the runner is set up.
    enum Setup: CaseIterable {
        /// As users get it: undo depth 100, no journal.
        case standard
        /// Undo and journal off.
        case lean
        /// Undo depth 100 and a journal of 1 000 (opt-in).
        case journaling

        var suffix: String {
            switch self {
            case .standard: ""
            case .lean: "-lean"
            case .journaling: "-journal"
            }
        }
    }

    static func runner(observers: Int, setup: Setup) -> (CommandRunner<Model>, [ChangeObservation]) {
        let store = ModelStore(Model())
        let runner =
            switch setup {
            case .standard: CommandRunner(store: store)
            case .lean: CommandRunner(store: store, undoLimit: 0)
            case .journaling: CommandRunner(store: store, journalLimit: 1_000)
            }
        let observations = (0..<observers).map { _ in store.observe { change in use(change.new.count) } }
        return (runner, observations)
    }

    static func lockPeerCase(observers: Int, setup: Setup) -> BenchmarkCase {
        let (runner, observations) = runner(observers: observers, setup: setup)
        let peer = LockedStruct(observers: observers)
        return BenchmarkCase(
            suite: "commands", name: "sync-dispatch-\(observers)-observers\(setup.suffix)",
            peer: "struct behind a lock", target: observers == 10 && setup == .standard ? 0.6 : 0.33,
            ours: {
                for _ in 0..<dispatchesPerUnit { try runner.execute(Increment()) }
                withExtendedLifetime(observations) {}
            },
            theirs: {
                for _ in 0..<dispatchesPerUnit { peer.mutate { $0.count += 1 } }
            })
    }

    static func combinePeerCase(observers: Int) -> BenchmarkCase {
        let (runner, observations) = runner(observers: observers, setup: .standard)
        let subject = CurrentValueSubject<Model, Never>(Model())
        let sinks = (0..<observers).map { _ in subject.sink { use($0.count) } }
        let box = SubjectBox(subject: subject, sinks: sinks)
        return BenchmarkCase(
            suite: "commands", name: "sync-dispatch-\(observers)-observers-vs-combine",
            peer: "OpenCombine CurrentValueSubject store", target: 1,
            ours: {
                for _ in 0..<dispatchesPerUnit { try runner.execute(Increment()) }
                withExtendedLifetime(observations) {}
            },
            theirs: {
                for _ in 0..<dispatchesPerUnit { box.subject.value.count += 1 }
            })
    }

    /// The hand-written peer: a struct behind a lock, with observers called after each change.
    final class LockedStruct: @unchecked Sendable {
        private let lock = NSLock()
        private var model = Model()
        private let observers: [(Model, Model) -> Void]

        init(observers: Int) {
            self.observers = (0..<observers).map { _ in { _, new in use(new.count) } }
        }

        func mutate(_ body: (inout Model) -> Void) {
            lock.lock()
            let old = model
            body(&model)
            let new = model
            lock.unlock()
            for observer in observers { observer(old, new) }
        }
    }

    final class SubjectBox: @unchecked Sendable {
        let subject: CurrentValueSubject<Model, Never>
        let sinks: [AnyCancellable]

        init(subject: CurrentValueSubject<Model, Never>, sinks: [AnyCancellable]) {
            self.subject = subject
            self.sinks = sinks
        }
    }

    // MARK: - Undo and redo

    struct Items: Sendable {
        var values = [Int](repeating: 0, count: 1_000)
    }

    struct Bump: Command {
        var index: Int
        func execute(_ model: inout Items) throws { model.values[index] += 1 }
    }

    /// Undo then redo 10 000 commands on a 1 000-element model; every step is a full snapshot
    /// of the changed array, which is what the memory figure shows.
    static func undoRedoCase() throws -> BenchmarkCase {
        let heapBefore = Memory.heapInUse()
        let runner = CommandRunner(store: ModelStore(Items()), undoLimit: 10_000, journalLimit: 0)
        for step in 0..<10_000 { try runner.execute(Bump(index: step % 1_000)) }
        let heldByHistory = Memory.heapInUse() - heapBefore
        return BenchmarkCase(
            suite: "commands", name: "undo-redo-10k-commands-1k-model",
            ours: {
                for _ in 0..<10_000 { try await runner.undo() }
                for _ in 0..<10_000 { try await runner.redo() }
            },
            metrics: {
                [
                    "history_mb": Double(heldByHistory) / 1_048_576,
                    "peak_rss_mb": Double(Memory.peakResidentBytes()) / 1_048_576,
                ]
            })
    }

    enum Memory {
        /// Memory in use: the allocator's bytes on Apple platforms, resident pages on Linux
        /// (`/proc/self/statm`); 0 where neither can be read.
        static func heapInUse() -> Int {
            #if canImport(Darwin)
                var stats = malloc_statistics_t()
                malloc_zone_statistics(nil, &stats)
                return Int(stats.size_in_use)
            #else
                guard let statm = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
                let fields = statm.split(separator: " ")
                guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
                return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
            #endif
        }

        /// The process's peak resident set size.
        static func peakResidentBytes() -> Int {
            var usage = rusage()
            #if canImport(Glibc)
                getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
            #else
                getrusage(RUSAGE_SELF, &usage)
            #endif
            #if canImport(Darwin)
                return Int(usage.ru_maxrss)
            #else
                return Int(usage.ru_maxrss) * 1_024
            #endif
        }
    }

    /// Keeps an observer's work from being optimised away.
    @inline(never)
    static func use(_ value: Int) {
        if value == -1 { print("unreachable") }
    }
}
