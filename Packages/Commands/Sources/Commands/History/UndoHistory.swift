/// Snapshot-based undo and redo for a value model: past snapshots, the present is the store's
/// model, future snapshots.
///
/// A value, kept in ``RunnerRecords`` and guarded by the store's lock, so that a change and its
/// undo step are recorded in one critical section. A snapshot is the model value itself, so a
/// step costs what the model does not share with its neighbours (copy on write), and the past
/// is kept in a ring: recording a step never allocates once it is full, and the snapshot is
/// moved in (the head it replaces), never copied.
@usableFromInline
struct UndoHistory<Model: Sendable> {
    @usableFromInline
    struct Step {
        /// What to call the step; worked out only when asked for.
        @usableFromInline var label: StepLabel
        @usableFromInline var snapshot: Model
        @usableFromInline var coalescingKey: String?

        @usableFromInline
        init(label: StepLabel, snapshot: Model, coalescingKey: String?) {
            self.label = label
            self.snapshot = snapshot
            self.coalescingKey = coalescingKey
        }

        @usableFromInline var name: String { label.name }
    }

    /// What a past step is, apart from its snapshot.
    ///
    /// An ordinary step (a command's, outside any group, not coalescing) is a metatype: copying
    /// it is copying two words, and overwriting the oldest step in the ring releases nothing. Group names and coalescing keys live in a rarely needed box.
    @usableFromInline
    struct Info {
        /// The command whose change this step undoes; nil for a group's step.
        @usableFromInline var command: (any Sendable.Type)?
        /// A group's name or a coalescing key; nil for an ordinary step.
        @usableFromInline var details: Details?

        /// An ordinary step of `command`.
        @inlinable
        init(command: any Sendable.Type) {
            self.command = command
            self.details = nil
        }

        @usableFromInline
        init(label: StepLabel, coalescingKey: String?) {
            switch label {
            case .command(let type):
                command = type
                details = coalescingKey.map { Details(groupName: nil, coalescingKey: $0) }
            case .name(let name):
                command = nil
                details = Details(groupName: name, coalescingKey: coalescingKey)
            }
        }

        @usableFromInline var label: StepLabel {
            if let command { return .command(command) }
            return .name(details?.groupName ?? "")
        }

        var coalescingKey: String? { details?.coalescingKey }
    }

    /// The rare parts of a step's ``Info``.
    @usableFromInline
    final class Details {
        let groupName: String?
        let coalescingKey: String?

        init(groupName: String?, coalescingKey: String?) {
            self.groupName = groupName
            self.coalescingKey = coalescingKey
        }
    }

    /// A step in the past: the model before a change, and what the change was.
    @usableFromInline
    struct PastStep {
        @usableFromInline var snapshot: Model
        @usableFromInline var info: Info

        @inlinable
        init(snapshot: consuming Model, info: consuming Info) {
            self.snapshot = snapshot
            self.info = info
        }
    }

    /// The steps ``undo(present:)`` takes, newest last, at most the undo limit. Undo moves a
    /// snapshot out of the ring without copying it (a copy retains the snapshot, whose memory
    /// in a long history is cold).
    @usableFromInline var past: Ring<PastStep>
    @usableFromInline var future: [Step] = []
    /// Open groups: names, outermost first. While any is open, changes join one step.
    @usableFromInline var groups: [String] = []
    /// Whether the outermost open group already has its step in the past.
    @usableFromInline var groupHasStep = false

    init(limit: Int) {
        past = Ring(capacity: limit)
    }

    /// Whether undo is on (`undoLimit > 0`).
    @inlinable var isEnabled: Bool { past.capacity > 0 }

    var canUndo: Bool { !past.isEmpty }

    /// The info of the newest past step, read in place.
    var lastInfo: Info? { past.lastSlot.map { past.slots[$0].info } }

    /// The label of the step ``undo(present:)`` would take.
    var undoLabel: StepLabel? { lastInfo?.label }

    @inlinable
    mutating func appendPast(_ snapshot: consuming Model, _ info: consuming Info) {
        past.append(PastStep(snapshot: snapshot, info: info))
    }

    /// Records that a change made by a `command` replaced `old`, which it takes over.
    @inlinable
    mutating func record(old: consuming Model, command: any Sendable.Type, behavior: UndoBehavior) {
        guard isEnabled else { return }
        guard case .record = behavior, groups.isEmpty, future.isEmpty else {
            record(old: old, label: .command(command), unusual: behavior)
            return
        }
        appendPast(old, Info(command: command))
    }

    /// ``record(old:command:behavior:)`` for the other cases: skipping, clearing, coalescing,
    /// an open group, a redo history to drop.
    @usableFromInline
    mutating func record(old: consuming Model, label: StepLabel, unusual behavior: UndoBehavior) {
        guard isEnabled else { return }
        let key: String?
        switch behavior {
        case .skip:
            return
        case .clearHistory:
            past.removeAll()
            future.removeAll()
            groupHasStep = false
            return
        case .record:
            key = nil
        case .coalesce(let coalescingKey):
            key = coalescingKey
        }
        future.removeAll()
        if !groups.isEmpty {
            if groupHasStep, !past.isEmpty { return }
            groupHasStep = true
            appendPast(old, Info(label: .name(groups[0]), coalescingKey: nil))
            return
        }
        if let key, lastInfo?.coalescingKey == key { return }
        appendPast(old, Info(label: label, coalescingKey: key))
    }

    /// Opens a group: until the matching ``endGroup()``, changes join one undo step.
    mutating func beginGroup(_ name: String) {
        if groups.isEmpty { groupHasStep = false }
        groups.append(name)
    }

    /// Closes the innermost open group.
    mutating func endGroup() {
        _ = groups.popLast()
        if groups.isEmpty { groupHasStep = false }
    }

    /// Takes the latest past step, pushing `present` to the future; nil when there is none.
    @inlinable
    mutating func undo(present: Model) -> Step? {
        guard let taken = past.popLast() else { return nil }
        let step = Step(label: taken.info.label, snapshot: taken.snapshot, coalescingKey: nil)
        future.append(Step(label: step.label, snapshot: present, coalescingKey: nil))
        groupHasStep = false
        return step
    }

    /// Takes the latest future step, pushing `present` to the past; nil when there is none.
    @inlinable
    mutating func redo(present: Model) -> Step? {
        guard let step = future.popLast() else { return nil }
        appendPast(present, Info(label: step.label, coalescingKey: nil))
        groupHasStep = false
        return step
    }
}

extension UndoHistory {
    /// The past and future as they are now, to go back to if the changes recorded after this
    /// point are rolled back (their save failed). Open groups are not part of it: they are the
    /// caller's, opened and closed outside any commit.
    struct Checkpoint {
        var past: [PastStep]
        var future: [Step]
        var groupHasStep: Bool
    }

    /// Copies the past and future: a retain per step, paid once per group of saved commits.
    func checkpoint() -> Checkpoint {
        Checkpoint(past: past.elements, future: future, groupHasStep: groupHasStep)
    }

    /// Puts the past and future back as they were at `checkpoint`.
    mutating func restore(_ checkpoint: Checkpoint) {
        past.removeAll()
        for step in checkpoint.past { past.append(step) }
        future = checkpoint.future
        groupHasStep = checkpoint.groupHasStep
    }
}

/// The name of an undo step: a command's type (named only when asked) or a group's name.
@usableFromInline
enum StepLabel: Sendable {
    case command(any Sendable.Type)
    case name(String)

    @usableFromInline var name: String {
        switch self {
        case .command(let type): commandName(ofType: type)
        case .name(let name): name
        }
    }
}
