import Foundation

/// Reads the `contents` XML of an `.xcdatamodel` into a ``ModelDesign``.
enum XMLDesignReader {
    static func read(_ data: Data, name: String, file: String) throws -> ModelDesign {
        let root = try XMLNode.parse(data, file: file)
        guard root.name == "model" else {
            throw ModelGenError.notAModel(file: file, reason: "the root element is <\(root.name)>, not <model>")
        }
        var design = ModelDesign(name: name)
        if let identifier = root.attributes["userDefinedModelVersionIdentifier"], !identifier.isEmpty {
            design.versionIdentifier = identifier
        }
        for child in root.children {
            switch child.name {
            case "entity":
                design.entities.append(try entity(child, file: file, warnings: &design.warnings))
            case "elements":
                continue  // the editor's diagram layout
            case "fetchRequest":
                design.warnings.append("Skipped fetch request '\(child.attributes["name"] ?? "?")': not supported.")
            case "configuration":
                design.warnings.append("Skipped configuration '\(child.attributes["name"] ?? "?")': not supported.")
            default:
                design.warnings.append("Skipped unknown element <\(child.name)> at line \(child.line).")
            }
        }
        return design
    }

    private static func required(_ node: XMLNode, _ key: String, file: String) throws -> String {
        guard let value = node.attributes[key], !value.isEmpty else {
            throw ModelGenError.malformedXML(
                file: file, line: node.line, column: node.column,
                reason: "<\(node.name)> has no '\(key)' attribute")
        }
        return value
    }

    private static func entity(_ node: XMLNode, file: String, warnings: inout [String]) throws -> EntityDesign {
        let name = try required(node, "name", file: file)
        var entity = EntityDesign(
            name: name, parent: node.attributes["parentEntity"], isAbstract: node.flag("isAbstract"),
            versionHashModifier: node.attributes["versionHashModifier"], userInfo: node.userInfo,
            renamingIdentifier: renamingIdentifier(node))
        for child in node.children {
            switch child.name {
            case "attribute":
                entity.attributes.append(try attribute(child, entity: name, file: file, warnings: &warnings))
            case "relationship":
                entity.relationships.append(try relationship(child, file: file))
            case "userInfo":
                continue
            case "fetchedProperty":
                warnings.append("Skipped fetched property '\(name).\(child.attributes["name"] ?? "?")': not supported.")
            case "fetchIndex":
                warnings.append("Skipped fetch index '\(name).\(child.attributes["name"] ?? "?")': not supported.")
            case "uniquenessConstraints":
                warnings.append("Skipped uniqueness constraints of '\(name)': not supported.")
            default:
                warnings.append("Skipped unknown element <\(child.name)> in entity '\(name)' at line \(child.line).")
            }
        }
        return entity
    }

    private static func attribute(
        _ node: XMLNode, entity: String, file: String, warnings: inout [String]
    ) throws -> AttributeDesign {
        let name = try required(node, "name", file: file)
        let spelling = node.attributes["attributeType"] ?? ""
        guard let type = AttributeType(spelling: spelling) else {
            throw ModelGenError.unknownAttributeType(file: file, entity: entity, attribute: name, type: spelling)
        }
        if node.flag("derived") {
            warnings.append(
                "Attribute '\(entity).\(name)' is derived in Core Data; its derivation is ignored and it is stored.")
        }
        return AttributeDesign(
            name: name, type: type, isOptional: node.flag("optional"), isTransient: node.flag("transient"),
            defaultValue: node.attributes["defaultValueString"], customClassName: node.attributes["customClassName"],
            versionHashModifier: node.attributes["versionHashModifier"], userInfo: node.userInfo,
            renamingIdentifier: renamingIdentifier(node))
    }

    /// The renaming identifier Xcode saves as `elementID` (the inspector's "Renaming ID").
    private static func renamingIdentifier(_ node: XMLNode) -> String? {
        guard let value = node.attributes["elementID"], !value.isEmpty else { return nil }
        return value
    }

    private static func relationship(_ node: XMLNode, file: String) throws -> RelationshipDesign {
        let name = try required(node, "name", file: file)
        let destination = try required(node, "destinationEntity", file: file)
        return RelationshipDesign(
            name: name, destination: destination, inverse: node.attributes["inverseName"],
            isToMany: node.flag("toMany"), isOrdered: node.flag("ordered"), isOptional: node.flag("optional"),
            isTransient: node.flag("transient"), versionHashModifier: node.attributes["versionHashModifier"],
            userInfo: node.userInfo, renamingIdentifier: renamingIdentifier(node))
    }
}
