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
    /// The step as a list of edits, when it was made from one (`init(from:to:edits:)`):
    /// decoding then applies them to the stored object directly, which is cheaper than calling
    /// ``body``, and has the same result.
    public let edits: [Edit]?

    /// A step from `from` to the next step (or the current version).
    public init(from: ModelVersion, _ body: @escaping @Sendable (inout KeyValue) throws -> Void) {
        self.from = from
        self.to = nil
        self.body = body
        self.edits = nil
    }

    /// A step from `from` to `to`.
    public init(from: ModelVersion, to: ModelVersion, _ body: @escaping @Sendable (inout KeyValue) throws -> Void) {
        self.from = from
        self.to = to
        self.body = body
        self.edits = nil
    }

    /// A step from `from` to `to` stated as edits, applied in order: what ModelGen generates.
    ///
    /// ```swift
    /// Migration(from: 1, to: 2, edits: [
    ///     .rename("color", to: "hexColor"),
    ///     .fill("softDeleted", .bool(false)),
    ///     .remove("legacy"),
    /// ])
    /// ```
    ///
    /// ``body`` applies the same edits, so code that runs steps itself sees the same result.
    public init(from: ModelVersion, to: ModelVersion, edits: [Edit]) {
        self.from = from
        self.to = to
        self.edits = edits
        self.body = { tree in try Edit.apply(edits, to: &tree) }
    }
}

extension Migration {
    /// One change a ``Migration`` makes to the stored object of a model value.
    public enum Edit: Sendable {
        /// Moves the value under the first key to the second, replacing any value there; nothing
        /// when the first key is absent.
        case rename(String, to: String)
        /// Sets the key to the value when it is absent or null.
        case fill(String, KeyValue)
        /// Turns an integer under the key into the same number as a double (a widened
        /// attribute); anything else is left as it is.
        case integerToDouble(String)
        /// Wraps a single value under the key in an array (a to-one relationship that became
        /// to-many): absent or null becomes `[]`, an array stays as it is.
        case wrapInArray(String)
        /// Replaces the value under the key, or each element of an array there, that the map
        /// has an entry for (an enum case whose stored raw value changed); anything else is left
        /// as it is.
        case replaceValues(String, [KeyValue: KeyValue])
        /// Removes the key.
        case remove(String)
        /// Runs code on the whole tree: a hook, or any change the other edits cannot state.
        /// Errors it throws fail the step, as a step's ``Migration/body`` does.
        case run(@Sendable (inout KeyValue) throws -> Void)

        /// Applies `edits` in order to `tree`, in place.
        /// - Throws: ``SerializationError/typeMismatch(expected:found:_:)`` when `tree` is not an
        ///   object; what a `run` edit throws.
        static func apply(_ edits: [Edit], to tree: inout KeyValue) throws {
            guard case .object(var object) = tree else {
                throw SerializationError.typeMismatch(expected: "an object", found: tree.kindName, .init())
            }
            tree = .null
            defer { tree = .object(object) }
            try apply(edits, to: &object)
        }

        /// Applies `edits` in order to `object`, in place.
        static func apply(_ edits: [Edit], to object: inout KeyValueObject) throws {
            for edit in edits {
                switch edit {
                case .rename(let key, let newKey):
                    object.renameKey(key, to: newKey)
                case .fill(let key, let value):
                    if let position = object.position(of: key) {
                        if object.entries[position].value.isNull { object.entries[position].value = value }
                    } else {
                        object[key] = value
                    }
                case .integerToDouble(let key):
                    if let position = object.position(of: key), case .int(let number) = object.entries[position].value {
                        object.entries[position].value = .double(Double(number))
                    }
                case .wrapInArray(let key):
                    if let position = object.position(of: key) {
                        switch object.entries[position].value {
                        case .array: break
                        case .null: object.entries[position].value = .array([])
                        case let one: object.entries[position].value = .array([one])
                        }
                    } else {
                        object[key] = .array([])
                    }
                case .replaceValues(let key, let map):
                    guard let position = object.position(of: key) else { break }
                    switch object.entries[position].value {
                    case .array(var elements):
                        object.entries[position].value = .null
                        for index in elements.indices {
                            if let replacement = map[elements[index]] { elements[index] = replacement }
                        }
                        object.entries[position].value = .array(elements)
                    case let value:
                        if let replacement = map[value] { object.entries[position].value = replacement }
                    }
                case .remove(let key):
                    object[key] = nil
                case .run(let body):
                    var tree = KeyValue.object(object)
                    object = KeyValueObject()
                    defer {
                        if case .object(let changed) = tree { object = changed }
                    }
                    try body(&tree)
                    guard case .object = tree else {
                        throw SerializationError.typeMismatch(
                            expected: "an object after the step", found: tree.kindName, .init())
                    }
                }
            }
        }

        /// How many keys the edits may add at most: room to reserve before applying them.
        static func additions(_ edits: [Edit]) -> Int {
            edits.reduce(0) { count, edit in
                switch edit {
                case .fill, .wrapInArray, .rename: count + 1
                default: count
                }
            }
        }
    }
}
