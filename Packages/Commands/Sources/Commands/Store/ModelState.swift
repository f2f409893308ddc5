import Foundation
import Observation
import _KitSupport

/// An observable, read-only view of a store's model: SwiftUI (or `withObservationTracking`)
/// re-renders a view only when a value it read changes, not on every command.
///
/// Read the model's properties by name: `store.state.notes` (or `app.state.notes` through the
/// umbrella's `AppCore`). Each read tells Observation which key path the reader depends on; when
/// a change is announced (after its save), only the key paths whose values differ are signalled.
/// Values compare with `==` when they are `Equatable`; other values count as changed on every
/// change. A change that is rolled back was never announced, so it is never signalled.
///
/// ```swift
/// withObservationTracking { _ = store.state.notes } onChange: { print("notes changed") }
/// try runner.execute(Rename(title: "Groceries"))   // nothing: the reader read only `notes`
/// try runner.execute(AddNote(text: "milk"))        // "notes changed"
/// ```
///
/// `Observable`'s macro cannot track the members of a generic model, so this type is written by
/// hand: each model key path read gets a key path of its own on the view
/// (`\ModelState.[tracking: \Model.notes]`), which is what Observation registers.
@dynamicMemberLookup
public final class ModelState<Model: Sendable>: Observable, Sendable {
    /// How to tell whether a tracked key path's value changed, and how to signal it.
    private struct Tracker: Sendable {
        var differs: @Sendable (Model, Model) -> Bool
        var willSet: @Sendable (ModelState<Model>) -> Void
        var didSet: @Sendable (ModelState<Model>) -> Void
    }

    // @unchecked: `AnyKeyPath` is immutable, and only a key here; the standard library does not
    // mark it `Sendable`.
    private struct State: @unchecked Sendable {
        var model: Model
        var tracked: [AnyKeyPath: Tracker] = [:]
    }

    private let registrar = ObservationRegistrar()
    private let state: Locked<State>

    init(_ model: Model) {
        state = Locked(State(model: model))
    }

    /// The model's value at `keyPath`; a reader depends on it until it changes.
    public subscript<Value: Equatable & Sendable>(dynamicMember keyPath: any KeyPath<Model, Value> & Sendable) -> Value
    {
        track(keyPath) { old, new in old[keyPath: keyPath] != new[keyPath: keyPath] }
        return read(keyPath)
    }

    /// The model's value at `keyPath`; a reader depends on it. The value is not `Equatable`, so
    /// every announced change counts as a change of it.
    public subscript<Value: Sendable>(dynamicMember keyPath: any KeyPath<Model, Value> & Sendable) -> Value {
        track(keyPath) { _, _ in true }
        return read(keyPath)
    }

    /// The whole model, as the last announced change left it; a reader depends on all of it.
    public var model: Model {
        self[dynamicMember: \Model.self]
    }

    /// The key path Observation sees for the model's `keyPath`.
    subscript<Value: Sendable>(tracking keyPath: any KeyPath<Model, Value> & Sendable) -> Value {
        state.withLock { $0.model[keyPath: keyPath] }
    }

    private func read<Value: Sendable>(_ keyPath: any KeyPath<Model, Value> & Sendable) -> Value {
        registrar.access(self, keyPath: \.[tracking: keyPath])
        return self[tracking: keyPath]
    }

    /// Remembers how to compare and signal `keyPath` the first time anyone reads it.
    private func track<Value: Sendable>(
        _ keyPath: any KeyPath<Model, Value> & Sendable, differs: @escaping @Sendable (Model, Model) -> Bool
    ) {
        state.withLock { state in
            guard state.tracked[keyPath] == nil else { return }
            state.tracked[keyPath] = Tracker(
                differs: differs,
                willSet: { view in view.registrar.willSet(view, keyPath: \.[tracking: keyPath]) },
                didSet: { view in view.registrar.didSet(view, keyPath: \.[tracking: keyPath]) })
        }
    }

    /// Takes an announced change: the new model, and a signal for each read key path whose
    /// value it changed. Called by the store on the writer, in commit order.
    func apply(_ change: ModelChange<Model>) {
        let changed = state.withLock { state -> [Tracker] in
            let changed = state.tracked.values.filter { $0.differs(change.old, change.new) }
            if changed.isEmpty { state.model = change.new }
            return changed
        }
        guard !changed.isEmpty else { return }
        // Observation's contract: `willSet` before the value changes, `didSet` after.
        for tracker in changed { tracker.willSet(self) }
        state.withLock { $0.model = change.new }
        for tracker in changed { tracker.didSet(self) }
    }
}
