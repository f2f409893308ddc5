import _KitSupport

/// Computes the changes between consecutive versions of a design, and the generated steps and
/// hooks of each current entity.
///
/// Entities and properties are matched across versions the way Core Data's inferred mapping
/// matches them: by name, or by renaming identifier (a newer element whose identifier names an
/// older element, or both carrying the same identifier). Only stored properties count:
/// inherited ones included, transient ones not.
struct MigrationPlanner {
    /// The resolved model of each version, oldest first.
    let models: [ResolvedModel]
    /// Each version's name, oldest first.
    let names: [String]
    /// The position (from 0) of the oldest version whose data is still stored, when the design
    /// states one: no step is planned from a version before it.
    var oldestStored: Int? = nil

    /// What the current entity `entity` needs: its steps, oldest first, from the first version it
    /// has stored data in.
    struct EntityMigrations {
        struct Step {
            var from: Int
            var to: Int
            var changes: [ModelChange]
        }
        var steps: [Step] = []
        var hooks: [ModelChange] { steps.flatMap(\.changes).filter { $0.hook != nil } }
    }

    /// How a newer entity continues an older one.
    private enum Origin {
        case same(ResolvedEntity)
        case renamed(ResolvedEntity)
        case split(ResolvedEntity)
        case added
    }

    /// The plan and each current struct entity's migrations, by entity name.
    func plan() -> (plan: MigrationPlan, entities: [String: EntityMigrations]) {
        let count = models.count
        // origins[k][name]: how entity `name` of version k+1 (0-based index k + 1) continues version k.
        var origins: [[String: Origin]] = []
        for index in 0..<max(count - 1, 0) {
            origins.append(match(old: structs(models[index]), new: structs(models[index + 1])))
        }
        // The current name each (version, entity name) survives as, for hook names.
        var survivor: [Int: [String: ResolvedEntity]] = [:]
        var migrations: [String: EntityMigrations] = [:]
        guard let current = models.last else { return (MigrationPlan(versions: names, steps: []), [:]) }
        for entity in structs(current) {
            var name = entity.name
            survivor[count - 1, default: [:]][name] = entity
            migrations[entity.name] = EntityMigrations()
            var index = count - 1
            while index > 0 {
                switch origins[index - 1][name] {
                case .same(let old)?, .renamed(let old)?:
                    name = old.name
                    survivor[index - 1, default: [:]][name] = entity
                    index -= 1
                default:
                    index = 0
                }
            }
        }
        var steps: [MigrationStep] = []
        let first = oldestStored ?? 0
        for index in first..<max(count - 1, first) {
            let old = structs(models[index])
            let new = structs(models[index + 1])
            let enums = Self.enumChanges(old: models[index], new: models[index + 1])
            var changes: [ModelChange] = enums.keys.sorted().flatMap { enums[$0]?.changes ?? [] }
            var byEntity: [String: [ModelChange]] = [:]
            let continued = Set(
                origins[index].values.compactMap { origin -> String? in
                    switch origin {
                    case .same(let entity), .renamed(let entity): entity.name
                    default: nil
                    }
                })
            for entity in new {
                let owner = survivor[index + 1]?[entity.name]
                let hookPrefix = owner.map { "migrate_\($0.fileStem)_" }
                let suffix = "_v\(index + 1)_to_v\(index + 2)"
                var entityChanges: [ModelChange] = []
                switch origins[index][entity.name] ?? .added {
                case .added:
                    changes.append(
                        ModelChange(kind: .entityAdded, entity: entity.name, summary: "\(entity.name) added"))
                    continue
                case .split(let source):
                    var change = ModelChange(
                        kind: .entitySplit, entity: source.name,
                        summary: "\(entity.name) split from \(source.name)")
                    if let sourceOwner = survivor[index + 1]?[source.name] {
                        let hook = "migrate_\(sourceOwner.fileStem)_split_\(entity.fileStem)\(suffix)"
                        change.hook = hook
                        change.summary += " (hook \(hook))"
                        change.phase = 3
                        change.edits = [".run { tree in try \(sourceOwner.typeName).\(hook)(&tree) }"]
                        byEntity[source.name, default: []].append(change)
                    }
                    changes.append(change)
                    continue
                case .renamed(let previous):
                    entityChanges.append(
                        ModelChange(
                            kind: .entityRenamed, entity: entity.name,
                            summary: "\(previous.name) renamed to \(entity.name)"))
                    entityChanges += propertyChanges(
                        from: previous, to: entity, renames: origins[index], enums: enums, hookPrefix: hookPrefix,
                        suffix: suffix, owner: owner)
                case .same(let previous):
                    entityChanges += propertyChanges(
                        from: previous, to: entity, renames: origins[index], enums: enums, hookPrefix: hookPrefix,
                        suffix: suffix, owner: owner)
                }
                changes += entityChanges
                byEntity[entity.name, default: []] += entityChanges
            }
            for entity in old where !continued.contains(entity.name) {
                changes.append(
                    ModelChange(kind: .entityRemoved, entity: entity.name, summary: "\(entity.name) removed"))
            }
            // An entity has a step only where it already had stored data in the older version.
            let existed = Set((survivor[index] ?? [:]).values.map(\.name))
            for (name, owner) in survivor[index + 1] ?? [:] where existed.contains(owner.name) {
                migrations[owner.name]?.steps.append(
                    .init(
                        from: index + 1, to: index + 2,
                        changes: (byEntity[name] ?? []).enumerated().sorted {
                            ($0.element.phase, $0.offset) < ($1.element.phase, $1.offset)
                        }.map(\.element)))
            }
            steps.append(
                MigrationStep(
                    from: index + 1, to: index + 2, fromName: names[index], toName: names[index + 1], changes: changes))
        }
        return (
            MigrationPlan(versions: names, steps: steps, oldestStoredVersion: oldestStored.map { $0 + 1 }), migrations
        )
    }

