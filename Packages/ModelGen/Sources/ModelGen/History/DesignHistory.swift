import Foundation

/// Every version of a model design, oldest first: what ``ModelGenerator`` derives migrations from.
///
/// An `.xcdatamodeld` bundle holds one `.xcdatamodel` per version; a YAML or JSON design lists
/// them under `versions:`. The last version is the current one: the one whose types are
/// generated. Stored data names its version by position, `1` for the oldest, so a design that
/// never had more than one version is version 1. See <doc:EvolvingAModel>.
public struct DesignHistory: Sendable, Hashable {
    /// One version of a design.
    public struct Version: Sendable, Hashable {
        /// The version's name: the `.xcdatamodel` folder without its extension (`"Model 2"`), or
        /// the `name` of its entry in a YAML design's `versions` list.
        public var name: String
        /// The design as this version has it.
        public var design: ModelDesign

        /// Creates a version.
        public init(name: String, design: ModelDesign) {
            self.name = name
            self.design = design
        }
    }

    /// The design's name (`"Model"` for `Model.xcdatamodeld`).
    public var name: String
    /// The versions before the current one, oldest first.
    public var earlier: [Version]
    /// The version code is generated from.
    public var current: Version
    /// The name of the oldest version whose data is still stored, when the design states one
    /// (the `oldest:` line of a bundle's `.versions` file, a YAML or JSON design's
    /// `oldestStoredVersion`): no step is generated from a version before it, and data stamped
    /// older is refused. `nil`: every version's data may still be stored.
    public var oldestStoredVersion: String?

    /// Every version, oldest first; the last is ``current``.
    public var versions: [Version] { earlier + [current] }

    /// A history of one design with no earlier versions.
    public init(_ design: ModelDesign) {
        self.name = design.name
        self.earlier = []
        self.current = Version(name: design.name, design: design)
    }

    /// A history from its versions.
    /// - Parameters:
    ///   - name: The design's name.
    ///   - earlier: The versions before the current one, oldest first.
    ///   - current: The current version.
    ///   - oldestStoredVersion: The name of the oldest version whose data is still stored, if
    ///     the design states one.
    public init(name: String, earlier: [Version], current: Version, oldestStoredVersion: String? = nil) {
        self.name = name
        self.earlier = earlier
        self.current = current
        self.oldestStoredVersion = oldestStoredVersion
    }

    /// Reads every version of the design at `url`.
    ///
    /// For an `.xcdatamodeld` bundle, every `.xcdatamodel` inside it in the order its names,
    /// version identifiers or a `<Name>.versions` file beside it make certain, ending at the
    /// version `.xccurrentversion` names, with the oldest stored version the first line of
    /// the `.versions` file may name (`oldest: <version>`). For a YAML or JSON design, its
    /// `versions` list in order, with the version its `oldestStoredVersion` key names. Any
    /// other design is a history of one version.
    /// - Throws: ``ModelGenError/ambiguousVersionOrder(file:reason:)`` when the order is not
    ///   certain, and whatever ``ModelDesign/read(from:)`` throws for a version.
    public static func read(from url: URL) throws -> DesignHistory {
        let source = try DesignSource.of(url)
        switch source {
        case .bundle(let bundle):
            return try readBundle(bundle, name: source.name)
        case .tree(let file):
            var reader = TreeDesignReader(file: url.path)
            let versions = try reader.readHistory(ModelDesign.designTree(at: file), name: source.name).map {
                Version(name: $0.name, design: $0.design)
            }
            return DesignHistory(
                name: source.name, earlier: Array(versions.dropLast()), current: versions[versions.count - 1],
                oldestStoredVersion: reader.oldestStoredVersion)
        case .version, .contents:
            return DesignHistory(try ModelDesign.read(from: url))
        }
    }

    private static func readBundle(_ bundle: URL, name: String) throws -> DesignHistory {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: bundle.path)) ?? []
        let names = entries.filter { $0.hasSuffix(".xcdatamodel") }.map { String($0.dropLast(".xcdatamodel".count)) }
        guard !names.isEmpty else {
            throw ModelGenError.notAModel(file: bundle.path, reason: "the bundle holds no .xcdatamodel version")
        }
        var designs: [String: ModelDesign] = [:]
        for version in names {
            var design = try ModelDesign.read(from: bundle.appendingPathComponent("\(version).xcdatamodel"))
            design.name = name
            designs[version] = design
        }
        let current = try ModelDesign.currentVersionName(of: bundle)
        let order = try VersionOrder.order(
            of: names, identifiers: designs.mapValues(\.versionIdentifier), current: current, bundle: bundle)
        let versions = order.versions.compactMap { version in
            designs[version].map { Version(name: version, design: $0) }
        }
        return DesignHistory(
            name: name, earlier: Array(versions.dropLast()), current: versions[versions.count - 1],
            oldestStoredVersion: order.oldestStored)
    }
}
