import Foundation

/// The staged changes of one async command (and its children).
///
/// Each `mutate` block runs at once on a draft, so the command sees its own writes, and is
/// kept. At commit the draft replaces the model if nothing else changed it meanwhile;
/// otherwise the blocks are replayed, in order, on the current model (a rebase), so no other
/// command's change is lost.
final class Transaction<Model: Sendable>: @unchecked Sendable {
    typealias Block = @Sendable (inout Model) throws -> Void

    struct State {
        var draft: Model?
        var baseVersion: UInt64 = 0
        var blocks: [Block] = []
        var isExpired = false
    }

    /// A point to roll back to when a child command fails.
    struct Savepoint {
        var draft: Model?
        var baseVersion: UInt64
        var blockCount: Int
    }

    let store: ModelStore<Model>
    let name: String
    /// Recursive: a `mutate` block runs under the lock (so concurrent children stage one at a
    /// time) and may read ``model`` itself, as `context.model`.
    private let lock = NSRecursiveLock()
    private var _state = State()

    /// Runs `body` with exclusive access to the state.
    private func withLock<T>(_ body: (inout State) throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body(&_state)
    }

    init(store: ModelStore<Model>, name: String) {
        self.store = store
        self.name = name
    }

    /// The model as this command sees it: the draft once it has staged changes.
    var model: Model {
        withLock { $0.draft } ?? store.model
    }

    func mutate<T>(_ block: @escaping @Sendable (inout Model) throws -> T) throws -> T {
        // Not `withLock`: the block may read `model`, which would overlap an `inout` access.
        lock.lock()
        defer { lock.unlock() }
        guard !_state.isExpired else { throw CommandError.contextExpired(command: name) }
        var working: Model
        if let draft = _state.draft {
            working = draft
        } else {
            let (model, version) = store.versionedModel
            working = model
            _state.baseVersion = version
        }
        let result = try block(&working)
        _state.draft = working
        _state.blocks.append { _ = try block(&$0) }
        return result
    }

    var savepoint: Savepoint {
        withLock { Savepoint(draft: $0.draft, baseVersion: $0.baseVersion, blockCount: $0.blocks.count) }
    }

    func rollBack(to savepoint: Savepoint) {
        withLock { state in
            state.draft = savepoint.draft
            state.baseVersion = savepoint.baseVersion
            state.blocks.removeLast(state.blocks.count - savepoint.blockCount)
        }
    }

    /// Closes the transaction and returns the model to commit, or nil when nothing was staged.
    /// Runs on the writer, so the head and its version cannot change meanwhile. The draft was
    /// staged on the announced model; if the head is not that model any more (other changes
    /// were committed, or rolled back), the blocks are replayed on the head.
    func finish() throws -> Model? {
        let state = withLock { state in
            state.isExpired = true
            return state
        }
        guard let draft = state.draft, !state.blocks.isEmpty else { return nil }
        let (current, version) = store.head
        if version == state.baseVersion { return draft }
        var rebased = current
        for block in state.blocks {
            try block(&rebased)
        }
        return rebased
    }

    func expire() {
        withLock { $0.isExpired = true }
    }
}
