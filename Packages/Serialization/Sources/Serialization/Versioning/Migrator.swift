/// Runs a ``Versioned`` model's migrations on its raw tree.
enum Migrator {
    /// The tree of a `Model` value brought to the current version; `path` locates it in errors.
    ///
    /// With `stampingAlways` false (the decoder's use), a tree that stored no version and that no
    /// step changed comes back as it was, without the current version added: the decoder only
    /// reads it, and adding the key would copy every such nested value (an entity whose
    /// versions never changed it, in an array of thousands). A stored version is always
    /// replaced, so a value never reads as older than its data.
    static func migrate<Model: Versioned>(
        _ tree: KeyValue, to model: Model.Type, at node: PathNode, stampingAlways: Bool = true
    ) throws(SerializationError) -> KeyValue {
        let current = Model.version.modelVersion
        let key = Model.versionKey
        // Built only when an error needs them: most values migrate without one.
        var path: KeyValuePath { node.path }
        var location: SerializationError.Location { SerializationError.Location(keyPath: path) }
        guard case .object = tree else {
            throw .typeMismatch(expected: "\(Model.self) (an object)", found: tree.kindName, location)
        }
        let migrations = Model.migrations
        var version: ModelVersion
        let storedVersion = tree[key]
        if let stored = storedVersion, !stored.isNull {
            guard let parsed = ModelVersion(stored) else {
                throw .typeMismatch(
                    expected: "a model version (integer or string)", found: stored.kindName,
                    SerializationError.Location(keyPath: path.appending(.key(key))))
            }
            version = parsed
        } else {
            switch Model.missingVersion {
            case .oldest: version = migrations.first?.from ?? current
            case .current: version = current
            case .assume(let assumed): version = assumed
            case .reject: throw .missingVersion(key: key, location)
            }
        }
        if version == current { return tree }
        if version > current { throw .newerVersion(found: version, current: current, location) }
        var tree = tree
        // The first step that changes the tree copies the stored object (the decoder's tree
        // still holds it): it is copied then, once, with room for every key the edits and the
        // version stamp may add, so no step grows it again. A step with no edits (an entity the
        // version left alone) changes nothing, so a chain of only those copies nothing.
        var copied = false
        func copyOnce(_ tree: inout KeyValue) {
            guard !copied, case .object(var object) = tree else { return }
            copied = true
            tree = .null
            object.entries.reserveCapacity(
                object.entries.count + 1 + migrations.reduce(0) { $0 + Migration.Edit.additions($1.edits ?? []) })
            tree = .object(object)
        }
        var steps = 0
        while version != current {
            guard let position = migrations.firstIndex(where: { $0.from == version }) else {
                throw .noMigrationPath(from: version, to: current, location)
            }
            let step = migrations[position]
            let next =
                step.to
                ?? (migrations.index(after: position) < migrations.endIndex
                    ? migrations[migrations.index(after: position)].from : current)
            func name() -> String { "\(step.from) → \(next) of \(Model.self)" }
            do {
                // Edits are applied here rather than through `body`: the same result, without
                // a closure call per step.
                if let edits = step.edits {
                    if !edits.isEmpty || !Self.isObject(tree) {
                        copyOnce(&tree)
                        try Migration.Edit.apply(edits, to: &tree)
                    }
                } else {
                    copyOnce(&tree)
                    try step.body(&tree)
                }
            } catch let error as SerializationError {
                throw .migrationFailed(
                    step: name(), underlying: error,
                    error.location.keyPath.components.isEmpty
                        ? location : error.nested(under: path).location)
            } catch {
                throw .migrationFailed(step: name(), underlying: error, location)
            }
            guard next > version else { throw .noMigrationPath(from: version, to: current, location) }
            version = next
            steps += 1
            if steps > migrations.count { throw .noMigrationPath(from: version, to: current, location) }
        }
        if stampingAlways || copied || storedVersion != nil { tree[key] = current.keyValue }
        return tree
    }

    /// Whether `tree` is an object (what a step of edits needs).
    @inline(__always)
    private static func isObject(_ tree: KeyValue) -> Bool {
        if case .object = tree { true } else { false }
    }
}
