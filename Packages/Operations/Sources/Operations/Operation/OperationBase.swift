import _KitSupport

/// Callbacks every operation of an app shares: Mold's `BaseOperation`, without the subclass.
///
/// Operations register the base's callbacks before their own, so a base fail handler runs
/// first. Set the app-wide base once, at launch:
///
/// ```swift
/// OperationBase.shared = OperationBase().onFail { error in showAlert(error.userMessage) }
/// ```
public struct OperationBase: Sendable {
    var start: [Callback<Void>] = []
    var returned: [Callback<Void>] = []
    var success: [Callback<any Sendable>] = []
    var fail: [Callback<any Error>] = []
    var finish: [Callback<OperationOutcome<any Sendable, any Error>>] = []

    /// A base with no callbacks.
    public init() {}

    /// Whether the base has no callbacks at all.
    var isEmpty: Bool {
        start.isEmpty && returned.isEmpty && success.isEmpty && fail.isEmpty && finish.isEmpty
    }

    /// Whether any callback asked for the caller's context.
    var usesCallerContext: Bool {
        start.contains { $0.runsOnCaller } || returned.contains { $0.runsOnCaller }
            || success.contains { $0.runsOnCaller } || fail.contains { $0.runsOnCaller }
            || finish.contains { $0.runsOnCaller }
    }

    /// A base with no callbacks, for operations that must not share the app's (chains use it).
    public static let none = OperationBase()

    /// The shared base, or nil while it is empty: every operation reads it, so the usual
    /// case copies no callback list in or out.
    private static let storage = Locked<OperationBase?>(nil)

    /// The base new operations use unless told otherwise. Empty until the app sets it.
    public static var shared: OperationBase {
        get { storage.withLock { $0 } ?? OperationBase() }
        set { storage.withLock { $0 = newValue.isEmpty ? nil : newValue } }
    }

    /// This base plus a start callback on the main actor.
    public func onStart(_ body: @escaping @MainActor @Sendable () -> Void) -> Self {
        var copy = self
        copy.start.append(.main { _ in body() })
        return copy
    }

    /// This base plus a start callback on `context`.
    public func onStart(on context: CallbackContext, _ body: @escaping @Sendable () -> Void) -> Self {
        var copy = self
        copy.start.append(Callback(context) { _ in body() })
        return copy
    }

    /// This base plus a return callback on the main actor.
    public func onReturn(_ body: @escaping @MainActor @Sendable () -> Void) -> Self {
        var copy = self
        copy.returned.append(.main { _ in body() })
        return copy
    }

    /// This base plus a return callback on `context`.
    public func onReturn(on context: CallbackContext, _ body: @escaping @Sendable () -> Void) -> Self {
        var copy = self
        copy.returned.append(Callback(context) { _ in body() })
        return copy
    }

    /// This base plus a success callback, given the type-erased value, on the main actor.
    public func onSuccess(_ body: @escaping @MainActor @Sendable (any Sendable) -> Void) -> Self {
        var copy = self
        copy.success.append(.main(body))
        return copy
    }

    /// This base plus a success callback, given the type-erased value, on `context`.
    public func onSuccess(on context: CallbackContext, _ body: @escaping @Sendable (any Sendable) -> Void) -> Self {
        var copy = self
        copy.success.append(Callback(context, body))
        return copy
    }

    /// This base plus a fail callback (the usual place to show every error the same way), on the main actor.
    public func onFail(_ body: @escaping @MainActor @Sendable (any Error) -> Void) -> Self {
        var copy = self
        copy.fail.append(.main(body))
        return copy
    }

    /// This base plus a fail callback (the usual place to show every error the same way), on `context`.
    public func onFail(on context: CallbackContext, _ body: @escaping @Sendable (any Error) -> Void) -> Self {
        var copy = self
        copy.fail.append(Callback(context, body))
        return copy
    }

    /// This base plus a finish callback, given the type-erased outcome, on the main actor.
    public func onFinish(
        _ body: @escaping @MainActor @Sendable (OperationOutcome<any Sendable, any Error>) -> Void
    ) -> Self {
        var copy = self
        copy.finish.append(.main(body))
        return copy
    }

    /// This base plus a finish callback, given the type-erased outcome, on `context`.
    public func onFinish(
        on context: CallbackContext, _ body: @escaping @Sendable (OperationOutcome<any Sendable, any Error>) -> Void
    ) -> Self {
        var copy = self
        copy.finish.append(Callback(context, body))
        return copy
    }
}
