extension StatefulOperation {
    /// A new operation that runs this one, passes its value to `next`, and runs the operation
    /// `next` returns: Mold's `MDChainedOperation`.
    ///
    /// ```swift
    /// let profile = login.then { session in fetchProfile(session) }
    /// ```
    ///
    /// Each step keeps its own callbacks; the chain has only the ones added to it (it does not
    /// take ``OperationBase/shared``, which the steps already ran). A failing step stops the
    /// chain with its error; cancelling the chain cancels the step that is running.
    /// - Parameter next: Makes the next step from this one's value; it may throw to stop.
    /// - Returns: An operation whose value is the last step's.
    public func then<Next: Sendable, NextFailure: Error>(
        _ next: @escaping @Sendable (Output) async throws -> StatefulOperation<Next, NextFailure>
    ) -> StatefulOperation<Next, any Error> {
        StatefulOperation<Next, any Error>(base: .none) { [self] in
            let value = try await self.runAsStep()
            return try await next(value).runAsStep()
        }
    }

    /// A new operation that runs this one and stops with ``OperationError/validationFailed(_:)``
    /// unless `isValid` accepts its value: a validator that ends a chain.
    /// - Parameters:
    ///   - reason: What was expected, for the error message.
    ///   - isValid: Decides whether the chain goes on.
    public func validate(
        _ reason: String = "the validator refused it", _ isValid: @escaping @Sendable (Output) -> Bool
    ) -> StatefulOperation<Output, any Error> {
        StatefulOperation<Output, any Error>(base: .none) { [self] in
            let value = try await self.runAsStep()
            guard isValid(value) else { throw OperationError.validationFailed(reason) }
            return value
        }
    }

    /// Runs this operation as a step of another: starts it if nobody did, cancels it with the
    /// enclosing task, and turns its outcome into a value or an error.
    func runAsStep() async throws -> Output {
        startIfIdle(isolation: nil)
        await withTaskCancellationHandler {
            await lifecycle.waitUntilFinished()
        } onCancel: {
            self.cancel()
        }
        switch finishedOutcome {
        case .succeeded(let value): return value
        case .failed(let error): throw error
        case .cancelled: throw CancellationError()
        }
    }
}
