/// A model design as read from a file: entities with their attributes and relationships.
///
/// A design is what the data-model editor or a YAML/JSON design file says, before names become
/// Swift identifiers and before relationships are checked. Read one with
/// ``ModelDesign/read(from:)``; ``ModelGenerator`` resolves and renders it.
public struct ModelDesign: Sendable, Hashable {
    /// The design's name: the file name without its extension (`"Model"` for `Model.xcdatamodeld`).
    public var name: String
    /// The entities, in the order the design lists them.
    public var entities: [EntityDesign]
    /// Items the reader skipped or could not use (fetch requests, configurations, unknown keys).
    public var warnings: [String]
    /// Core Data's version identifier (`userDefinedModelVersionIdentifier`), when the version sets one.
    public var versionIdentifier: String?

    /// Creates a design.
    public init(name: String, entities: [EntityDesign] = [], warnings: [String] = [], versionIdentifier: String? = nil)
    {
        self.name = name
        self.entities = entities
        self.warnings = warnings
        self.versionIdentifier = versionIdentifier
    }
}

/// One entity of a design: a future struct (or enum).
public struct EntityDesign: Sendable, Hashable {
    /// The entity's name as designed.
    public var name: String
    /// The entity it inherits attributes and relationships from.
    public var parent: String?
    /// Whether the design marks it abstract.
    public var isAbstract: Bool
    /// Core Data's version hash modifier: changing it changes ``ModelGenerator``'s model version hash.
    public var versionHashModifier: String?
    /// The attributes declared on this entity (not the inherited ones).
    public var attributes: [AttributeDesign]
    /// The relationships declared on this entity (not the inherited ones).
    public var relationships: [RelationshipDesign]
    /// Key-value options (`boiler.*`, Spot's `State.*`, mogenerator's keys, or your own).
    public var userInfo: [String: String]
    /// The entity's name in the previous version when it was renamed: Core Data's renaming
    /// identifier (`elementID` in the `contents` XML, `renamedFrom` in YAML).
    public var renamingIdentifier: String?

    /// Creates an entity.
    public init(
        name: String, parent: String? = nil, isAbstract: Bool = false, versionHashModifier: String? = nil,
        attributes: [AttributeDesign] = [], relationships: [RelationshipDesign] = [], userInfo: [String: String] = [:],
        renamingIdentifier: String? = nil
    ) {
        self.renamingIdentifier = renamingIdentifier
        self.name = name
        self.parent = parent
        self.isAbstract = isAbstract
        self.versionHashModifier = versionHashModifier
        self.attributes = attributes
        self.relationships = relationships
        self.userInfo = userInfo
    }
}

/// One attribute of an entity.
public struct AttributeDesign: Sendable, Hashable {
    /// The attribute's name as designed; it stays the coding key.
    public var name: String
    /// The storage type.
    public var type: AttributeType
    /// Whether the value may be absent.
    public var isOptional: Bool
    /// Whether the value is kept in memory only (not encoded).
    public var isTransient: Bool
    /// Core Data's default value, as text (`"0"`, `"YES"`, `"New Child"`).
    public var defaultValue: String?
    /// The class name Core Data would use for a transformable attribute (`customClassName`).
    public var customClassName: String?
    /// Core Data's version hash modifier for this attribute.
    public var versionHashModifier: String?
    /// Key-value options.
    public var userInfo: [String: String]
    /// The attribute's name in the previous version when it was renamed (`elementID` in the XML,
    /// `renamedFrom` in YAML).
    public var renamingIdentifier: String?

    /// Creates an attribute.
    public init(
        name: String, type: AttributeType, isOptional: Bool = false, isTransient: Bool = false,
        defaultValue: String? = nil, customClassName: String? = nil, versionHashModifier: String? = nil,
        userInfo: [String: String] = [:], renamingIdentifier: String? = nil
    ) {
        self.renamingIdentifier = renamingIdentifier
        self.name = name
        self.type = type
        self.isOptional = isOptional
        self.isTransient = isTransient
        self.defaultValue = defaultValue
        self.customClassName = customClassName
        self.versionHashModifier = versionHashModifier
        self.userInfo = userInfo
    }
}

/// One relationship of an entity.
public struct RelationshipDesign: Sendable, Hashable {
    /// The relationship's name as designed; it stays the coding key.
    public var name: String
    /// The entity it points to.
    public var destination: String
    /// The relationship on the destination that points back, if any.
    public var inverse: String?
    /// Whether it holds many values (an array) rather than one.
    public var isToMany: Bool
    /// Whether a to-many relationship keeps its order.
    public var isOrdered: Bool
    /// Whether a to-one relationship may be empty.
    public var isOptional: Bool
    /// Whether the value is kept in memory only (not encoded).
    public var isTransient: Bool
    /// Core Data's version hash modifier for this relationship.
    public var versionHashModifier: String?
    /// Key-value options.
    public var userInfo: [String: String]
    /// The relationship's name in the previous version when it was renamed (`elementID` in the
    /// XML, `renamedFrom` in YAML).
    public var renamingIdentifier: String?

    /// Creates a relationship.
    public init(
        name: String, destination: String, inverse: String? = nil, isToMany: Bool = false, isOrdered: Bool = false,
        isOptional: Bool = true, isTransient: Bool = false, versionHashModifier: String? = nil,
        userInfo: [String: String] = [:], renamingIdentifier: String? = nil
    ) {
        self.renamingIdentifier = renamingIdentifier
        self.name = name
        self.destination = destination
        self.inverse = inverse
        self.isToMany = isToMany
        self.isOrdered = isOrdered
        self.isOptional = isOptional
        self.isTransient = isTransient
        self.versionHashModifier = versionHashModifier
        self.userInfo = userInfo
    }
}
