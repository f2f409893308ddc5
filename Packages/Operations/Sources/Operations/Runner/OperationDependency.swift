/// What a dependent does when its dependency does not succeed.
public enum DependencyPolicy: Sendable, Hashable {
    /// The dependent runs only if the dependency succeeded; otherwise it is cancelled.
    case requireSuccess
    /// The dependent runs once the dependency finished, however it ended.
    case ignoreFailure
}

/// An edge from an operation to one it must wait for, with its failure policy.
public struct OperationDependency: Sendable {
    /// The operation to wait for.
    public var operation: any RunnableOperation
    /// What happens to the dependent when `operation` fails or is cancelled.
    public var policy: DependencyPolicy

    /// Creates an edge to `operation` with `policy`.
    public init(_ operation: any RunnableOperation, policy: DependencyPolicy = .requireSuccess) {
        self.operation = operation
        self.policy = policy
    }
}

/// Anything that names a dependency: an operation (which must succeed) or an explicit edge.
public protocol OperationDependencyConvertible: Sendable {
    /// The dependency edge this value stands for.
    var dependency: OperationDependency { get }
}

extension OperationDependency: OperationDependencyConvertible {
    /// The edge itself.
    public var dependency: OperationDependency { self }
}

extension RunnableOperation {
    /// An edge to this operation that requires it to succeed: what passing the operation means.
    public var dependency: OperationDependency { OperationDependency(self, policy: .requireSuccess) }

    /// An edge to this operation that lets the dependent run even if it fails or is cancelled.
    public var ignoringFailure: OperationDependency { OperationDependency(self, policy: .ignoreFailure) }
}
