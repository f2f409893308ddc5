import Observation

/// Loads data for a screen and tracks its ``LoadState``; SwiftUI and UIKit bind to it.
///
/// ```swift
/// let screen = LoadingModel(load: { try await api.messages() }, isEmpty: { $0.isEmpty })
/// await screen.load()       // .idle → .loading → .loaded(messages) | .empty | .failed(error)
/// ```
///
/// Observe it with Observation (a SwiftUI view reading ``state`` re-renders when it changes), or
/// with the ``states`` sequence.
@MainActor
public final class LoadingModel<Value: Sendable>: Observable {
    private let loader: @Sendable () async throws -> Value
    private let isEmpty: @Sendable (Value) -> Bool
    private var current: LoadState<Value> = .idle
    private var inFlight: StatefulOperation<Value, any Error>?
    private var observers: [Int: AsyncStream<LoadState<Value>>.Continuation] = [:]
    private var nextObserverID = 0
    private let registrar = ObservationRegistrar()

    /// Creates a model that loads with `load` and calls a value for which `isEmpty` holds empty.
    /// - Parameters:
    ///   - load: Fetches the data.
    ///   - isEmpty: Whether a value means "no results"; never, by default.
    public init(
        load: @escaping @Sendable () async throws -> Value,
        isEmpty: @escaping @Sendable (Value) -> Bool = { _ in false }
    ) {
        self.loader = load
        self.isEmpty = isEmpty
    }

    /// The current state.
    public private(set) var state: LoadState<Value> {
        get {
            access()
            return current
        }
        set {
            withMutation { current = newValue }
            for observer in observers.values { observer.yield(newValue) }
        }
    }

    /// Loads, moving through `.loading` to `.loaded`, `.empty` or `.failed`.
    ///
    /// A call while a load is under way waits for that load instead of starting another.
    /// Cancelling the calling task cancels the load, and the state returns to `.idle`.
    public func load() async {
        if let inFlight {
            _ = await inFlight.outcome
            return
        }
        let operation = StatefulOperation(base: .none, loader)
        inFlight = operation
        state = .loading
        let outcome = await operation.outcome
        inFlight = nil
        switch outcome {
        case .succeeded(let value): state = isEmpty(value) ? .empty : .loaded(value)
        case .failed(let error): state = .failed(error)
        case .cancelled: state = .idle
        }
    }

    /// Loads again, typically from the retry view after a failure; the same as ``load()``.
    public func retry() async {
        await load()
    }

    /// Cancels the load under way, if any; the state returns to `.idle`.
    public func cancel() {
        inFlight?.cancel()
    }

    /// The states from now on: the current one first, then each change, for as long as the
    /// consumer listens.
    public var states: AsyncStream<LoadState<Value>> {
        let (stream, continuation) = AsyncStream.makeStream(of: LoadState<Value>.self)
        let id = nextObserverID
        nextObserverID += 1
        observers[id] = continuation
        continuation.yield(current)
        continuation.onTermination = { [weak self] _ in
            Task { @MainActor in self?.observers.removeValue(forKey: id) }
        }
        return stream
    }

    private func access() {
        registrar.access(self, keyPath: \.state)
    }

    private func withMutation(_ change: () -> Void) {
        registrar.withMutation(of: self, keyPath: \.state, change)
    }
}
