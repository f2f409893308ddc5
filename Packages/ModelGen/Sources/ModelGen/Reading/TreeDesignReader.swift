/// Reads a YAML or JSON design (see "Designing a model") into a ``ModelDesign``.
///
/// Shorthand keys (`swiftType`, `immutable`, `reference`…) become the `boiler.*` user-info
/// keys the XML would carry, so both formats resolve the same way.
struct TreeDesignReader {
    let file: String
    var warnings: [String] = []
    /// The version the design's `oldestStoredVersion` names, once ``readHistory(_:name:)`` has read it.
    var oldestStoredVersion: String?

    static let entityKeys: Set<String> = [
        "name", "parent", "abstract", "versionHashModifier", "userInfo", "attributes", "relationships",
        "enum", "rawType", "typeName", "imports", "ignore", "conformances", "queryable", "renamedFrom",
    ]
    static let attributeKeys: Set<String> = [
        "name", "type", "optional", "transient", "default", "customClassName", "versionHashModifier", "userInfo",
        "swiftType", "immutable", "rawValue", "ignore", "identifier", "defaultExpression", "renamedFrom",
    ]
    static let relationshipKeys: Set<String> = [
        "name", "destination", "inverse", "toMany", "ordered", "optional", "transient", "versionHashModifier",
        "userInfo", "reference", "immutable", "ignore", "renamedFrom",
    ]
    /// Shorthand keys and the user-info key each stands for.
    static let shorthands: [String: String] = [
        "enum": "boiler.enum", "rawType": "boiler.rawType", "typeName": "boiler.typeName",
        "imports": "boiler.import", "ignore": "boiler.ignore", "conformances": "boiler.conformances",
        "swiftType": "boiler.type", "immutable": "boiler.immutable", "rawValue": "boiler.rawValue",
        "identifier": "boiler.identifier", "defaultExpression": "boiler.default", "reference": "boiler.reference",
        "queryable": "boiler.queryable",
    ]

    /// The current version of the design: the last of its `versions`, or the design itself.
    mutating func read(_ tree: DesignTree, name defaultName: String) throws -> ModelDesign {
        let history = try readHistory(tree, name: defaultName)
        return history[history.count - 1].design
    }

    /// Every version of the design, oldest first: the `versions` list in its order, or the one
    /// design (named after the file) when there is no list.
    mutating func readHistory(
        _ tree: DesignTree, name defaultName: String
    ) throws -> [(name: String, design: ModelDesign)] {
        guard case .map(let root) = tree else {
            throw ModelGenError.notAModel(file: file, reason: "the top level is not a map with an 'entities' list")
        }
        for entry in root where !["entities", "name", "versions", "oldestStoredVersion"].contains(entry.key) {
            warnings.append("Skipped unknown key '\(entry.key)' at the top level of '\(file)'.")
        }
        let name = root.first(where: { $0.key == "name" })?.value.string ?? defaultName
        let entitiesTree = root.first(where: { $0.key == "entities" })?.value
        let oldestTree = root.first(where: { $0.key == "oldestStoredVersion" })?.value
        guard let versionsTree = root.first(where: { $0.key == "versions" })?.value else {
            if oldestTree != nil {
                throw ModelGenError.malformedDesign(
                    file: file, path: "oldestStoredVersion",
                    reason: "a design without 'versions' has no older versions to leave out")
            }
            guard let entitiesTree else {
                throw ModelGenError.notAModel(file: file, reason: "there is no 'entities' key")
            }
            return [(name, try design(entitiesTree, name: name, at: "entities"))]
        }
        if entitiesTree != nil {
            throw ModelGenError.malformedDesign(
                file: file, path: "entities",
                reason: "a design with 'versions' lists its entities in each version, not at the top level")
        }
        var history: [(name: String, design: ModelDesign)] = []
        var seen: Set<String> = []
        let topLevelWarnings = warnings
        for (index, item) in try list(versionsTree, at: "versions").enumerated() {
            let path = "versions[\(index)]"
            warnings = topLevelWarnings
            guard case .map(let entries) = item else {
                throw ModelGenError.malformedDesign(
                    file: file, path: path, reason: "expected a map with 'name' and 'entities'")
            }
            for entry in entries where !["name", "entities"].contains(entry.key) {
                warnings.append("Skipped unknown key '\(entry.key)' at '\(path)' in '\(file)'.")
            }
            guard let versionName = entries.first(where: { $0.key == "name" })?.value.string, !versionName.isEmpty
            else {
                throw ModelGenError.malformedDesign(file: file, path: "\(path).name", reason: "missing")
            }
            guard seen.insert(versionName).inserted else {
                throw ModelGenError.malformedDesign(
                    file: file, path: "\(path).name", reason: "the version '\(versionName)' is listed twice")
            }
            let entities = entries.first(where: { $0.key == "entities" })?.value ?? .null
            history.append((versionName, try design(entities, name: name, at: "\(path).entities")))
        }
        guard !history.isEmpty else {
            throw ModelGenError.malformedDesign(file: file, path: "versions", reason: "the list is empty")
        }
        if let oldestTree {
            guard let oldest = oldestTree.string, seen.contains(oldest) else {
                let shown = oldestTree.string.map { "'\(SwiftNames.commentText($0))'" } ?? "it"
                throw ModelGenError.malformedDesign(
                    file: file, path: "oldestStoredVersion",
                    reason: "\(shown) is not the name of a version under 'versions'")
            }
            oldestStoredVersion = oldest
        }
        return history
    }

    private mutating func design(_ entitiesTree: DesignTree, name: String, at path: String) throws -> ModelDesign {
        var design = ModelDesign(name: name)
        for (index, item) in try list(entitiesTree, at: path).enumerated() {
            design.entities.append(try entity(item, at: "\(path)[\(index)]"))
        }
        design.warnings = warnings
        return design
    }

