import Serialization

/// Brings a saved tree up to the current version of a `Versioned` model before it is merged
/// over defaults (merging first would mix keys of two versions).
///
/// Serialization's decoder migrates as it decodes; ``Persisted`` needs the migrated tree itself,
/// so the chain is walked here with the model's public `Versioned` description.
enum VersionedTree {
    /// `tree` migrated to `Model`'s current version; unchanged for non-versioned models.
    static func migrated<Model>(_ tree: KeyValue, as model: Model.Type) throws -> KeyValue {
        guard let versioned = model as? any Versioned.Type else { return tree }
        return try migrate(tree, versioned)
    }

    private static func migrate<Model: Versioned>(_ tree: KeyValue, _ model: Model.Type) throws -> KeyValue {
        guard case .object = tree else { return tree }
        let current = Model.version.modelVersion
        let key = Model.versionKey
        let migrations = Model.migrations
        var version: ModelVersion
        if let stored = tree[key], !stored.isNull, let parsed = ModelVersion(stored) {
            version = parsed
        } else {
            switch Model.missingVersion {
            case .oldest: version = migrations.first?.from ?? current
            case .current: version = current
            case .assume(let assumed): version = assumed
            // Let the decoder report the missing version in its own words.
            case .reject: return tree
            }
        }
        if version == current { return tree }
        if version > current {
            throw SerializationError.newerVersion(found: version, current: current, SerializationError.Location())
        }
        var tree = tree
        var steps = 0
        while version != current, steps <= migrations.count {
            guard let position = migrations.firstIndex(where: { $0.from == version }) else {
                throw SerializationError.noMigrationPath(from: version, to: current, SerializationError.Location())
            }
            let step = migrations[position]
            let following = migrations.index(after: position)
            let next = step.to ?? (following < migrations.endIndex ? migrations[following].from : current)
            do {
                try step.body(&tree)
            } catch {
                throw SerializationError.migrationFailed(
                    step: "\(step.from) → \(next) of \(Model.self)", underlying: error, SerializationError.Location())
            }
            guard next > version else {
                throw SerializationError.noMigrationPath(from: version, to: current, SerializationError.Location())
            }
            version = next
            steps += 1
        }
        tree[key] = current.keyValue
        return tree
    }
}
