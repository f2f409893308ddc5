import Foundation

/// Checks a ``ModelDesign`` and translates it into Swift terms.
///
/// Validation happens here, before anything is rendered or written: duplicate names,
/// unknown parents and destinations, inverses that do not point back, names that cannot
/// become identifiers, value loops no struct could hold.
struct ModelResolver {
    let design: ModelDesign
    let file: String
    var warnings: [String] = []
    /// Entities kept (not ignored), by design name.
    var entities: [String: EntityDesign] = [:]
    var typeNames: [String: String] = [:]

    init(design: ModelDesign, file: String) {
        self.design = design
        self.file = file
        self.warnings = design.warnings
    }

    static func resolve(_ design: ModelDesign, file: String) throws -> ResolvedModel {
        var resolver = ModelResolver(design: design, file: file)
        return try resolver.resolve()
    }

    mutating func resolve() throws -> ResolvedModel {
        try collectEntities()
        let kept = design.entities.filter { entities[$0.name] != nil }
        for entity in kept { try checkParent(of: entity) }
        var resolved: [ResolvedEntity] = []
        for entity in kept {
            resolved.append(try resolveEntity(entity))
        }
        try checkInverses(kept)
        try breakValueCycles(&resolved)
        for index in resolved.indices {
            resolved[index].modelVersionHash = ModelVersionHash.hash(of: resolved[index], design: entities)
        }
        resolved.sort { $0.fileStem < $1.fileStem }
        var seenWarnings: Set<String> = []
        let uniqueWarnings = warnings.filter { seenWarnings.insert($0).inserted }
        return ResolvedModel(name: design.name, file: file, entities: resolved, warnings: uniqueWarnings)
    }

    private mutating func collectEntities() throws {
        var stems: [String: String] = [:]
        var seen: Set<String> = []
        for entity in design.entities {
            guard seen.insert(entity.name).inserted else {
                throw ModelGenError.duplicateEntity(file: file, entity: entity.name)
            }
            if entity.userInfo.isOn(.ignore) {
                warnings.append("Entity '\(entity.name)' is marked ignore; no files are generated for it.")
                continue
            }
            let wanted = entity.userInfo[option: .typeName] ?? entity.name
            guard let stem = SwiftNames.identifier(for: wanted, upper: true),
                !SwiftNames.forbiddenTypeNames.contains(stem)
            else {
                throw ModelGenError.invalidName(file: file, entity: entity.name, property: nil, name: wanted)
            }
            if let other = stems[stem.lowercased()] {
                // File names must differ on case-insensitive file systems too.
                throw ModelGenError.duplicateEntity(file: file, entity: "\(other)' and '\(entity.name)")
            }
            stems[stem.lowercased()] = entity.name
            entities[entity.name] = entity
            typeNames[entity.name] = stem
            warnings += entity.userInfo.unknownKeyWarnings(at: "entity '\(entity.name)'")
        }
    }

    private func checkParent(of entity: EntityDesign) throws {
        var seen: Set<String> = [entity.name]
        var current = entity
        while let parent = current.parent, !parent.isEmpty {
            guard let next = entities[parent], !seen.contains(parent) else {
                throw ModelGenError.invalidParent(file: file, entity: entity.name, parent: parent)
            }
            seen.insert(parent)
            current = next
        }
    }

    /// The entity and its ancestors, root first.
    func lineage(of entity: EntityDesign) -> [EntityDesign] {
        var chain = [entity]
        var current = entity
        while let parent = current.parent, let next = entities[parent] {
            chain.insert(next, at: 0)
            current = next
        }
        return chain
    }

    func isEnum(_ entity: EntityDesign) -> Bool {
        entity.userInfo.isOn(.enumeration)
    }