    private func list(_ tree: DesignTree, at path: String) throws -> [DesignTree] {
        switch tree {
        case .list(let items): return items
        case .null: return []
        default: throw ModelGenError.malformedDesign(file: file, path: path, reason: "expected a list")
        }
    }

    private mutating func fields(
        _ tree: DesignTree, at path: String, allowed: Set<String>
    ) throws -> [String: DesignTree] {
        guard case .map(let entries) = tree else {
            throw ModelGenError.malformedDesign(file: file, path: path, reason: "expected a map")
        }
        var result: [String: DesignTree] = [:]
        for entry in entries {
            guard allowed.contains(entry.key) else {
                warnings.append("Skipped unknown key '\(entry.key)' at '\(path)' in '\(file)'.")
                continue
            }
            result[entry.key] = entry.value
        }
        return result
    }

    private func text(_ fields: [String: DesignTree], _ key: String, at path: String) throws -> String? {
        guard let value = fields[key] else { return nil }
        switch value {
        case .null: return nil
        case .scalar(let string): return string
        case .list(let items) where key == "imports" || key == "conformances":
            return try items.map {
                guard let string = $0.string else {
                    throw ModelGenError.malformedDesign(file: file, path: "\(path).\(key)", reason: "expected names")
                }
                return string
            }.joined(separator: ",")
        default:
            throw ModelGenError.malformedDesign(file: file, path: "\(path).\(key)", reason: "expected a single value")
        }
    }

    private func required(_ fields: [String: DesignTree], _ key: String, at path: String) throws -> String {
        guard let value = try text(fields, key, at: path), !value.isEmpty else {
            throw ModelGenError.malformedDesign(file: file, path: "\(path).\(key)", reason: "missing")
        }
        return value
    }

    private func flag(_ fields: [String: DesignTree], _ key: String, at path: String) throws -> Bool? {
        guard let value = try text(fields, key, at: path) else { return nil }
        switch value.lowercased() {
        case "true", "yes", "1", "on": return true
        case "false", "no", "0", "off": return false
        default:
            throw ModelGenError.malformedDesign(
                file: file, path: "\(path).\(key)", reason: "expected true or false, found '\(value)'")
        }
    }

    private func userInfo(_ fields: [String: DesignTree], at path: String) throws -> [String: String] {
        var info: [String: String] = [:]
        if let tree = fields["userInfo"] {
            guard case .map(let entries) = tree else {
                throw ModelGenError.malformedDesign(file: file, path: "\(path).userInfo", reason: "expected a map")
            }
            for entry in entries { info[entry.key] = entry.value.string ?? "" }
        }
        for (short, key) in Self.shorthands {
            if let value = try text(fields, short, at: path) { info[key] = value }
        }
        return info
    }

    private mutating func entity(_ tree: DesignTree, at path: String) throws -> EntityDesign {
        let fields = try fields(tree, at: path, allowed: Self.entityKeys)
        var entity = EntityDesign(
            name: try required(fields, "name", at: path), parent: try text(fields, "parent", at: path),
            isAbstract: try flag(fields, "abstract", at: path) ?? false,
            versionHashModifier: try text(fields, "versionHashModifier", at: path),
            userInfo: try userInfo(fields, at: path), renamingIdentifier: try text(fields, "renamedFrom", at: path))
        for (index, item) in try list(fields["attributes"] ?? .null, at: "\(path).attributes").enumerated() {
            entity.attributes.append(try attribute(item, entity: entity.name, at: "\(path).attributes[\(index)]"))
        }
        for (index, item) in try list(fields["relationships"] ?? .null, at: "\(path).relationships").enumerated() {
            entity.relationships.append(try relationship(item, at: "\(path).relationships[\(index)]"))
        }
        return entity
    }

    private mutating func attribute(_ tree: DesignTree, entity: String, at path: String) throws -> AttributeDesign {
        let fields = try fields(tree, at: path, allowed: Self.attributeKeys)
        let name = try required(fields, "name", at: path)
        let spelling = try text(fields, "type", at: path) ?? ""
        guard let type = AttributeType(spelling: spelling) else {
            throw ModelGenError.unknownAttributeType(file: file, entity: entity, attribute: name, type: spelling)
        }
        return AttributeDesign(
            name: name, type: type, isOptional: try flag(fields, "optional", at: path) ?? false,
            isTransient: try flag(fields, "transient", at: path) ?? false,
            defaultValue: try text(fields, "default", at: path),
            customClassName: try text(fields, "customClassName", at: path),
            versionHashModifier: try text(fields, "versionHashModifier", at: path),
            userInfo: try userInfo(fields, at: path), renamingIdentifier: try text(fields, "renamedFrom", at: path))
    }

    private mutating func relationship(_ tree: DesignTree, at path: String) throws -> RelationshipDesign {
        let fields = try fields(tree, at: path, allowed: Self.relationshipKeys)
        return RelationshipDesign(
            name: try required(fields, "name", at: path), destination: try required(fields, "destination", at: path),
            inverse: try text(fields, "inverse", at: path), isToMany: try flag(fields, "toMany", at: path) ?? false,
            isOrdered: try flag(fields, "ordered", at: path) ?? false,
            isOptional: try flag(fields, "optional", at: path) ?? false,
            isTransient: try flag(fields, "transient", at: path) ?? false,
            versionHashModifier: try text(fields, "versionHashModifier", at: path),
            userInfo: try userInfo(fields, at: path), renamingIdentifier: try text(fields, "renamedFrom", at: path))
    }
}
