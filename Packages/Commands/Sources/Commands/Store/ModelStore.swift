import Foundation

/// Holds the model. Anyone may read it, from any thread; only commands run by a
/// ``CommandRunner`` change it.
///
/// There is no public setter and no `inout` access: `model` returns a snapshot (a value), so
/// nothing a reader does with it reaches the store.
///
/// ```swift
/// let store = ModelStore(AppModel())
/// print(store.model.groups)
/// for await change in store.changes { print(change.command, change.old, change.new) }
/// ```
public final class ModelStore<Model: Sendable>: @unchecked Sendable {
    @usableFromInline struct Observer {
        let id: UInt64
        @usableFromInline let handler: @Sendable (ModelChange<Model>) -> Void
    }

    /// The store's mutable state, guarded by `lock` (except `current`, which only the writer
    /// thread writes and so may read without it). It lives behind a pointer because a class's
    /// stored properties pay for a dynamic exclusivity check on every access, and the lock
    /// already makes access exclusive.
    @usableFromInline
    struct State {
        @usableFromInline var current: Model
        @usableFromInline var version: UInt64 = 0
        @usableFromInline var observers: [Observer] = []
        @usableFromInline var nextObserverID: UInt64 = 0
        /// The serial write queue: see `ModelStore+Writer.swift`.
        @usableFromInline var pending: [() -> Void] = []
        @usableFromInline var pendingHead = 0
        @usableFromInline var isWriting = false
        @usableFromInline var writer: pthread_t?

        init(current: Model) {
            self.current = current
        }
    }

    @usableFromInline let lock = FastLock()
    @usableFromInline let state: UnsafeMutablePointer<State>

    @inlinable var current: Model {
        _read { yield state.pointee.current }
        _modify { yield &state.pointee.current }
    }
    @inlinable var version: UInt64 {
        _read { yield state.pointee.version }
        _modify { yield &state.pointee.version }
    }
    @inlinable var observers: [Observer] {
        _read { yield state.pointee.observers }
        _modify { yield &state.pointee.observers }
    }
    @inlinable var nextObserverID: UInt64 {
        _read { yield state.pointee.nextObserverID }
        _modify { yield &state.pointee.nextObserverID }
    }
    @inlinable var pending: [() -> Void] {
        _read { yield state.pointee.pending }
        _modify { yield &state.pointee.pending }
    }
    @inlinable var pendingHead: Int {
        _read { yield state.pointee.pendingHead }
        _modify { yield &state.pointee.pendingHead }
    }
    @inlinable var isWriting: Bool {
        _read { yield state.pointee.isWriting }
        _modify { yield &state.pointee.isWriting }
    }
    @inlinable var writer: pthread_t? {
        _read { yield state.pointee.writer }
        _modify { yield &state.pointee.writer }
    }

    /// Creates a store holding `model`.
    public init(_ model: Model) {
        state = .allocate(capacity: 1)
        state.initialize(to: State(current: model))
    }

    deinit {
        state.deinitialize(count: 1)
        state.deallocate()
    }

    /// A consistent snapshot of the model, from any thread.
    @inlinable
    public var model: Model {
        lock.withLock { current }
    }

    /// Runs `body` with a snapshot of the model and returns what it returns.
    ///
    /// In debug builds, starting a command from inside `body` traps: a read is a read.
    public func read<T>(_ body: (Model) throws -> T) rethrows -> T {
        let snapshot = model
        #if DEBUG
            ReadScope.enter()
            defer { ReadScope.leave() }
        #endif
        return try body(snapshot)
    }

    /// Calls `handler` after every change, in order, on the thread that made the change.
    ///
    /// A command that leaves an `Equatable` model as it was makes no change and is not
    /// announced.
    ///
    /// A command started from `handler` is queued and runs after every observer has seen this
    /// change (FIFO, never nested). Keep the returned value alive for as long as you observe.
    public func observe(_ handler: @escaping @Sendable (ModelChange<Model>) -> Void) -> ChangeObservation {
        let id = lock.withLock {
            let id = nextObserverID
            nextObserverID += 1
            observers.append(Observer(id: id, handler: handler))
            return id
        }
        return ChangeObservation { [weak self] in
            guard let self else { return }
            self.lock.withLock { self.observers.removeAll { $0.id == id } }
        }
    }

    /// Every change from now on, as an async sequence of (command, old, new).
    ///
    /// Each access starts a new subscription that buffers without limit, so no change is lost;
    /// it ends when the consuming task is cancelled.
    public var changes: AsyncStream<ModelChange<Model>> {
        AsyncStream { continuation in
            let observation = observe { continuation.yield($0) }
            continuation.onTermination = { _ in observation.cancel() }
        }
    }

    /// The model and its version, for staging async changes.
    var versionedModel: (model: Model, version: UInt64) {
        lock.withLock { (current, version) }
    }

    /// Replaces the model and runs `record` (the undo step) in the same critical section.
    /// Only called on the writer thread. Returns the observers to notify, read under the lock.
    @inlinable
    @discardableResult
    func commit(_ model: Model, recording record: () -> Void = {}) -> [Observer] {
        lock.withLock {
            current = model
            version &+= 1
            record()
            return observers
        }
    }

    /// Tells `observers` (from ``commit(_:)``) about `change`. Only called on the writer thread.
    @inlinable
    func notify(_ observers: [Observer], of change: @autoclosure () -> ModelChange<Model>) {
        guard !observers.isEmpty else { return }
        let change = change()
        for observer in observers {
            observer.handler(change)
        }
    }
}
