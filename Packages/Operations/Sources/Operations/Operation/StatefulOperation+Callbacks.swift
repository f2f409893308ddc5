extension StatefulOperation {
    /// Adds a callback that runs on the main actor when the operation starts.
    @discardableResult
    public func onStart(_ body: @escaping @MainActor @Sendable () -> Void) -> Self {
        addCallbacks(runsOnCaller: false, startsPhase: true) { $0.start.append(.main { _ in body() }) }
    }

    /// Adds a callback that runs on `context` when the operation starts.
    @discardableResult
    public func onStart(on context: CallbackContext, _ body: @escaping @Sendable () -> Void) -> Self {
        addCallbacks(runsOnCaller: context == .caller, startsPhase: true) {
            $0.start.append(Callback(context) { _ in body() })
        }
    }

    /// Adds a callback that runs on the main actor once the work returned, before success or fail.
    @discardableResult
    public func onReturn(_ body: @escaping @MainActor @Sendable () -> Void) -> Self {
        addCallbacks(runsOnCaller: false) { $0.returned.append(.main { _ in body() }) }
    }

    /// Adds a callback that runs on `context` once the work returned, before success or fail.
    @discardableResult
    public func onReturn(on context: CallbackContext, _ body: @escaping @Sendable () -> Void) -> Self {
        addCallbacks(runsOnCaller: context == .caller) { $0.returned.append(Callback(context) { _ in body() }) }
    }

    /// Adds a callback that runs on the main actor with the value when the work succeeded.
    @discardableResult
    public func onSuccess(_ body: @escaping @MainActor @Sendable (Output) -> Void) -> Self {
        addCallbacks(runsOnCaller: false) { $0.success.append(.main(body)) }
    }

    /// Adds a callback that runs on `context` with the value when the work succeeded.
    @discardableResult
    public func onSuccess(on context: CallbackContext, _ body: @escaping @Sendable (Output) -> Void) -> Self {
        addCallbacks(runsOnCaller: context == .caller) { $0.success.append(Callback(context, body)) }
    }

    /// Adds a callback that runs on the main actor with the error when the work failed.
    @discardableResult
    public func onFail(_ body: @escaping @MainActor @Sendable (Failure) -> Void) -> Self {
        addCallbacks(runsOnCaller: false) { $0.fail.append(.main(body)) }
    }

    /// Adds a callback that runs on `context` with the error when the work failed.
    @discardableResult
    public func onFail(on context: CallbackContext, _ body: @escaping @Sendable (Failure) -> Void) -> Self {
        addCallbacks(runsOnCaller: context == .caller) { $0.fail.append(Callback(context, body)) }
    }

    /// Adds a callback that runs on the main actor last, however the operation ended.
    @discardableResult
    public func onFinish(_ body: @escaping @MainActor @Sendable (OperationOutcome<Output, Failure>) -> Void) -> Self {
        addCallbacks(runsOnCaller: false) { $0.finish.append(.main(body)) }
    }

    /// Adds a callback that runs on `context` last, however the operation ended.
    @discardableResult
    public func onFinish(
        on context: CallbackContext, _ body: @escaping @Sendable (OperationOutcome<Output, Failure>) -> Void
    ) -> Self {
        addCallbacks(runsOnCaller: context == .caller) { $0.finish.append(Callback(context, body)) }
    }
}
