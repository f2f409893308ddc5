import Foundation
import _KitSupport

/// Holds the model. Anyone may read it, from any thread; only commands run by a
/// ``CommandRunner`` change it.
///
/// There is no public setter and no `inout` access: `model` returns a snapshot (a value), so
/// nothing a reader does with it reaches the store. A store takes changes from one runner only,
/// the first created for it, so that no change can skip that runner's ``SaveStep``; another
/// runner's commands fail with ``CommandError/foreignStore(command:)``.
///
/// Readers see announced changes only: while a change waits for its save, ``model`` is still
/// the model before it, and observers hear of it once it is saved.
///
/// ```swift
/// let store = ModelStore(AppModel())
/// print(store.model.groups)
/// for await change in store.changes { print(change.command, change.old, change.new) }
/// ```
public final class ModelStore<Model: Sendable>: @unchecked Sendable {
    /// A change observer. A class, so that a notification calls each handler in place through
    /// a borrowed reference: calling a closure read out of an array retained and released its
    /// context, once per observer and change.
    @usableFromInline final class Observer: Sendable {
        let id: UInt64
        @usableFromInline let handler: @Sendable (ModelChange<Model>) -> Void

        init(id: UInt64, handler: @escaping @Sendable (ModelChange<Model>) -> Void) {
            self.id = id
            self.handler = handler
        }
    }

    /// The store's mutable state, guarded by `lock` (except `current`, which only the writer
    /// thread writes and so may read without it). It lives behind a pointer because a class's
    /// stored properties pay for a dynamic exclusivity check on every access, and the lock
    /// already makes access exclusive.
    @usableFromInline
    struct State {
        /// The head: the model with every committed change, saved or not. Commands build on it.
        @usableFromInline var current: Model
        /// Counts commits and rollbacks; never goes back, so an async command can tell whether
        /// the model moved under its staged changes.
        @usableFromInline var version: UInt64 = 0
        /// While changes wait for their save: the last announced model and its version, which
        /// readers see instead of `current`. Nil when every change is announced.
        @usableFromInline var announced: (model: Model, version: UInt64)?
        /// The runner this store takes changes from: the first one created for it.
        weak var owner: AnyObject?
        /// The observable view, once someone asked for it (it observes like any observer).
        var observable: ModelState<Model>?
        @usableFromInline var observers: [Observer] = []
        @usableFromInline var nextObserverID: UInt64 = 0

        init(current: Model) {
            self.current = current
        }
    }

    /// The serial write queue (see `ModelStore+Writer.swift`), guarded by `lock`. Not part of
    /// `State`: `State` is generic, so code that is not specialised for a model (the runner's
    /// drain loop) looked its layout up in the runtime's metadata cache on every access; this
    /// struct's layout is fixed.
    @usableFromInline
    struct WriterQueue {
        @usableFromInline var pending: [() -> Void] = []
        @usableFromInline var pendingHead = 0
        @usableFromInline var isWriting = false
        @usableFromInline var writer: pthread_t?
    }

    @usableFromInline let lock = FastLock()
    @usableFromInline let storage: UnsafeMutablePointer<State>
    @usableFromInline let queue: UnsafeMutablePointer<WriterQueue>

    @inlinable var current: Model {
        _read { yield storage.pointee.current }
        _modify { yield &storage.pointee.current }
    }
    @inlinable var version: UInt64 {
        _read { yield storage.pointee.version }
        _modify { yield &storage.pointee.version }
    }
    @inlinable var observers: [Observer] {
        _read { yield storage.pointee.observers }
        _modify { yield &storage.pointee.observers }
    }
    @inlinable var nextObserverID: UInt64 {
        _read { yield storage.pointee.nextObserverID }
        _modify { yield &storage.pointee.nextObserverID }
    }
    @inlinable var pending: [() -> Void] {
        _read { yield queue.pointee.pending }
        _modify { yield &queue.pointee.pending }
    }
    @inlinable var pendingHead: Int {
        _read { yield queue.pointee.pendingHead }
        _modify { yield &queue.pointee.pendingHead }
    }
    @inlinable var isWriting: Bool {
        _read { yield queue.pointee.isWriting }
        _modify { yield &queue.pointee.isWriting }
    }
    @inlinable var writer: pthread_t? {
        _read { yield queue.pointee.writer }
        _modify { yield &queue.pointee.writer }
    }

