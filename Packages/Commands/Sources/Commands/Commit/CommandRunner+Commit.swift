import _KitSupport

/// The commit step: the one path every change takes, whatever made it (a sync or async
/// command, a batch, a nested command, undo, redo, replay). Read it to know what a command does.
///
/// A job on the writer works out a change (a command runs on a copy of the head, undo takes a
/// step from the history) and hands it to ``commit(saves:_:edit:change:)``:
///
/// 1. **Apply.** The new model replaces the head and the undo history records the step, in one
///    critical section. The head is what the next command builds on.
/// 2. **Save.** Without a save step, or for a ``TransientCommand`` when nothing before it waits
///    for a save, the change is settled at once (step 3). Otherwise it joins the open
///    ``CommitGroup``, and so does every job after it while the group is open (they build on
///    it). When the queue runs dry the writer saves the head once for the whole group
///    (``saveGroup()``): one write carries every change made meanwhile.
/// 3. **Settle.** If the save succeeded, each job of the group in order is journaled, its change
///    is announced to observers, and its caller gets its result. If it failed, the head and the
///    undo history go back to where they were before the group, and each caller gets
///    ``CommandError/saveFailed(command:underlying:)``: nothing is journaled for a change that
///    was rolled back, and no observer hears of it.
///
/// Readers (``ModelStore/model``) see the head only once it is announced; while a group waits
/// for its save they see the model before it.
///
/// The sync fast path (``applyDirectly(_:)``, a runner without a save step or middleware) is
/// this step with steps 1 and 3 in one critical section: nothing can fail after the apply.
extension CommandRunner {
    /// Step 1, and step 3 or the group: applies the change `edit` works out from the head.
    ///
    /// Call it on the writer. `edit` runs under the store's lock with the undo history and the
    /// head; it records the undo step and returns the new model, or nil when there is nothing
    /// to change (undo with an empty history), in which case nothing happens and this returns
    /// false. `change` describes the change for observers, outside the lock.
    ///
    /// - Parameters:
    ///   - saves: Whether the change must be saved before it is announced.
    ///   - settlement: How to report the outcome once the change's fate is known.
    @discardableResult
    func commit(
        saves: Bool, _ settlement: Settlement<Model>, edit: (inout UndoHistory<Model>, Model) -> Model?,
        change: (_ old: Model, _ new: Model) -> ModelChange<Model>
    ) -> Bool {
        let needsSave = saves && saveStep != nil
        let committed = store.lock.withLock {
            () -> (old: Model, new: Model, observers: [ModelStore<Model>.Observer]?)? in
            let state = records.state
            let head = store.current
            let opensGroup = needsSave && state.pointee.group == nil
            // The history as it was, to restore if the group's save fails: kept from before
            // `edit` changes it, once per group.
            let rollsBack = opensGroup && recordsUndo
            if rollsBack { state.pointee.history.beginRollback() }
            guard let new = edit(&state.pointee.history, head) else {
                if rollsBack { state.pointee.history.endRollback() }
                return nil
            }
            if opensGroup {
                store.storage.pointee.announced = (head, store.version)
                state.pointee.group = CommitGroup(rollsBackHistory: rollsBack)
            }
            store.current = new
            store.version &+= 1
            return (head, new, state.pointee.group == nil ? store.observers : nil)
        }
        guard let committed else { return false }
        var settlement = settlement
        settlement.change = change(committed.old, committed.new)
        if let observers = committed.observers {
            settlement.settle(saveError: nil, observers: observers, store: store)
        } else {
            records.state.pointee.group?.settlements.append(settlement)
        }
        return true
    }

