/// The canonical description of what shapes an entity's stored form, and its SHA-256.
///
/// Core Data's inputs: the name, the parent, abstractness, the version hash modifiers, and each
/// persistent property (transient ones excluded) — attribute names, storage types, Swift types
/// and optionality; relationship names, destinations, cardinality, order and whether they store
/// identifiers. Properties are sorted by name, so reordering them in the editor keeps the hash.
enum ModelVersionHash {
    static func description(of entity: ResolvedEntity, design: [String: EntityDesign]) -> String {
        let declared = design[entity.name]
        var lines = [
            "entity \(entity.name)",
            "parent \(entity.parent ?? "-")",
            "abstract \(entity.isAbstract ? 1 : 0)",
            "modifier \(declared?.versionHashModifier ?? "-")",
        ]
        switch entity.kind {
        case .structure: lines.append("kind struct")
        case .rawEnum(let rawType): lines.append("kind enum \(rawType)")
        case .associatedEnum: lines.append("kind enum")
        }
        let attributes = lineage(of: declared, in: design).flatMap(\.attributes)
        let relationships = lineage(of: declared, in: design).flatMap(\.relationships)
        var propertyLines: [String] = []
        for property in entity.properties where !property.isTransient {
            if let info = property.relationship {
                let modifier = relationships.first { $0.name == property.key }?.versionHashModifier ?? "-"
                propertyLines.append(
                    "relationship \(property.key) -> \(info.destination) many=\(info.isToMany ? 1 : 0) "
                        + "ordered=\(info.isOrdered ? 1 : 0) optional=\(property.isOptional ? 1 : 0) "
                        + "reference=\(info.isReference ? 1 : 0) modifier=\(modifier)")
            } else {
                let attribute = attributes.first { $0.name == property.key }
                propertyLines.append(
                    "attribute \(property.key) \(attribute?.type.rawValue ?? "-") swift=\(property.baseType) "
                        + "optional=\(property.isOptional ? 1 : 0) modifier=\(attribute?.versionHashModifier ?? "-")")
            }
        }
        for enumCase in entity.cases {
            propertyLines.append(
                "case \(enumCase.key) raw=\(enumCase.rawValue ?? "-") value=\(enumCase.associatedType ?? "-")")
        }
        return (lines + propertyLines.sorted()).joined(separator: "\n") + "\n"
    }

    static func hash(of entity: ResolvedEntity, design: [String: EntityDesign]) -> String {
        SHA256Digest.hex(description(of: entity, design: design))
    }

    private static func lineage(of entity: EntityDesign?, in design: [String: EntityDesign]) -> [EntityDesign] {
        var chain: [EntityDesign] = []
        var current = entity
        var seen: Set<String> = []
        while let next = current, seen.insert(next.name).inserted {
            chain.insert(next, at: 0)
            current = next.parent.flatMap { design[$0] }
        }
        return chain
    }
}
