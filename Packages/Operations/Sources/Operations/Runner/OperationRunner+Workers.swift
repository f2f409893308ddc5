extension OperationRunner {
    /// An operation a worker is about to drive.
    struct Job {
        let operation: OperationLifecycle
        let isolation: (any Actor)?
        let turn: StartTurn?
    }

    /// How many new workers to start for the ready operations; counts them as started.
    func claimWorkers(_ state: inout State) -> Int {
        guard !state.isSuspended, state.workers < maxConcurrent else { return 0 }
        let count = max(0, min(state.ready.count - state.readyHead, maxConcurrent - state.workers))
        state.workers += count
        return count
    }

    func spawnWorkers(_ count: Int) {
        for _ in 0..<count {
            let box = TaskHandleBox()
            box.set(Task { [self] in await work(box) })
        }
    }

    /// A worker: drives ready operations one after another until none is left.
    private func work(_ box: TaskHandleBox) async {
        var job = next(after: nil, finished: .succeeded, box: box)
        while let current = job {
            let kind = await current.operation.drive(isolation: current.isolation, turn: current.turn)
            // An operation cancelled through this task leaves it cancelled: a fresh worker takes over.
            job = next(after: current.operation, finished: kind, box: box, exiting: Task.isCancelled)
        }
    }

    /// Forgets the operation the worker just finished and takes the next ready one, under one
    /// lock; nil when the worker should stop (and is no longer counted).
    private func next(
        after finished: OperationLifecycle?, finished kind: FinishKind, box: TaskHandleBox, exiting: Bool = false
    ) -> Job? {
        // Operations dropped from the queue are released after the lock, not under it: one may
        // be the last reference, and its callbacks may capture anything.
        var dropped: [OperationLifecycle] = []
        var leftovers: [OperationLifecycle?] = []
        let (job, cancelled, idleWaiters, spawn) = state.withLock { state in
            let cancelled = finished.map { forget($0, finished: kind, in: &state) } ?? []
            let job = exiting ? nil : take(from: &state, box: box, dropping: &dropped)
            if job == nil { state.workers -= 1 }
            return (job, cancelled, takeIdleWaiters(&state, leftovers: &leftovers), claimWorkers(&state))
        }
        dropped = []
        leftovers = []
        for waiter in idleWaiters { waiter.resume() }
        for dependent in cancelled { dependent.cancel() }
        spawnWorkers(spawn)
        return job
    }

    private func take(
        from state: inout State, box: TaskHandleBox, dropping dropped: inout [OperationLifecycle]
    ) -> Job? {
        defer { compactReadyQueue(&state) }
        while !state.isSuspended, state.readyHead < state.ready.count {
            let slot = state.readyHead
            state.readyHead += 1
            guard let operation = state.ready[slot].take() else { continue }
            guard case .ready = operation.entry.status else {
                dropped.append(operation)
                continue
            }
            // Assigned first, so that a cancellation that sees the operation running finds its task.
            box.assign(ObjectIdentifier(operation))
            guard let begun = operation.beginEnqueued(task: box) else {
                // Cancelled while waiting: whoever cancelled it delivers its finish.
                dropped.append(operation)
                continue
            }
            operation.entry.status = .running
            return Job(
                operation: operation, isolation: begun.isolation,
                turn: begun.hasStartCallbacks ? starts.issue() : nil)
        }
        return nil
    }

    private func compactReadyQueue(_ state: inout State) {
        if state.readyHead == state.ready.count {
            state.ready.removeAll(keepingCapacity: true)
            state.readyHead = 0
        } else if state.readyHead > 1024 && state.readyHead * 2 > state.ready.count {
            state.ready.removeFirst(state.readyHead)
            state.readyHead = 0
        }
    }
}