    private func structs(_ model: ResolvedModel) -> [ResolvedEntity] {
        model.entities.filter { $0.kind == .structure }
    }

    /// How each newer entity continues the older ones.
    private func match(old: [ResolvedEntity], new: [ResolvedEntity]) -> [String: Origin] {
        var result: [String: Origin] = [:]
        var taken: Set<String> = []
        // Same names first: an element that keeps its name continues itself, even when another
        // claims it by renaming identifier (that one is split off it).
        for entity in new {
            if let same = old.first(where: { $0.name == entity.name }) {
                result[entity.name] = .same(same)
                taken.insert(same.name)
            }
        }
        for entity in new where result[entity.name] == nil {
            guard let previous = old.first(where: { Self.continues(entity, $0) }) else {
                result[entity.name] = .added
                continue
            }
            result[entity.name] = taken.insert(previous.name).inserted ? .renamed(previous) : .split(previous)
        }
        return result
    }

    /// Whether `newer` continues `older` by renaming identifier.
    private static func continues(_ newer: ResolvedEntity, _ older: ResolvedEntity) -> Bool {
        guard let identifier = newer.renamingIdentifier else { return false }
        return identifier == older.name || identifier == older.renamingIdentifier
    }

    private static func continues(_ newer: ResolvedProperty, _ older: ResolvedProperty) -> Bool {
        guard let identifier = newer.renamingIdentifier else { return false }
        return identifier == older.key || identifier == older.renamingIdentifier
    }

    /// How an enum entity changed between two versions: the plan's lines, and what that does
    /// to the values stored by properties that hold it.
    struct EnumChanges {
        /// The changes to its cases, as the plan prints them.
        var changes: [ModelChange] = []
        /// Stored values to rewrite, as Swift `KeyValue` expressions: old → new.
        var replacements: [(from: String, to: String)] = []
        /// Why stored values may no longer decode (a removed case, a changed type): a hook.
        var lossy: [String] = []
    }

