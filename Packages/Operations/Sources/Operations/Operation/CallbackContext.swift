/// Where an operation's lifecycle callbacks run.
public enum CallbackContext: Sendable {
    /// On the main actor: the default, so callbacks may update the UI.
    case mainActor
    /// On the caller's context: the actor that called ``StatefulOperation/start(isolation:)`` or
    /// ``OperationRunner/add(_:after:exclusiveIn:isolation:)-(_,_,String...,_)``, or, from
    /// nonisolated code, the operation's own task. No hop to the main actor.
    case caller
}

/// One registered callback and the context it runs on.
enum Callback<Argument: Sendable>: Sendable {
    case main(@MainActor @Sendable (Argument) -> Void)
    case caller(@Sendable (Argument) -> Void)

    init(_ context: CallbackContext, _ body: @escaping @Sendable (Argument) -> Void) {
        switch context {
        case .mainActor: self = .main(body)
        case .caller: self = .caller(body)
        }
    }

    var runsOnCaller: Bool {
        if case .caller = self { return true }
        return false
    }

    /// A callback on the same context that adapts its argument first.
    func pulledBack<Other: Sendable>(_ transform: @escaping @Sendable (Other) -> Argument) -> Callback<Other> {
        switch self {
        case .main(let body): .main { body(transform($0)) }
        case .caller(let body): .caller { body(transform($0)) }
        }
    }
}

extension Array {
    /// Runs each callback in order, each on its context; consecutive main-actor callbacks share one hop.
    func run<Argument: Sendable>(
        with argument: Argument, isolation: isolated (any Actor)? = #isolation
    ) async where Element == Callback<Argument> {
        var index = startIndex
        while index < endIndex {
            switch self[index] {
            case .caller(let body):
                body(argument)
                index += 1
            case .main:
                var bodies: [@MainActor @Sendable (Argument) -> Void] = []
                while index < endIndex, case .main(let body) = self[index] {
                    bodies.append(body)
                    index += 1
                }
                await MainActor.run { [bodies] in
                    for body in bodies { body(argument) }
                }
            }
        }
    }
}
