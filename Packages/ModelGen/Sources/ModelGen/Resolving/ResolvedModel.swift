/// A design checked and translated into Swift terms: what the templates render.
struct ResolvedModel: Sendable {
    var name: String
    var file: String
    var entities: [ResolvedEntity]
    var warnings: [String]
}

/// One entity in Swift terms.
struct ResolvedEntity: Sendable {
    enum Kind: Sendable, Equatable {
        case structure
        case rawEnum(rawType: String)
        case associatedEnum
    }

    /// The entity's name in the design.
    var name: String
    /// The type name, back-ticked if needed.
    var typeName: String
    /// The type name without back-ticks: used for file names.
    var fileStem: String
    var kind: Kind
    var parent: String?
    var isAbstract: Bool
    /// Stored properties, inherited ones first (empty for enums).
    var properties: [ResolvedProperty]
    /// Cases of an enum entity.
    var cases: [ResolvedCase]
    var imports: [String]
    var conformances: [String]
    var modelVersionHash: String
    /// What the design's `boiler.queryable` says: nil when it is not set.
    var queryable: Bool? = nil
    /// The entity's name in the previous version, when the design says it was renamed.
    var renamingIdentifier: String? = nil
}

/// One stored property in Swift terms.
struct ResolvedProperty: Sendable {
    /// The coding key: the name in the design.
    var key: String
    /// The Swift name, back-ticked if needed.
    var swiftName: String
    /// The type without optionality: `String`, `[Child]`.
    var baseType: String
    var isOptional: Bool
    var isImmutable: Bool
    var isTransient: Bool
    /// The default in the memberwise initializer and when the key is missing.
    var defaultValue: String?
    var relationship: RelationshipInfo?
    /// The storage type of an attribute (nil for a relationship).
    var attributeType: AttributeType? = nil
    /// The property's name in the previous version, when the design says it was renamed.
    var renamingIdentifier: String? = nil
    /// The entity the property was declared on when inherited.
    var inheritedFrom: String? = nil

    struct RelationshipInfo: Sendable {
        var destination: String
        var isToMany: Bool
        var isOrdered: Bool
        var isReference: Bool
        var inverse: String?
    }

    /// The declared type: `String?` for optionals.
    var type: String { isOptional ? "\(baseType)?" : baseType }
}

/// One case of an enum entity.
struct ResolvedCase: Sendable {
    var key: String
    var swiftName: String
    /// The raw value literal (`"female"`, `2`) of a raw-value enum.
    var rawValue: String?
    /// The associated value's type of an associated-value enum.
    var associatedType: String?
    /// The case's renaming identifier (Xcode's Renaming ID, YAML's `renamedFrom`): the name of
    /// the case it continues in an older version.
    var renamingIdentifier: String? = nil
}