    /// The changes of every enum entity that keeps its name from `old` to `new`, by name. (An
    /// enum that is renamed changes the destination of the properties holding it: a hook.)
    static func enumChanges(old: ResolvedModel, new: ResolvedModel) -> [String: EnumChanges] {
        var result: [String: EnumChanges] = [:]
        for entity in new.entities where entity.kind != .structure {
            guard let previous = old.entities.first(where: { $0.name == entity.name && $0.kind != .structure }) else {
                continue
            }
            var diff = EnumChanges()
            let name = entity.name
            guard previous.kind == entity.kind else {
                diff.changes.append(
                    ModelChange(
                        kind: .enumCaseChanged, entity: name,
                        summary: "\(name) changed from \(describe(previous.kind)) to \(describe(entity.kind))"))
                diff.lossy.append("cases are stored another way")
                result[name] = diff
                continue
            }
            var matched: Set<String> = []
            for item in entity.cases {
                let earlier =
                    previous.cases.first(where: { $0.key == item.key && !matched.contains($0.key) })
                    ?? previous.cases.first(where: {
                        guard let identifier = item.renamingIdentifier, !matched.contains($0.key) else { return false }
                        return identifier == $0.key || identifier == $0.renamingIdentifier
                    })
                guard let earlier else {
                    diff.changes.append(
                        ModelChange(kind: .enumCaseAdded, entity: name, summary: "\(name).\(item.key) added"))
                    continue
                }
                matched.insert(earlier.key)
                if earlier.key != item.key {
                    diff.changes.append(
                        ModelChange(
                            kind: .enumCaseRenamed, entity: name,
                            summary: "\(name).\(earlier.key) renamed to \(item.key)"))
                    // An associated-value case is stored under its name.
                    if entity.kind == .associatedEnum { diff.lossy.append("case \(earlier.key) was renamed") }
                }
                if let from = earlier.rawValue, let to = item.rawValue, from != to {
                    diff.changes.append(
                        ModelChange(
                            kind: .enumCaseChanged, entity: name,
                            summary: "\(name).\(item.key) stored as \(SwiftNames.commentText(to)) instead of "
                                + SwiftNames.commentText(from)))
                    let wrap = { (literal: String) in
                        literal.hasPrefix("\"") ? ".string(\(literal))" : ".int(\(literal))"
                    }
                    diff.replacements.append((wrap(from), wrap(to)))
                }
                if earlier.associatedType != item.associatedType {
                    diff.changes.append(
                        ModelChange(
                            kind: .enumCaseChanged, entity: name,
                            summary: "\(name).\(item.key) holds \(item.associatedType ?? "nothing") instead of "
                                + (earlier.associatedType ?? "nothing")))
                    diff.lossy.append("case \(item.key) holds another type")
                }
            }
            for earlier in previous.cases where !matched.contains(earlier.key) {
                diff.changes.append(
                    ModelChange(kind: .enumCaseRemoved, entity: name, summary: "\(name).\(earlier.key) removed"))
                diff.lossy.append("case \(earlier.key) was removed")
            }
            if !diff.changes.isEmpty { result[name] = diff }
        }
        return result
    }

    private static func describe(_ kind: ResolvedEntity.Kind) -> String {
        switch kind {
        case .structure: "a struct"
        case .rawEnum(let rawType): "an enum of \(rawType) raw values"
        case .associatedEnum: "an enum with associated values"
        }
    }

