/// The user-info keys ModelGen understands, with the spellings Spot (`State.*`, also accepted as
/// `Spot.*`) and mogenerator used.
enum UserInfoKey: CaseIterable {
    case ignore, immutable, type, enumeration, rawType, rawValue, defaultExpression, imports, reference, identifier
    case typeName, conformances, queryable

    /// Spellings in order of precedence: ours first; each of Spot's `State.X` is followed by `Spot.X`.
    var spellings: [String] {
        // Worked out once: every attribute, relationship and entity looks up several keys.
        Self.allSpellings[self] ?? ownSpellings
    }

    private static let allSpellings: [UserInfoKey: [String]] = Dictionary(
        uniqueKeysWithValues: allCases.map { ($0, withSpotAliases($0.ownSpellings)) })

    private var ownSpellings: [String] {
        switch self {
        case .ignore: ["boiler.ignore", "mogenerator.ignore", "State.Ignore"]
        case .immutable: ["boiler.immutable", "State.Immutable", "mogenerator.readonly"]
        case .type: ["boiler.type", "State.Type", "attributeValueScalarType", "attributeValueClassName"]
        case .enumeration: ["boiler.enum", "State.Enum"]
        case .rawType: ["boiler.rawType", "State.Type"]
        case .rawValue: ["boiler.rawValue", "State.Value"]
        case .defaultExpression: ["boiler.default", "State.Value"]
        case .imports: ["boiler.import", "State.Import"]
        case .reference: ["boiler.reference"]
        case .identifier: ["boiler.identifier"]
        case .typeName: ["boiler.typeName"]
        case .conformances: ["boiler.conformances"]
        case .queryable: ["boiler.queryable"]
        }
    }

    /// Keys from Spot and mogenerator that have no meaning for value types; they draw a warning.
    static let unsupported: Set<String> = Set(
        withSpotAliases([
            "State.Protocol", "State.Func", "State.ProtocolRequirementType", "State.CompositionType", "State.Dissolve",
            "mogenerator.customBaseClass",
        ]))

    /// Namespaces whose unknown keys draw a warning (other keys are the user's own data).
    static let namespaces = ["boiler.", "State.", "Spot.", "mogenerator."]

    /// `spellings` with `Spot.X` after each `State.X`: Spot's models write `State.*`, and some
    /// projects spell the same keys with the framework's name.
    private static func withSpotAliases(_ spellings: [String]) -> [String] {
        spellings.flatMap { spelling in
            spelling.hasPrefix("State.") ? [spelling, "Spot." + spelling.dropFirst("State.".count)] : [spelling]
        }
    }

    /// Every spelling ModelGen reads.
    static let known: Set<String> = Set(allCases.flatMap(\.spellings))
}

extension Dictionary where Key == String, Value == String {
    /// The value of the first spelling of `key` present.
    subscript(option key: UserInfoKey) -> String? {
        for spelling in key.spellings {
            if let value = self[spelling] { return value }
        }
        return nil
    }

    /// The first spelling of `key` present, for messages that name the key as the design wrote it.
    func spelling(of key: UserInfoKey) -> String? {
        key.spellings.first { self[$0] != nil }
    }

    /// Whether `key` is set to a true value (`YES`, `true`, `1`); mogenerator's `ignore` counts when present.
    func isOn(_ key: UserInfoKey) -> Bool {
        if key == .ignore, self["mogenerator.ignore"] != nil { return true }
        guard let value = self[option: key]?.lowercased() else { return false }
        return ["yes", "true", "1", "on"].contains(value)
    }

    /// Warnings for keys in our namespaces that ModelGen does not use.
    func unknownKeyWarnings(at place: String) -> [String] {
        keys.sorted().compactMap { key in
            if UserInfoKey.unsupported.contains(key) {
                return "User-info key '\(key)' on \(place) is not supported for value types; ignored."
            }
            if !UserInfoKey.known.contains(key), UserInfoKey.namespaces.contains(where: { key.hasPrefix($0) }) {
                return "Unknown user-info key '\(key)' on \(place); ignored."
            }
            return nil
        }
    }
}
