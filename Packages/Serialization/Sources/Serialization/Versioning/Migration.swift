/// One step that rewrites a model's raw tree from an older version to a newer one.
///
/// ```swift
/// static let migrations = [
///     Migration(from: 1) { try $0.rename("name", to: "title") },
///     Migration(from: 2) { $0["founded"] = .int(1990) },
/// ]
/// ```
///
/// A step leads from ``from`` to ``to`` when given, otherwise to the next step's `from` in the
/// model's list, or to the model's current version for the last step.
public struct Migration: Sendable {
    /// The version this step reads.
    public let from: ModelVersion
    /// The version this step produces, when it is not simply the next step's `from`.
    public let to: ModelVersion?
    /// Rewrites the tree of one model value (not the whole file).
    public let body: @Sendable (inout KeyValue) throws -> Void

    /// A step from `from` to the next step (or the current version).
    public init(from: ModelVersion, _ body: @escaping @Sendable (inout KeyValue) throws -> Void) {
        self.from = from
        self.to = nil
        self.body = body
    }

    /// A step from `from` to `to`.
    public init(from: ModelVersion, to: ModelVersion, _ body: @escaping @Sendable (inout KeyValue) throws -> Void) {
        self.from = from
        self.to = to
        self.body = body
    }
}
