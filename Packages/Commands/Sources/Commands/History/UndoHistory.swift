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
    /// While a save group is pending: how to bring the past and future back to where they were
    /// when it opened (``beginRollback()``); nil otherwise.
    @usableFromInline var rollback: Rollback?
    /// The steps a full ring pushed out since ``beginRollback()``, oldest first: the part of the
    /// rollback that ``appendPast(_:_:)`` writes. Kept apart from ``rollback`` so its storage is
    /// reused from group to group instead of allocated for each.
    @usableFromInline var pushedOut: [PastStep] = []

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
        if _slowPath(rollback != nil) { keepOldestBeforeAppend() }
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
            if rollback != nil { keepWholePast() }
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
        if rollback != nil { keepWholePast() }
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
    /// What ``rollBack()`` needs to put the history back as it was when a save group opened.
    ///
    /// A save group usually only appends steps, so the rollback does not copy the past: it
    /// keeps how many steps there were, and the steps a full ring pushes out meanwhile
    /// (``pushedOut``). The past as it was is then the first `count` of the pushed-out steps
    /// followed by the ring's. Only an undo or a cleared history inside the group, which take
    /// steps out, copy the past first (``keepWholePast()``).
    @usableFromInline
    struct Rollback {
        /// How many steps the past held.
        let count: Int
        /// The future, shared with the history's until it changes (copy on write).
        let future: [Step]
        let groupHasStep: Bool
        /// The whole past, once a step was taken out of it.
        var past: [PastStep]?
    }

    /// Starts keeping what ``rollBack()`` needs, as the changes recorded from now on may be
    /// rolled back (their save fails). Open groups are not part of it: they are the caller's,
    /// opened and closed outside any commit. Costs no copy of the past.
    mutating func beginRollback() {
        rollback = Rollback(count: past.count, future: future, groupHasStep: groupHasStep, past: nil)
    }

    /// The changes recorded since ``beginRollback()`` stay: forget how to roll them back.
    mutating func endRollback() {
        rollback = nil
        pushedOut.removeAll(keepingCapacity: true)
    }

    /// Puts the past and future back as they were at ``beginRollback()``.
    mutating func rollBack() {
        guard let kept = rollback else { return }
        let steps = kept.past ?? Array((pushedOut + past.elements).prefix(kept.count))
        endRollback()
        past.removeAll()
        for step in steps { past.append(step) }
        future = kept.future
        groupHasStep = kept.groupHasStep
    }

    /// Before an append to a full ring drops the oldest step: keeps it, while it is one of the
    /// steps the past had at ``beginRollback()``.
    @usableFromInline
    mutating func keepOldestBeforeAppend() {
        guard let count = rollback?.count, rollback?.past == nil, past.count == past.capacity,
            past.capacity > 0, pushedOut.count < count, let oldest = past.removeFirst()
        else { return }
        pushedOut.append(oldest)
    }

    /// Before a step is taken out of the past: copies the past as it was at ``beginRollback()``,
    /// which the append-only record can no longer rebuild.
    @usableFromInline
    mutating func keepWholePast() {
        guard let kept = rollback, kept.past == nil else { return }
        rollback?.past = Array((pushedOut + past.elements).prefix(kept.count))
        pushedOut.removeAll(keepingCapacity: true)
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