    /// Creates a store holding `model`.
    public init(_ model: Model) {
        storage = .allocate(capacity: 1)
        storage.initialize(to: State(current: model))
        queue = .allocate(capacity: 1)
        queue.initialize(to: WriterQueue())
    }

    deinit {
        storage.deinitialize(count: 1)
        storage.deallocate()
        queue.deinitialize(count: 1)
        queue.deallocate()
    }

    /// A consistent snapshot of the model, from any thread: every announced change, none that
    /// is still waiting for its save.
    @inlinable
    public var model: Model {
        lock.withLock { storage.pointee.announced?.model ?? current }
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

    /// Calls `handler` with the old and new value at `keyPath` after every change that changed
    /// it (by `==`), in order, on the thread that made the change. Changes that leave the value
    /// as it was are not reported.
    ///
    /// ```swift
    /// let token = store.observe(\.notes) { old, new in print(old.count, "→", new.count) }
    /// ```
    ///
    /// Keep the returned value alive for as long as you observe.
    public func observe<Value: Equatable & Sendable>(
        _ keyPath: any KeyPath<Model, Value> & Sendable, _ handler: @escaping @Sendable (Value, Value) -> Void
    ) -> ChangeObservation {
        observe { change in
            let old = change.old[keyPath: keyPath]
            let new = change.new[keyPath: keyPath]
            if old != new { handler(old, new) }
        }
    }

    /// An observable, read-only view of the model for SwiftUI and `withObservationTracking`:
    /// a reader of `state.notes` is told only when `notes` changes. The same object every time;
    /// created on first use, so a store nobody observes this way does no work for it.
    public var state: ModelState<Model> {
        lock.withLock {
            if let observable = storage.pointee.observable { return observable }
            let observable = ModelState(storage.pointee.announced?.model ?? current)
            storage.pointee.observable = observable
            // It lives as long as the store, so it needs no token.
            observers.append(Observer(id: nextObserverID, handler: { change in observable.apply(change) }))
            nextObserverID += 1
            return observable
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

    /// The announced model and its version, for staging async changes: an async command never
    /// builds on a change that may still be rolled back (at its commit, its staged changes are
    /// replayed on the head if the version moved).
    var versionedModel: (model: Model, version: UInt64) {
        lock.withLock { storage.pointee.announced ?? (current, version) }
    }

    /// The head and its version: every committed change, saved or not.
    var head: (model: Model, version: UInt64) {
        lock.withLock { (current, version) }
    }

    /// Makes `owner` the runner this store takes changes from, unless another live runner is.
    /// - Returns: Whether `owner` is (now) the store's runner.
    func claim(by owner: AnyObject) -> Bool {
        lock.withLock {
            if let current = storage.pointee.owner, current !== owner { return false }
            storage.pointee.owner = owner
            return true
        }
    }

    /// Tells `observers` (from ``commit(_:)``) about `change`. Only called on the writer thread.
    ///
    /// Every handler borrows the caller's change, and is called in place from the array's
    /// buffer: a copy of the change (which an autoclosure made here) is a generic value-witness
    /// copy and destroy of two models and the command, and iterating by value retained each
    /// handler's context.
    @inlinable
    func notify(_ observers: [Observer], of change: ModelChange<Model>) {
        // `observers` keeps every observer alive for the loop.
        observers.withUnsafeBufferPointer { buffer in
            for index in buffer.indices {
                Unmanaged.passUnretained(buffer[index])._withUnsafeGuaranteedRef { $0.handler(change) }
            }
        }
    }
}
