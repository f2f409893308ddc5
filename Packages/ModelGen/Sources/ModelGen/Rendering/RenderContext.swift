import _KitSupport

/// Builds the values templates see (documented in "Writing templates").
///
/// Everything is plain dictionaries, arrays, strings and booleans so a Mustache template can
/// reach every field by name; no logic is left to the template but choosing what to print.
///
/// Text from the design that templates print as prose (names, keys, file names, summaries)
/// goes through ``SwiftNames/commentText(_:)``, so it cannot end a comment and become code;
/// values meant for code (`keyLiteral`, `swiftName`, `type`…) are literals or checked names.
struct RenderContext {
    let model: ResolvedModel
    let options: GenerationOptions
    let designFileName: String
    /// The current version's number (its position in the design's history, from 1) and name.
    var designVersion = 1
    var versionName = ""
    /// The number of the oldest version whose data is still stored, when the design states one.
    var oldestStoredVersion: Int?

    var accessPrefix: String {
        options.accessLevel.isEmpty ? "" : options.accessLevel + " "
    }

    /// The values for `entity`'s templates; `queryableFields` is nil when the entity is not queryable.
    func context(
        for entity: ResolvedEntity, queryableFields: [QueryableConformance.Field]? = nil,
        migrations: MigrationPlanner.EntityMigrations? = nil
    ) -> [String: Any] {
        var imports = Set(entity.imports).union(options.imports)
        imports.insert("Foundation")
        // Only queryable entities import Storage: other generated code needs Foundation alone.
        if queryableFields != nil { imports.insert("Storage") }
        var conformances = ["Codable", "Sendable", "Hashable"]
        let required = queryableFields == nil ? [] : ["Identifiable"]
        for extra in options.conformances + entity.conformances + required where !conformances.contains(extra) {
            conformances.append(extra)
        }
        let fields = queryableFields ?? []
        let fieldContexts = fields.enumerated().map { offset, field -> [String: Any] in
            [
                "swiftName": field.swiftName, "name": field.name, "nameLiteral": SwiftSource.literal(field.name),
                "isLast": offset == fields.count - 1,
            ]
        }
        let properties = entity.properties.enumerated().map { offset, property in
            propertyContext(property, isLast: offset == entity.properties.count - 1)
        }
        let coded = entity.properties.filter { !$0.isTransient }
        let codedContexts = coded.enumerated().map { offset, property in
            propertyContext(property, isLast: offset == coded.count - 1)
        }
        let cases = entity.cases.enumerated().map { offset, enumCase -> [String: Any] in
            [
                "key": SwiftNames.commentText(enumCase.key), "keyLiteral": SwiftSource.literal(enumCase.key),
                "swiftName": enumCase.swiftName,
                "rawValue": enumCase.rawValue ?? "", "hasRawValue": enumCase.rawValue != nil,
                "associatedType": enumCase.associatedType ?? "", "hasAssociatedType": enumCase.associatedType != nil,
                "isLast": offset == entity.cases.count - 1,
            ]
        }
        var rawType = ""
        if case .rawEnum(let type) = entity.kind { rawType = type }
        var entityContext: [String: Any] = [
            "name": SwiftNames.commentText(entity.name), "typeName": entity.typeName, "fileStem": entity.fileStem,
            "isStruct": entity.kind == .structure, "isEnum": entity.kind != .structure,
            "isRawEnum": !rawType.isEmpty, "rawType": rawType,
            "isAssociatedEnum": entity.kind == .associatedEnum,
            "isAbstract": entity.isAbstract, "hasParent": entity.parent != nil,
            "parent": SwiftNames.commentText(entity.parent ?? ""),
            "modelVersionHash": entity.modelVersionHash,
            "properties": properties, "hasProperties": !properties.isEmpty,
            "codedProperties": codedContexts, "hasCodedProperties": !coded.isEmpty,
            "hasTransientProperties": coded.count != entity.properties.count,
            "cases": cases, "hasCases": !cases.isEmpty,
            "conformances": conformances.joined(separator: ", "),
            "isQueryable": queryableFields != nil, "queryableFields": fieldContexts,
            "hasQueryableFields": !fields.isEmpty,
        ]
        entityContext.merge(migrationContext(entity, migrations ?? .init())) { first, _ in first }
        return [
            "entity": entityContext,
            "model": [
                "name": SwiftNames.commentText(model.name), "file": SwiftNames.commentText(designFileName),
                "designVersion": designVersion, "versionName": SwiftNames.commentText(versionName),
                "oldestStoredVersion": oldestStoredVersion ?? 0, "hasOldestStoredVersion": oldestStoredVersion != nil,
            ] as [String: Any],
            "imports": imports.sorted().map { ["name": $0] },
            "access": accessPrefix,
            "accessLevel": options.accessLevel,
            "vars": options.templateVariables,
            "generator": "ModelGen",
        ]
    }

