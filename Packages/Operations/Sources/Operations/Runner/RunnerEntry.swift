/// What a runner keeps about one of its operations, stored on the operation itself so that
/// adding one costs no node and no dictionary entry.
///
/// Only the runner that owns the operation reads or writes it, under that runner's lock. An
/// operation belongs to at most one runner, ever, so the lock never changes.
struct RunnerEntry {
    enum Status {
        /// Not in a runner: never added, or finished and removed.
        case outside
        /// Waiting for dependencies.
        case waiting
        /// In the ready queue.
        case ready
        /// Taken by a worker (even if its cancellation won before it started).
        case running
    }

    var status = Status.outside
    /// Dependencies not yet finished.
    var waitingOn = 0
    /// Operations in the same runner waiting for this one, with what its failure means to each
    /// (cycle detection walks these edges too).
    var dependents: [(operation: OperationLifecycle, policy: DependencyPolicy)] = []
    /// Where the operation sits in the runner's list of operations, counted from the first
    /// operation the runner ever had (see `OperationRunner.Members`).
    var slot = 0
}
