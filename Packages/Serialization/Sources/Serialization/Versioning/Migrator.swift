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
        let oldest = Model.oldestStoredVersion?.modelVersion
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
            case .oldest: version = oldest ?? migrations.first?.from ?? current
            case .current: version = current
            case .assume(let assumed): version = assumed
            case .reject: throw .missingVersion(key: key, location)
            }
        }
        if version == current { return tree }
        if version > current { throw .newerVersion(found: version, current: current, location) }
        if let oldest, version < oldest { throw .olderThanSupported(found: version, oldest: oldest, location) }
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

    /// How decoding reads values of one ``Versioned`` type: the type's version facts, and per
    /// stored version the outcome of its chain of steps. Built once per type in a decode.
    final class DecodingPlan {
        let current: ModelVersion
        let key: String
        let missingVersion: MissingVersionPolicy
        let migrations: [Migration]
        let oldest: ModelVersion?
        /// ``Migrator/migrate(_:to:at:stampingAlways:)`` for the type, without stamping always.
        let general: (KeyValue, PathNode) throws(SerializationError) -> KeyValue
        var outcomes: [ModelVersion: Outcome] = [:]
        /// The last outcome asked for: a document's values mostly share one stored version.
        var last: (version: ModelVersion, outcome: Outcome)?

        init<Model: Versioned>(_ model: Model.Type) {
            current = Model.version.modelVersion
            key = Model.versionKey
            missingVersion = Model.missingVersion
            migrations = Model.migrations
            oldest = Model.oldestStoredVersion?.modelVersion
            general = { (tree, node) throws(SerializationError) in
                try Migrator.migrate(tree, to: model, at: node, stampingAlways: false)
            }
        }

        /// What the decoder reads for a stored value of the type: the tree, and the view to read
        /// its object through when edit steps change it (nil: read the tree as it is).
        ///
        /// The answer is the one ``Migrator/migrate(_:to:at:stampingAlways:)`` (without stamping
        /// always) gives, read key by key: a chain of edit steps is resolved once per stored
        /// version into a ``MigrationView``, so a thousand stored objects are not each copied
        /// and rewritten. Anything else (closure steps, `run` edits, every error) goes through
        /// the migrator itself.
        func decoding(_ tree: KeyValue, at node: PathNode) throws(SerializationError) -> (KeyValue, MigrationView?) {
            guard case .object(let object) = tree else { return (try general(tree, node), nil) }
            let storedVersion = object[key]
            let version: ModelVersion
            if let stored = storedVersion, !stored.isNull {
                guard let parsed = ModelVersion(stored) else { return (try general(tree, node), nil) }
                version = parsed
            } else {
                switch missingVersion {
                case .oldest: version = oldest ?? migrations.first?.from ?? current
                case .current: version = current
                case .assume(let assumed): version = assumed
                case .reject: return (try general(tree, node), nil)
                }
            }
            if version == current { return (tree, nil) }
            // Newer, or older than the oldest read: the migrator throws the error.
            guard version < current, oldest.map({ version >= $0 }) ?? true else {
                return (try general(tree, node), nil)
            }
            switch outcome(from: version) {
            case .general: return (try general(tree, node), nil)
            case .unchanged(let stamped): return (tree, storedVersion == nil ? nil : stamped)
            case .view(let view): return (tree, view)
            }
        }

        /// What the chain from one stored version does to a stored object.
        enum Outcome {
            /// Only ``migrate(_:to:at:stampingAlways:)`` can tell (closure steps, `run` edits,
            /// or no path, whose error it throws).
            case general
            /// No step changes the object: it is read as stored, or through `stamped` (the
            /// version replaced) when it stored a version.
            case unchanged(stamped: MigrationView)
            /// Edit steps change it: it is read through this view, which stamps the version.
            case view(MigrationView)
        }

        /// The outcome of the steps from `version` (older than the current one) to the current
        /// version, walked as ``migrate(_:to:at:stampingAlways:)`` walks them.
        func outcome(from start: ModelVersion) -> Outcome {
            if let last, last.version == start { return last.outcome }
            if let known = outcomes[start] {
                last = (start, known)
                return known
            }
            var edits: [Migration.Edit] = []
            var changes = false
            var version = start
            var steps = 0
            var outcome = Outcome.general
            walk: while true {
                guard version != current else {
                    let stamp = (key: key, value: current.keyValue)
                    if !changes, let stamped = MigrationView(edits: [], stamp: stamp) {
                        outcome = .unchanged(stamped: stamped)
                    } else if let view = MigrationView(edits: edits, stamp: stamp) {
                        outcome = .view(view)
                    }
                    break walk
                }
                guard let position = migrations.firstIndex(where: { $0.from == version }),
                    let stepEdits = migrations[position].edits
                else { break walk }
                let next =
                    migrations[position].to
                    ?? (migrations.index(after: position) < migrations.endIndex
                        ? migrations[migrations.index(after: position)].from : current)
                guard next > version else { break walk }
                edits += stepEdits
                changes = changes || !stepEdits.isEmpty
                version = next
                steps += 1
                if steps > migrations.count { break walk }
            }
            outcomes[start] = outcome
            last = (start, outcome)
            return outcome
        }
    }

    /// Whether `tree` is an object (what a step of edits needs).
    @inline(__always)
    private static func isObject(_ tree: KeyValue) -> Bool {
        if case .object = tree { true } else { false }
    }
}
