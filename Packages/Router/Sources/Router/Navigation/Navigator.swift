/// How a destination route's destination is shown.
public enum Presentation: String, Sendable, CaseIterable {
    /// On top of the current stack.
    case push
    /// Modally, over the current screen.
    case present
    /// As the new root: the stack is replaced by this destination alone.
    case start
}

/// What an app supplies so that ``RouteTable/navigate(to:data:using:)`` can show destinations:
/// a UIKit navigation controller's coordinator, a SwiftUI model, or a ``RouteStack``.
///
/// Methods are called on the thread that called `navigate`.
public protocol Navigator {
    /// Shows `destination` on top of the current stack.
    func push(_ destination: any Sendable) throws
    /// Shows `destination` modally.
    func present(_ destination: any Sendable) throws
    /// Makes `destination` the new root.
    func start(_ destination: any Sendable) throws
}