    /// The values the `migrations` template reads: the entity's generated steps and hooks.
    private func migrationContext(
        _ entity: ResolvedEntity, _ migrations: MigrationPlanner.EntityMigrations
    ) -> [String: Any] {
        let steps = migrations.steps.map { step -> [String: Any] in
            let lines = step.changes.flatMap(\.edits)
            let summaries = step.changes.isEmpty ? ["no stored change"] : step.changes.map(\.summary)
            return [
                "from": step.from, "to": step.to,
                "summary": Self.wrap("v\(step.from) → v\(step.to): ", summaries).map { ["line": $0] },
                "lines": lines.map { ["line": $0] }, "isEmpty": lines.isEmpty,
            ]
        }
        let hooks = migrations.hooks.map { change -> [String: Any] in
            ["name": change.hook ?? "", "summary": SwiftNames.commentText(change.summary)]
        }
        return [
            "migrationSteps": steps, "hasMigrationSteps": !steps.isEmpty,
            "hooks": hooks, "hasHooks": !hooks.isEmpty, "hooksProtocol": "\(entity.fileStem)MigrationHooks",
        ]
    }

    /// `parts` joined by "; " after `lead`, as comment lines of at most about 100 characters
    /// (a part longer than that stands alone on its line).
    static func wrap(_ lead: String, _ parts: [String]) -> [String] {
        var lines: [String] = []
        var line = lead
        for (offset, part) in parts.enumerated() {
            let text = SwiftNames.commentText(part) + (offset == parts.count - 1 ? "" : ";")
            if line.count + text.count > 100, line != lead, !line.isEmpty {
                lines.append(line)
                line = "  " + text
            } else {
                line += (line == lead ? "" : " ") + text
            }
        }
        lines.append(line)
        return lines
    }

    private func propertyContext(_ property: ResolvedProperty, isLast: Bool) -> [String: Any] {
        let info = property.relationship
        let initDefault = property.defaultValue ?? (property.isOptional ? "nil" : nil)
        let decodeExpression: String
        let key = "forKey: .\(property.swiftName)"
        if let fallback = property.defaultValue {
            decodeExpression = "try container.decodeIfPresent(\(property.baseType).self, \(key)) ?? \(fallback)"
        } else if property.isOptional {
            decodeExpression = "try container.decodeIfPresent(\(property.baseType).self, \(key))"
        } else {
            decodeExpression = "try container.decode(\(property.baseType).self, \(key))"
        }
        var summary: String
        if let info {
            let what = info.isReference ? "identifier" : "value"
            summary =
                info.isToMany
                ? "The \(info.isOrdered ? "ordered " : "")\(what)s of the '\(property.key)' relationship to \(info.destination)."
                : "The \(what) of the '\(property.key)' relationship to \(info.destination)."
        } else {
            summary = "The '\(property.key)' attribute."
        }
        if property.isTransient { summary += " Transient: not encoded." }
        if let inherited = property.inheritedFrom { summary += " Inherited from \(inherited)." }
        summary = SwiftNames.commentText(summary)
        return [
            "key": SwiftNames.commentText(property.key), "keyLiteral": SwiftSource.literal(property.key),
            "swiftName": property.swiftName,
            "type": property.type, "baseType": property.baseType, "isOptional": property.isOptional,
            "isImmutable": property.isImmutable, "keyword": property.isImmutable ? "let" : "var",
            "isTransient": property.isTransient, "hasDefault": property.defaultValue != nil,
            "defaultValue": property.defaultValue ?? "", "hasInitDefault": initDefault != nil,
            "initDefault": initDefault ?? "", "decodeExpression": decodeExpression,
            "isAttribute": info == nil, "isRelationship": info != nil, "isToMany": info?.isToMany ?? false,
            "isOrdered": info?.isOrdered ?? false, "isReference": info?.isReference ?? false,
            "destination": SwiftNames.commentText(info?.destination ?? ""),
            "inverse": SwiftNames.commentText(info?.inverse ?? ""),
            "isInherited": property.inheritedFrom != nil,
            "inheritedFrom": SwiftNames.commentText(property.inheritedFrom ?? ""),
            "summary": summary, "isLast": isLast,
        ]
    }
}