    private func propertyChanges(
        from old: ResolvedEntity, to new: ResolvedEntity, renames: [String: Origin], enums: [String: EnumChanges],
        hookPrefix: String?, suffix: String, owner: ResolvedEntity?
    ) -> [ModelChange] {
        let before = old.properties.filter { !$0.isTransient }
        let after = new.properties.filter { !$0.isTransient }
        var changes: [ModelChange] = []
        var matched: Set<String> = []
        func hook(for property: ResolvedProperty, _ change: inout ModelChange) {
            guard let hookPrefix, let owner else { return }
            let name = hookPrefix + property.swiftName.filter { $0 != "`" } + suffix
            change.hook = name
            change.summary += " (hook \(name))"
            change.phase = 3
            change.edits = [".run { tree in try \(owner.typeName).\(name)(&tree) }"]
        }
        // A value the stored data may lack: the design's default fills it in a generated step;
        // without one only the user can say what it is (a hook), and `missing` says so.
        func fillDefault(of property: ResolvedProperty, else missing: String, _ change: inout ModelChange) {
            if let value = property.defaultValue {
                change.summary += " (default \(SwiftNames.commentText(value)))"
                change.phase = 2
                change.edits = [Self.fill(SwiftSource.literal(property.key), value, of: property)]
            } else {
                change.summary += missing
                hook(for: property, &change)
            }
        }
        for property in after {
            let place = "\(new.name).\(property.key)"
            let key = SwiftSource.literal(property.key)
            let previous =
                before.first(where: { $0.key == property.key && !matched.contains($0.key) })
                ?? before.first(where: { Self.continues(property, $0) && !matched.contains($0.key) })
            guard let previous else {
                var change = ModelChange(
                    kind: .propertyAdded, entity: new.name, property: property.key, summary: "\(place) added")
                if property.isOptional {
                    change.summary += " (optional)"
                } else {
                    fillDefault(of: property, else: ", required without a default", &change)
                }
                changes.append(change)
                continue
            }
            matched.insert(previous.key)
            if previous.key != property.key {
                var change = ModelChange(
                    kind: .propertyRenamed, entity: new.name, property: property.key,
                    summary: "\(new.name).\(previous.key) renamed to \(property.key)")
                let oldKey = SwiftSource.literal(previous.key)
                change.edits = [".rename(\(oldKey), to: \(key))"]
                changes.append(change)
            }
            changes += typeChanges(from: previous, to: property, entity: new.name, renames: renames, hook: hook)
            if let info = property.relationship, info.destination == previous.relationship?.destination,
                let held = enums[info.destination], !held.lossy.isEmpty || !held.replacements.isEmpty
            {
                var change = ModelChange(
                    kind: .enumValuesChanged, entity: new.name, property: property.key,
                    summary: "\(place) holds \(info.destination)")
                if held.lossy.isEmpty {
                    change.summary += ": stored values rewritten"
                    change.phase = 1
                    let pairs = held.replacements.map { "\($0.from): \($0.to)" }.joined(separator: ", ")
                    change.edits = [".replaceValues(\(key), [\(pairs)])"]
                } else {
                    change.summary += ", whose \(held.lossy.joined(separator: ", "))"
                    hook(for: property, &change)
                }
                changes.append(change)
            }
            if previous.isOptional && !property.isOptional && property.relationship?.isToMany != true {
                var change = ModelChange(
                    kind: .madeRequired, entity: new.name, property: property.key, summary: "\(place) made required")
                fillDefault(of: property, else: " without a default", &change)
                changes.append(change)
            } else if !previous.isOptional && property.isOptional && property.relationship?.isToMany != true {
                changes.append(
                    ModelChange(
                        kind: .madeOptional, entity: new.name, property: property.key, summary: "\(place) made optional"
                    ))
            }
        }
        for property in before where !matched.contains(property.key) {
            var change = ModelChange(
                kind: .propertyRemoved, entity: new.name, property: property.key,
                summary: "\(new.name).\(property.key) removed")
            change.phase = 4
            change.edits = [".remove(\(SwiftSource.literal(property.key)))"]
            changes.append(change)
        }
        return changes
    }

    /// Number types each type widens to without losing a value.
    static let widenings: [AttributeType: Set<AttributeType>] = [
        .integer16: [.integer32, .integer64, .double],
        .integer32: [.integer64, .double],
        .float: [.double],
    ]

