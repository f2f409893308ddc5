/// Snapshot-based undo and redo for a value model: past snapshots, the present is the store's
/// model, future snapshots. Guarded by its own lock; changed only by the writer.
@usableFromInline
final class UndoHistory<Model: Sendable>: Sendable {
    @usableFromInline
    struct Step {
        /// The command (or a group's name): naming a type costs more than recording a step, so
        /// the name is only worked out when asked for.
        @usableFromInline var label: any Sendable
        var name: String { label as? String ?? commandName(of: label) }
        @usableFromInline var snapshot: Model
        @usableFromInline var coalescingKey: String?
        @usableFromInline var savesModel: Bool

        @usableFromInline
        init(label: any Sendable, snapshot: Model, coalescingKey: String?, savesModel: Bool) {
            self.label = label
            self.snapshot = snapshot
            self.coalescingKey = coalescingKey
            self.savesModel = savesModel
        }
    }

    @usableFromInline
    struct State {
        @usableFromInline var limit: Int
        @usableFromInline var past: [Step] = []
        @usableFromInline var future: [Step] = []
        /// Open groups: names, outermost first. While any is open, changes join one step.
        @usableFromInline var groups: [String] = []
        /// Whether the outermost open group already has its step in `past`.
        @usableFromInline var groupHasStep = false

        init(limit: Int) {
            self.limit = limit
        }
    }

    @usableFromInline let state: Locked<State>

    init(limit: Int) {
        state = Locked(State(limit: max(0, limit)))
    }

    /// Records that a change named `name` replaced `old`.
    @inlinable
    func record(old: Model, name: any Sendable, behavior: UndoBehavior, savesModel: Bool) {
        state.withLock { state in
            guard state.limit > 0 else { return }
            switch behavior {
            case .skip:
                return
            case .clearHistory:
                state.past.removeAll()
                state.future.removeAll()
                state.groupHasStep = false
                return
            case .record, .coalesce:
                break
            }
            state.future.removeAll()
            if !state.groups.isEmpty {
                if state.groupHasStep, !state.past.isEmpty {
                    state.past[state.past.count - 1].savesModel =
                        state.past[state.past.count - 1].savesModel || savesModel
                    return
                }
                state.groupHasStep = true
                let group = state.groups[0]
                state.past.append(Step(label: group, snapshot: old, coalescingKey: nil, savesModel: savesModel))
            } else if case .coalesce(let key) = behavior, let last = state.past.last, last.coalescingKey == key {
                state.past[state.past.count - 1].savesModel = last.savesModel || savesModel
                return
            } else {
                let key: String? = if case .coalesce(let key) = behavior { key } else { nil }
                state.past.append(Step(label: name, snapshot: old, coalescingKey: key, savesModel: savesModel))
            }
            // Trimmed in batches so that recording stays O(1); `trim` runs before each undo.
            if state.past.count >= state.limit * 2 + 16 {
                state.past.removeFirst(state.past.count - state.limit)
            }
        }
    }

    /// Opens a group: until the matching ``endGroup()``, changes join one undo step.
    func beginGroup(_ name: String) {
        state.withLock { state in
            if state.groups.isEmpty { state.groupHasStep = false }
            state.groups.append(name)
        }
    }

    /// Closes the innermost open group.
    func endGroup() {
        state.withLock { state in
            _ = state.groups.popLast()
            if state.groups.isEmpty { state.groupHasStep = false }
        }
    }

    var canUndo: Bool { state.withLock { !$0.past.isEmpty } }
    var canRedo: Bool { state.withLock { !$0.future.isEmpty } }
    var undoName: String? { state.withLock { $0.past.last }?.name }
    var redoName: String? { state.withLock { $0.future.last }?.name }
    var depth: (past: Int, future: Int) { state.withLock { (min($0.past.count, $0.limit), $0.future.count) } }

    /// Takes the latest past step, pushing `present` to the future; nil when there is none.
    func undo(present: Model) -> Step? {
        state.withLock { state in
            if state.past.count > state.limit { state.past.removeFirst(state.past.count - state.limit) }
            guard let step = state.past.popLast() else { return nil }
            state.future.append(
                Step(label: step.label, snapshot: present, coalescingKey: nil, savesModel: step.savesModel))
            state.groupHasStep = false
            return step
        }
    }

    /// Takes the latest future step, pushing `present` to the past; nil when there is none.
    func redo(present: Model) -> Step? {
        state.withLock { state in
            guard let step = state.future.popLast() else { return nil }
            state.past.append(
                Step(label: step.label, snapshot: present, coalescingKey: nil, savesModel: step.savesModel))
            state.groupHasStep = false
            return step
        }
    }
}
