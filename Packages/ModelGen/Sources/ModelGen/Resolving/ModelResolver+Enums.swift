import _KitSupport

extension ModelResolver {
    /// An entity marked as an enum: its attributes (and relationships) are the cases.
    ///
    /// With a raw type (`String` or `Int`) the cases carry raw values (`boiler.rawValue` or Spot's
    /// `State.Value`, else the case name for `String`; `Int` cases must give one); without one each case
    /// carries the attribute's or relationship's type as an associated value.
    mutating func resolveEnum(
        _ entity: EntityDesign, into result: inout ResolvedEntity, imports: inout Set<String>
    ) throws {
        let rawType = entity.userInfo[option: .rawType].map { $0.trimmingCharacters(in: .whitespaces) }
        var names: Set<String> = []
        func checkName(_ name: String) throws -> String {
            let swiftName = try memberName(name, entity: entity.name)
            guard names.insert(swiftName).inserted else {
                throw ModelGenError.duplicateProperty(file: file, entity: entity.name, property: name)
            }
            return swiftName
        }
        let members = lineage(of: entity)
        switch rawType {
        case .some(let type) where ["String", "Int"].contains(type):
            result.kind = .rawEnum(rawType: type)
            if members.contains(where: { !$0.relationships.isEmpty }) {
                throw ModelGenError.invalidEnum(
                    file: file, entity: entity.name, reason: "a \(type) enum cannot have relationships")
            }
            var rawValues: Set<String> = []
            for attribute in members.flatMap(\.attributes) where !attribute.userInfo.isOn(.ignore) {
                let swiftName = try checkName(attribute.name)
                let given = attribute.userInfo[option: .rawValue]
                let literal: String
                if type == "Int" {
                    // A raw value taken from the case's position would silently change when a
                    // case is inserted, and stored numbers would decode as a different case.
                    guard let given else {
                        throw ModelGenError.invalidEnum(
                            file: file, entity: entity.name,
                            reason: "case '\(attribute.name)' has no raw value; every case of an Int enum needs "
                                + "'boiler.rawValue' so that adding a case cannot renumber stored values")
                    }
                    guard let number = Int(given) else {
                        throw ModelGenError.invalidEnum(
                            file: file, entity: entity.name,
                            reason: "case '\(attribute.name)' has the raw value '\(given)', which is not an Int")
                    }
                    literal = String(number)
                } else {
                    literal = SwiftSource.literal(given ?? attribute.name)
                }
                guard rawValues.insert(literal).inserted else {
                    throw ModelGenError.invalidEnum(
                        file: file, entity: entity.name, reason: "the raw value \(literal) is used twice")
                }
                result.cases.append(
                    ResolvedCase(
                        key: attribute.name, swiftName: swiftName, rawValue: literal, associatedType: nil,
                        renamingIdentifier: attribute.renamingIdentifier))
            }
        case .some(let type):
            throw ModelGenError.invalidEnum(
                file: file, entity: entity.name, reason: "the raw type '\(type)' is not String or Int")
        case .none:
            result.kind = .associatedEnum
            for member in members {
                for attribute in member.attributes {
                    guard let property = try resolveAttribute(attribute, of: member, imports: &imports) else {
                        continue
                    }
                    result.cases.append(
                        ResolvedCase(
                            key: attribute.name, swiftName: try checkName(attribute.name), rawValue: nil,
                            associatedType: property.type, renamingIdentifier: attribute.renamingIdentifier))
                }
                for relationship in member.relationships {
                    guard let property = try resolveRelationship(relationship, of: member) else { continue }
                    result.cases.append(
                        ResolvedCase(
                            key: relationship.name, swiftName: try checkName(relationship.name), rawValue: nil,
                            associatedType: property.type, renamingIdentifier: relationship.renamingIdentifier))
                }
            }
        }
        if result.cases.isEmpty {
            throw ModelGenError.invalidEnum(file: file, entity: entity.name, reason: "it has no cases")
        }
    }
}