    private func typeChanges(
        from old: ResolvedProperty, to new: ResolvedProperty, entity: String, renames: [String: Origin],
        hook: (ResolvedProperty, inout ModelChange) -> Void
    ) -> [ModelChange] {
        let place = "\(entity).\(new.key)"
        let key = SwiftSource.literal(new.key)
        switch (old.relationship, new.relationship) {
        case (nil, nil):
            // The same Swift type encodes the same way, whatever the storage type says.
            guard let from = old.attributeType, let to = new.attributeType, old.baseType != new.baseType else {
                return []
            }
            if from != to, Self.widenings[from]?.contains(to) == true, old.baseType == from.swiftType,
                new.baseType == to.swiftType
            {
                var change = ModelChange(
                    kind: .typeWidened, entity: entity, property: new.key,
                    summary: "\(place) widened from \(from.rawValue) to \(to.rawValue)")
                if to == .double && from != .float {
                    change.phase = 1
                    change.edits = [".integerToDouble(\(key))"]
                }
                return [change]
            }
            let describe = { (type: AttributeType, swift: String) in
                type == .transformable || swift != type.swiftType ? "\(type.rawValue) (\(swift))" : type.rawValue
            }
            var change = ModelChange(
                kind: .typeChanged, entity: entity, property: new.key,
                summary: "\(place) changed from \(describe(from, old.baseType)) to \(describe(to, new.baseType))")
            hook(new, &change)
            return [change]
        case (let before?, let after?):
            let destination: String
            switch renames[after.destination] {
            case .renamed(let previous)?: destination = previous.name
            default: destination = after.destination
            }
            if destination != before.destination || before.isReference != after.isReference
                || (before.isToMany && !after.isToMany)
            {
                var change = ModelChange(
                    kind: .relationshipChanged, entity: entity, property: new.key,
                    summary: "\(place) changed from \(Self.describe(before)) to \(Self.describe(after))")
                hook(new, &change)
                return [change]
            }
            if !before.isToMany && after.isToMany {
                var change = ModelChange(
                    kind: .becameToMany, entity: entity, property: new.key, summary: "\(place) became to-many")
                change.phase = 1
                change.edits = [".wrapInArray(\(key))"]
                return [change]
            }
            return []
        default:
            var change = ModelChange(
                kind: .relationshipChanged, entity: entity, property: new.key,
                summary: "\(place) changed from \(old.relationship == nil ? "an attribute" : "a relationship") to "
                    + (new.relationship == nil ? "an attribute" : "a relationship"))
            hook(new, &change)
            return [change]
        }
    }

    private static func describe(_ info: ResolvedProperty.RelationshipInfo) -> String {
        "\(info.isToMany ? "to-many" : "to-one") \(info.destination)\(info.isReference ? " identifiers" : "")"
    }

    /// The edit that fills `key` (a Swift literal) with a property's default when it is absent
    /// or null: a plain `.fill` when the default is a literal tree, else code that encodes it
    /// (a static list of edits cannot hold a `try`).
    static func fill(_ key: String, _ value: String, of property: ResolvedProperty) -> String {
        let tree = keyValue(value, of: property)
        guard tree.hasPrefix("try ") else { return ".fill(\(key), \(tree))" }
        return ".run { tree in if tree[\(key)]?.isNull ?? true { tree[\(key)] = \(tree) } }"
    }

    /// A Swift expression of type `KeyValue` for a property's default (a Swift expression of
    /// its type): a literal case where the tree form is plain, else the default encoded.
    static func keyValue(_ value: String, of property: ResolvedProperty) -> String {
        if value == "[]" { return ".array([])" }
        let plain = property.baseType == property.attributeType?.swiftType
        switch property.attributeType {
        case .integer16?, .integer32?, .integer64?:
            if plain, Int(value) != nil { return ".int(\(value))" }
        case .double?:
            if plain, Double(value) != nil { return ".double(\(value))" }
        case .boolean?:
            if plain, value == "true" || value == "false" { return ".bool(\(value))" }
        case .string?:
            if plain, value.hasPrefix("\"") { return ".string(\(value))" }
        default:
            break
        }
        return "try KeyValue(encoding: (\(value)) as \(property.baseType))"
    }
}
