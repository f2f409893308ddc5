extension OperationRunner {
    /// An operation a worker is about to drive.
    struct Job {
        let driver: any LifecycleDriver
        let isolation: (any Actor)?
        let turn: StartTurn?
    }

    /// The runner whose worker the current task is, if any.
    @TaskLocal static var currentWorker: ObjectIdentifier?

    /// How many new workers to start for the ready operations; counts them as started.
    ///
    /// A worker of this runner that is finishing an operation will take the next ready one
    /// itself, so it is not replaced.
    func claimWorkers(_ state: inout State) -> Int {
        guard !state.isSuspended, state.workers < maxConcurrent else { return 0 }
        var ready = state.ready.count - state.readyHead
        if ready > 0 && Self.currentWorker == ObjectIdentifier(self) { ready -= 1 }
        let count = max(0, min(ready, maxConcurrent - state.workers))
        state.workers += count
        return count
    }

    func spawnWorkers(_ count: Int) {
        for _ in 0..<count {
            let box = TaskHandleBox()
            box.set(
                Task { [self] in
                    await Self.$currentWorker.withValue(ObjectIdentifier(self)) { await work(box) }
                })
        }
    }

    /// A worker: drives ready operations one after another until none is left.
    private func work(_ box: TaskHandleBox) async {
        while let job = nextJob(for: box) {
            await job.driver.drive(isolation: job.isolation, turn: job.turn)
            if Task.isCancelled {
                // The operation was cancelled through this task; a fresh worker takes over.
                let spawn = state.withLock { state in
                    state.workers -= 1
                    return claimWorkers(&state)
                }
                spawnWorkers(spawn)
                return
            }
        }
    }

    private func nextJob(for box: TaskHandleBox) -> Job? {
        state.withLock { state in
            defer { compactReadyQueue(&state) }
            while !state.isSuspended, state.readyHead < state.ready.count {
                guard let node = state.ready[state.readyHead].take() else {
                    state.readyHead += 1
                    continue
                }
                state.readyHead += 1
                guard !node.isFinished, node.waitingOn == 0, !node.isRunning,
                    let isolation = node.operation.lifecycle.beginEnqueued(task: box)
                else { continue }
                node.isRunning = true
                return Job(
                    driver: node.driver, isolation: isolation,
                    turn: node.driver.hasStartCallbacks ? starts.issue() : nil)
            }
            state.workers -= 1
            return nil
        }
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