    private mutating func resolveEntity(_ entity: EntityDesign) throws -> ResolvedEntity {
        let stem = typeNames[entity.name] ?? entity.name
        var imports = Set(try moduleNames(entity.userInfo, key: .imports, entity: entity.name, property: nil))
        var result = ResolvedEntity(
            name: entity.name, typeName: SwiftNames.escaped(stem), fileStem: stem, kind: .structure,
            parent: entity.parent, isAbstract: entity.isAbstract, properties: [], cases: [], imports: [],
            conformances: try moduleNames(entity.userInfo, key: .conformances, entity: entity.name, property: nil),
            modelVersionHash: "", renamingIdentifier: entity.renamingIdentifier)
        if let value = entity.userInfo[option: .queryable] {
            switch value.lowercased() {
            case "yes", "true", "1", "on": result.queryable = true
            case "no", "false", "0", "off": result.queryable = false
            default:
                throw ModelGenError.invalidUserInfo(
                    file: file, entity: entity.name, property: nil, key: "boiler.queryable",
                    reason: "'\(SwiftNames.commentText(value))' is not YES or NO")
            }
        }
        if isEnum(entity) {
            try resolveEnum(entity, into: &result, imports: &imports)
        } else {
            var swiftNames: Set<String> = []
            for ancestor in lineage(of: entity) {
                let inherited = ancestor.name == entity.name ? nil : ancestor.name
                for attribute in ancestor.attributes {
                    guard let property = try resolveAttribute(attribute, of: ancestor, imports: &imports) else {
                        continue
                    }
                    try add(property, inheritedFrom: inherited, to: &result, names: &swiftNames, entity: entity.name)
                }
                for relationship in ancestor.relationships {
                    guard let property = try resolveRelationship(relationship, of: ancestor) else { continue }
                    try add(property, inheritedFrom: inherited, to: &result, names: &swiftNames, entity: entity.name)
                }
            }
        }
        result.imports = imports.sorted()
        try checkMembersShadowNoType(result)
        return result
    }

    /// Refuses a property or case named like a type its entity's code mentions: inside the
    /// type, `String.self` or `[Label].self` would find the member instead of the type.
    private func checkMembersShadowNoType(_ entity: ResolvedEntity) throws {
        let types = entity.properties.map(\.baseType) + entity.cases.compactMap(\.associatedType)
        var mentioned: Set<String> = []
        for type in types {
            var word = String.UnicodeScalarView()
            for scalar in type.unicodeScalars + [" "] {
                if SwiftNames.isBody(scalar) {
                    word.append(scalar)
                } else if !word.isEmpty {
                    mentioned.insert(String(word))
                    word = String.UnicodeScalarView()
                }
            }
        }
        let members = entity.properties.map { ($0.key, $0.swiftName) } + entity.cases.map { ($0.key, $0.swiftName) }
        for (key, swiftName) in members where mentioned.contains(swiftName) {
            throw ModelGenError.invalidName(file: file, entity: entity.name, property: key, name: key)
        }
    }

    private func add(
        _ property: ResolvedProperty, inheritedFrom: String?, to entity: inout ResolvedEntity,
        names: inout Set<String>, entity name: String
    ) throws {
        guard !names.contains(property.swiftName), !entity.properties.contains(where: { $0.key == property.key })
        else {
            throw ModelGenError.duplicateProperty(file: file, entity: name, property: property.key)
        }
        names.insert(property.swiftName)
        var property = property
        property.inheritedFrom = inheritedFrom
        entity.properties.append(property)
    }

    func splitList(_ value: String?) -> [String] {
        (value ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    func memberName(_ name: String, entity: String) throws -> String {
        // A member named like a type the generated code names would shadow it there.
        guard let identifier = SwiftNames.identifier(for: name, upper: false),
            !SwiftNames.forbiddenMemberNames.contains(identifier),
            !SwiftNames.forbiddenTypeNames.contains(identifier), !typeNames.values.contains(identifier)
        else {
            throw ModelGenError.invalidName(file: file, entity: entity, property: name, name: name)
        }
        return SwiftNames.escaped(identifier)
    }
}
