/// Which entities conform to Storage's `QueryableRecord`, and with which fields.
///
/// An entity is queryable when its `boiler.queryable` says so, or when it does not say and
/// ``GenerationOptions/queryable`` is on. `QueryableRecord` refines `Identifiable`, so a
/// queryable entity needs a stored (not transient) attribute whose Swift name is `id`: asked for
/// by the entity itself, its absence is a ``ModelGenError``; asked for by the option, which
/// covers every entity, the entity is left out with a warning (value entities embedded in
/// others, such as an address, have no identity).
struct QueryableConformance {
    /// One `QueryField(\.swiftName, "name")`.
    struct Field: Equatable {
        var swiftName: String
        var name: String
    }

    /// The Swift types Storage's `QueryableValue` covers, as the resolver spells them; each may
    /// also be optional.
    static let queryableTypes: Set<String> = [
        "String", "Bool", "Int", "Int16", "Int32", "Int64", "UInt32", "Double", "Float", "Date", "UUID",
    ]

    /// The longest field name Storage accepts.
    static let maximumNameLength = 48

    /// The fields of `entity` when it is queryable, nil when it is not.
    /// - Throws: ``ModelGenError/invalidUserInfo(file:entity:property:key:reason:)`` when the
    ///   entity's own `boiler.queryable` asks for what it cannot be.
    static func fields(
        of entity: ResolvedEntity, options: GenerationOptions, file: String, warnings: inout [String]
    ) throws -> [Field]? {
        let explicit = entity.queryable == true
        guard entity.queryable ?? options.queryable else { return nil }
        func refuse(_ reason: String) throws -> [Field]? {
            if explicit {
                throw ModelGenError.invalidUserInfo(
                    file: file, entity: entity.name, property: nil, key: "boiler.queryable", reason: reason)
            }
            warnings.append("Entity '\(SwiftNames.commentText(entity.name))' is not made queryable: \(reason).")
            return nil
        }
        guard entity.kind == .structure else {
            // The option covers every entity; enums are values, never records, so say nothing.
            return explicit ? try refuse("an enum entity is not a record") : nil
        }
        let identifier = entity.properties.first { $0.swiftName == "id" }
        guard let identifier, identifier.relationship == nil, !identifier.isTransient else {
            return try refuse(
                "QueryableRecord needs Identifiable, and the entity has no stored attribute named 'id'")
        }
        var fields: [Field] = []
        var taken: Set<String> = []
        for property in entity.properties where !property.isTransient && queryableTypes.contains(property.baseType) {
            if let relationship = property.relationship, relationship.isToMany || !relationship.isReference {
                continue
            }
            // The design's name is the coding key; Storage wants ASCII letters, digits and _.
            let plain = property.swiftName.filter { $0 != "`" }
            guard let name = [property.key, plain].first(where: isFieldName) else {
                warnings.append(
                    "Attribute '\(SwiftNames.commentText(entity.name)).\(SwiftNames.commentText(property.key))' "
                        + "is not queryable: a query field name is 1 to \(maximumNameLength) ASCII letters, digits or _."
                )
                continue
            }
            guard taken.insert(name.lowercased()).inserted else {
                warnings.append(
                    "Attribute '\(SwiftNames.commentText(entity.name)).\(SwiftNames.commentText(property.key))' "
                        + "is not queryable: another field of the entity is named '\(name)' apart from case.")
                continue
            }
            fields.append(Field(swiftName: property.swiftName, name: name))
        }
        return fields
    }

    /// Whether Storage accepts `name` as a field name.
    static func isFieldName(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.count <= maximumNameLength
            && name.unicodeScalars.allSatisfy {
                $0 == "_" || ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0)
            }
    }
}