    /// Step 3 for a job that changed nothing (it failed, or left the model as it was): at once,
    /// or with the open group when one waits for its save (the job ran on its changes).
    ///
    /// - Parameter joinsSave: Whether the job waits for a save even though it changed nothing
    ///   (``save()``): it opens a group when none is open.
    func settle(_ settlement: Settlement<Model>, joinsSave: Bool = false) {
        let grouped = store.lock.withLock { () -> Bool in
            let state = records.state
            if state.pointee.group == nil, joinsSave, saveStep != nil {
                store.storage.pointee.announced = (store.current, store.version)
                state.pointee.group = CommitGroup(rollsBackHistory: false)
            }
            return state.pointee.group != nil
        }
        if grouped {
            records.state.pointee.group?.settlements.append(settlement)
        } else {
            settlement.settle(saveError: nil, observers: [], store: store)
        }
    }

    /// Step 2 at the end of a batch: saves the head once for every change in the open group,
    /// then settles them all.
    ///
    /// - Returns: false when an async save took the writer role over; it settles the group and
    ///   drains the queue on when it is done.
    func saveGroup() -> Bool {
        // Only the writer changes the head, so it reads it without the lock.
        let head = store.current
        switch saveStep?.kind {
        case .sync(let save)?:
            var saveError: (any Error)?
            do { try save(head) } catch { saveError = error }
            settleGroup(saveError: saveError)
            return true
        case .async(let save)?:
            Task {
                var saveError: (any Error)?
                do { try await save(head) } catch { saveError = error }
                store.lock.withLock { store.writer = CurrentThread.id }
                settleGroup(saveError: saveError)
                drain()
            }
            return false
        case nil:
            settleGroup(saveError: nil)
            return true
        }
    }

    /// Step 3 for the open group: announces its changes in order, or rolls them all back.
    private func settleGroup(saveError: (any Error)?) {
        let (group, observers) = store.lock.withLock { () -> (CommitGroup<Model>?, [ModelStore<Model>.Observer]) in
            let state = records.state
            let group = state.pointee.group
            state.pointee.group = nil
            if saveError != nil, let announced = store.storage.pointee.announced {
                store.current = announced.model
                // Forward, never back: an async command that staged on the rolled-back head
                // must see that the model moved.
                store.version &+= 1
                if group?.rollsBackHistory == true { state.pointee.history.rollBack() }
            } else if group?.rollsBackHistory == true {
                state.pointee.history.endRollback()
            }
            store.storage.pointee.announced = nil
            return (group, store.observers)
        }
        for settlement in group?.settlements ?? [] {
            settlement.settle(saveError: saveError, observers: observers, store: store)
        }
    }
}

/// The changes committed to the head while a save is pending, in commit order, and the undo
/// history to go back to if the save fails.
struct CommitGroup<Model: Sendable> {
    /// Whether the undo history keeps how to go back to before the group's first change
    /// (``UndoHistory/beginRollback()``); false when undo is off or the group was opened by a
    /// change that records no step.
    let rollsBackHistory: Bool
    var settlements: [Settlement<Model>] = []

    init(rollsBackHistory: Bool) {
        self.rollsBackHistory = rollsBackHistory
    }
}

/// What a job leaves for when its change's fate is known: the change to announce, how to
/// journal the outcome, and how to hand it to the caller.
struct Settlement<Model: Sendable> {
    /// The change to announce once it is saved; nil when the job changed nothing.
    var change: ModelChange<Model>?
    /// Journals the outcome and tells middleware. `saveError` is the save step's error when the
    /// job's change (or one it ran on) was rolled back.
    let record: (_ saveError: (any Error)?) -> Void
    /// Hands the outcome to the caller.
    let deliver: (_ saveError: (any Error)?) -> Void

    init(
        record: @escaping (_ saveError: (any Error)?) -> Void, deliver: @escaping (_ saveError: (any Error)?) -> Void
    ) {
        self.record = record
        self.deliver = deliver
    }

    /// Journals, announces (when saved) and delivers, in that order.
    func settle(saveError: (any Error)?, observers: [ModelStore<Model>.Observer], store: ModelStore<Model>) {
        record(saveError)
        if saveError == nil, let change { store.notify(observers, of: change) }
        deliver(saveError)
    }
}

/// Holds a runner's claim on its store: the store keeps it weakly, so the claim ends with the
/// runner.
final class OwnerToken: Sendable {}
