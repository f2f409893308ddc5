/// The storage types of the data-model editor, and the Swift type each becomes.
public enum AttributeType: String, Sendable, Hashable, CaseIterable {
    /// `Integer 16`: `Int16`.
    case integer16 = "Integer 16"
    /// `Integer 32`: `Int32`.
    case integer32 = "Integer 32"
    /// `Integer 64`: `Int64`.
    case integer64 = "Integer 64"
    /// `Decimal`: `Decimal`.
    case decimal = "Decimal"
    /// `Double`: `Double`.
    case double = "Double"
    /// `Float`: `Float`.
    case float = "Float"
    /// `String`: `String`.
    case string = "String"
    /// `Boolean`: `Bool`.
    case boolean = "Boolean"
    /// `Date`: `Date`.
    case date = "Date"
    /// `Binary`: `Data`.
    case binary = "Binary"
    /// `URI`: `URL`.
    case uri = "URI"
    /// `UUID`: `UUID`.
    case uuid = "UUID"
    /// `Transformable`: the type named by the attribute's options or custom class name.
    case transformable = "Transformable"

    /// Reads a type as the editor spells it (`"Integer 16"`) or as a YAML design may
    /// (`"int16"`, `"bool"`, `"data"`, `"url"`); nil when unknown.
    public init?(spelling: String) {
        if let exact = AttributeType(rawValue: spelling) {
            self = exact
            return
        }
        let folded = spelling.lowercased().filter { $0 != " " && $0 != "_" && $0 != "-" }
        switch folded {
        case "integer16", "int16": self = .integer16
        case "integer32", "int32", "int", "integer": self = .integer32
        case "integer64", "int64": self = .integer64
        case "decimal": self = .decimal
        case "double": self = .double
        case "float": self = .float
        case "string", "text": self = .string
        case "boolean", "bool": self = .boolean
        case "date": self = .date
        case "binary", "data", "binarydata": self = .binary
        case "uri", "url": self = .uri
        case "uuid": self = .uuid
        case "transformable": self = .transformable
        default: return nil
        }
    }

    /// The Swift type an attribute of this storage type becomes, or nil for transformable.
    public var swiftType: String? {
        switch self {
        case .integer16: "Int16"
        case .integer32: "Int32"
        case .integer64: "Int64"
        case .decimal: "Decimal"
        case .double: "Double"
        case .float: "Float"
        case .string: "String"
        case .boolean: "Bool"
        case .date: "Date"
        case .binary: "Data"
        case .uri: "URL"
        case .uuid: "UUID"
        case .transformable: nil
        }
    }
}
