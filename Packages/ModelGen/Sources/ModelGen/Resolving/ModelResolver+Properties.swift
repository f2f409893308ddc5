import Foundation
import _KitSupport

extension ModelResolver {
    /// Objective-C class names a transformable may carry, and the Swift value type to use instead.
    static let bridgedTypes: [String: String] = [
        "NSString": "String", "NSDecimalNumber": "Decimal", "NSData": "Data", "NSDate": "Date", "NSURL": "URL",
        "NSUUID": "UUID",
    ]

    mutating func resolveAttribute(
        _ attribute: AttributeDesign, of owner: EntityDesign, imports: inout Set<String>
    ) throws -> ResolvedProperty? {
        let place = "'\(owner.name).\(attribute.name)'"
        if attribute.userInfo.isOn(.ignore) {
            warnings.append("Attribute \(place) is marked ignore; skipped.")
            return nil
        }
        warnings += attribute.userInfo.unknownKeyWarnings(at: "attribute \(place)")
        imports.formUnion(
            try moduleNames(attribute.userInfo, key: .imports, entity: owner.name, property: attribute.name))
        let (baseType, overridden) = try swiftType(of: attribute, owner: owner, place: place)
        let defaultValue = try self.defaultValue(
            of: attribute, owner: owner, type: baseType, overridden: overridden, place: place)
        if attribute.isTransient && defaultValue == nil && !attribute.isOptional {
            warnings.append("Transient attribute \(place) is neither optional nor defaulted; skipped.")
            return nil
        }
        return ResolvedProperty(
            key: attribute.name, swiftName: try memberName(attribute.name, entity: owner.name), baseType: baseType,
            isOptional: attribute.isOptional,
            isImmutable: attribute.userInfo.isOn(.immutable) && !attribute.isTransient,
            isTransient: attribute.isTransient, defaultValue: defaultValue, attributeType: attribute.type,
            renamingIdentifier: attribute.renamingIdentifier)
    }

    /// The Swift type of an attribute and whether the design overrode it.
    private mutating func swiftType(
        of attribute: AttributeDesign, owner: EntityDesign, place: String
    ) throws -> (String, Bool) {
        if let override = try typeOverride(of: attribute, owner: owner) {
            return (override, override != attribute.type.swiftType)
        }
        if let type = attribute.type.swiftType { return (type, false) }
        if let custom = attribute.customClassName, !custom.isEmpty {
            if let bridged = Self.bridgedTypes[custom] { return (bridged, true) }
            if !custom.hasPrefix("NS") {
                try checkType(custom, key: "customClassName", entity: owner.name, property: attribute.name)
                return (custom, true)
            }
            // Foundation classes such as NSAttributedString are not Codable everywhere.
            warnings.append(
                "Transformable attribute \(place) has the class \(custom), which is not Codable; using Data "
                    + "(set 'boiler.type' to a Codable type).")
            return ("Data", true)
        }
        warnings.append("Transformable attribute \(place) names no type (set 'boiler.type'); using Data.")
        return ("Data", true)
    }

    /// The type `boiler.type` (or an older spelling) gives an attribute, bridged and checked.
    func typeOverride(of attribute: AttributeDesign, owner: EntityDesign) throws -> String? {
        guard let override = attribute.userInfo[option: .type]?.trimmingCharacters(in: .whitespaces),
            !override.isEmpty
        else { return nil }
        if let bridged = Self.bridgedTypes[override] { return bridged }
        try checkType(
            override, key: attribute.userInfo.spelling(of: .type) ?? "boiler.type", entity: owner.name,
            property: attribute.name)
        return override
    }

    /// Refuses a type a design supplies unless it is one type on one line.
    func checkType(_ type: String, key: String, entity: String, property: String?) throws {
        if let problem = SwiftSnippets.typeProblem(type) {
            throw ModelGenError.invalidUserInfo(
                file: file, entity: entity, property: property, key: key,
                reason: "is not a Swift type: '\(SwiftNames.commentText(type))' \(problem)")
        }
    }

    /// The `boiler.default` expression of a property, checked to be one expression on one line.
    func defaultExpression(_ userInfo: [String: String], entity: String, property: String) throws -> String? {
        guard let expression = userInfo[option: .defaultExpression], !expression.isEmpty else { return nil }
        if let problem = SwiftSnippets.expressionProblem(expression) {
            throw ModelGenError.invalidUserInfo(
                file: file, entity: entity, property: property,
                key: userInfo.spelling(of: .defaultExpression) ?? "boiler.default",
                reason: "is not a Swift expression: '\(SwiftNames.commentText(expression))' \(problem)")
        }
        return expression
    }

    /// The module (or protocol) names of a comma-separated list such as `boiler.import`, each
    /// checked to be a name and nothing else.
    func moduleNames(
        _ userInfo: [String: String], key: UserInfoKey, entity: String, property: String?
    ) throws
        -> [String]
    {
        let names = splitList(userInfo[option: key])
        for name in names where !SwiftNames.isQualifiedName(name) {
            throw ModelGenError.invalidUserInfo(
                file: file, entity: entity, property: property, key: userInfo.spelling(of: key) ?? "\(key)",
                reason:
                    "lists '\(SwiftNames.commentText(name))', which is not a \(key == .imports ? "module" : "protocol") name"
            )
        }
        return names
    }

    private mutating func defaultValue(
        of attribute: AttributeDesign, owner: EntityDesign, type: String, overridden: Bool, place: String
    ) throws -> String? {
        if let expression = try defaultExpression(attribute.userInfo, entity: owner.name, property: attribute.name) {
            if attribute.userInfo["boiler.default"] == nil, type == "String", !expression.hasPrefix("\"") {
                return SwiftSource.literal(expression)  // Spot wrote plain text for String values
            }
            return expression
        }
        // Like Spot, an optional attribute starts as nil whatever Core Data's default says.
        guard !attribute.isOptional, !overridden, let text = attribute.defaultValue else { return nil }
        switch attribute.type {
        case .integer16, .integer32, .integer64:
            if let int = Int64(text) { return String(int) }
            if let double = Double(text), double == double.rounded(), abs(double) < 9e18 {
                return String(Int64(double))
            }
        case .double, .float, .decimal:
            if let double = Double(text), double.isFinite {
                return Int64(exactly: double).map { String($0) } ?? "\(double)"
            }
        case .string:
            return SwiftSource.literal(text)
        case .boolean:
            switch text.lowercased() {
            case "yes", "true", "1": return "true"
            case "no", "false", "0": return "false"
            default: break
            }
        default:
            break
        }
        warnings.append("Default value '\(text)' of attribute \(place) cannot be used for \(type); ignored.")
        return nil
    }

    mutating func resolveRelationship(
        _ relationship: RelationshipDesign, of owner: EntityDesign
    ) throws
        -> ResolvedProperty?
    {
        let place = "'\(owner.name).\(relationship.name)'"
        if relationship.userInfo.isOn(.ignore) {
            warnings.append("Relationship \(place) is marked ignore; skipped.")
            return nil
        }
        warnings += relationship.userInfo.unknownKeyWarnings(at: "relationship \(place)")
        guard let destination = entities[relationship.destination] else {
            if design.entities.contains(where: { $0.name == relationship.destination }) {
                warnings.append("Relationship \(place) points to an ignored entity; skipped.")
                return nil
            }
            throw ModelGenError.missingDestination(
                file: file, entity: owner.name, relationship: relationship.name, destination: relationship.destination)
        }
        let mode = relationship.userInfo[option: .reference]?.lowercased()
        if let mode, !["id", "value"].contains(mode) {
            throw ModelGenError.invalidOption(
                option: "boiler.reference on \(place)", reason: "expected 'id' or 'value', found '\(mode)'")
        }
        let isReference = mode == "id" && !isEnum(destination)
        let element =
            isReference ? try identifierType(of: destination) : (typeNames[destination.name] ?? destination.name)
        let baseType = relationship.isToMany ? "[\(element)]" : element
        var defaultValue = try defaultExpression(
            relationship.userInfo, entity: owner.name, property: relationship.name)
        if defaultValue == nil, relationship.isToMany { defaultValue = "[]" }
        if relationship.isTransient && defaultValue == nil && !relationship.isOptional {
            warnings.append("Transient relationship \(place) is neither optional nor defaulted; skipped.")
            return nil
        }
        return ResolvedProperty(
            key: relationship.name, swiftName: try memberName(relationship.name, entity: owner.name),
            baseType: baseType, isOptional: relationship.isOptional && !relationship.isToMany,
            isImmutable: relationship.userInfo.isOn(.immutable) && !relationship.isTransient,
            isTransient: relationship.isTransient, defaultValue: defaultValue,
            relationship: .init(
                destination: destination.name, isToMany: relationship.isToMany, isOrdered: relationship.isOrdered,
                isReference: isReference, inverse: relationship.inverse),
            renamingIdentifier: relationship.renamingIdentifier)
    }

    /// The type of an entity's identifier: its attribute marked `boiler.identifier`, else one
    /// named `id`, `identifier` or `uuid`, else `String`.
    func identifierType(of entity: EntityDesign) throws -> String {
        let attributes = lineage(of: entity).flatMap { owner in owner.attributes.map { (owner, $0) } }
        let chosen =
            attributes.first { $0.1.userInfo.isOn(.identifier) }
            ?? ["id", "identifier", "uuid"].lazy.compactMap { name in attributes.first { $0.1.name == name } }.first
        guard let (owner, attribute) = chosen else { return "String" }
        if let override = try typeOverride(of: attribute, owner: owner) { return override }
        if let type = attribute.type.swiftType { return type }
        guard let custom = attribute.customClassName, !custom.isEmpty else { return "String" }
        try checkType(custom, key: "customClassName", entity: owner.name, property: attribute.name)
        return custom
    }
}
