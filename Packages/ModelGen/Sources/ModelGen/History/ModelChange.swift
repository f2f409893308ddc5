/// One change to an entity between two consecutive versions of a design, and what migrating
/// stored data across it takes.
///
/// Changes Core Data's lightweight migration infers (and lossless number widening) come with
/// generated steps on the key-value tree; the rest name a ``hook`` the entity's human file
/// must implement.
public struct ModelChange: Sendable, Hashable {
    /// What changed.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// The entity is new in this version: its stored data starts here.
        case entityAdded
        /// The entity is gone: its data is no longer read.
        case entityRemoved
        /// The entity was renamed (its renaming identifier names the old one).
        case entityRenamed
        /// A new entity was split off this one (its renaming identifier names this one, which remains).
        case entitySplit
        /// A stored property is new.
        case propertyAdded
        /// A stored property is gone: its key is dropped.
        case propertyRemoved
        /// A stored property was renamed: its key is renamed.
        case propertyRenamed
        /// An attribute's number type became a wider one that holds every old value exactly.
        case typeWidened
        /// An attribute's type changed in a way that may lose or need to invent data.
        case typeChanged
        /// A property became optional.
        case madeOptional
        /// A property became required.
        case madeRequired
        /// A to-one relationship became to-many: the value becomes a one-element list.
        case becameToMany
        /// A to-many relationship became to-one, or a relationship changed its destination or
        /// how it is stored (value or identifier), or became an attribute or the reverse.
        case relationshipChanged
        /// A case of an enum entity is new.
        case enumCaseAdded
        /// A case of an enum entity is gone: stored values of it no longer decode (a hook on
        /// each property holding the enum).
        case enumCaseRemoved
        /// A case of an enum entity was renamed (its renaming identifier names the old one).
        case enumCaseRenamed
        /// How an enum case is stored changed: its raw value (rewritten by the generated step),
        /// or its raw type or associated value's type (a hook on each property holding the enum).
        case enumCaseChanged
        /// A property holding an enum whose stored values change: rewritten by the generated
        /// step, or a hook where they cannot be.
        case enumValuesChanged
    }

    /// What changed.
    public var kind: Kind
    /// The entity, as the newer version names it (the older version's name for a removal).
    public var entity: String
    /// The property's coding key in the newer version (the older one's for a removal), if any.
    public var property: String?
    /// The change in words, as the plan prints it: `Post.color renamed to hexColor`.
    public var summary: String
    /// The static function the entity's human file must implement for this change, or nil
    /// when the generated step does all of it.
    public var hook: String?
    /// Swift expressions of type `Migration.Edit` that carry the change out (empty for no-ops).
    var edits: [String] = []
    /// Where the edits run within a step: renames, then conversions, then defaults, then
    /// hooks, then removals (so a hook still sees the keys being removed).
    var phase: Int = 0

    /// Creates a change.
    public init(kind: Kind, entity: String, property: String? = nil, summary: String, hook: String? = nil) {
        self.kind = kind
        self.entity = entity
        self.property = property
        self.summary = summary
        self.hook = hook
    }

    /// Whether the generated code carries the change out without a hook.
    public var isInferred: Bool { hook == nil }
}

/// The changes of a design from one version to the next.
public struct MigrationStep: Sendable, Hashable {
    /// The stored version this step reads: the older version's position in the history, from 1.
    public var from: Int
    /// The stored version it writes.
    public var to: Int
    /// The older version's name.
    public var fromName: String
    /// The newer version's name.
    public var toName: String
    /// What changed, entity by entity.
    public var changes: [ModelChange]

    /// The step as the plan prints it:
    /// `v1 → v2: Post.color renamed to hexColor; Post.softDeleted added (default false)`.
    public var line: String {
        let body = changes.isEmpty ? "no stored change" : changes.map(\.summary).joined(separator: "; ")
        return "v\(from) → v\(to): \(body)"
    }
}

/// Every step of a design's history: what ``ModelGenerator`` prints and generates.
public struct MigrationPlan: Sendable, Hashable {
    /// The versions' names, oldest first.
    public var versions: [String]
    /// One step per pair of consecutive versions, oldest first, from the oldest stored
    /// version on.
    public var steps: [MigrationStep]
    /// The number of the oldest version whose data is still stored, when the design states one
    /// (``DesignHistory/oldestStoredVersion``): no step starts before it, and data stamped older
    /// is refused.
    public var oldestStoredVersion: Int? = nil

    /// The current version's number: the count of versions.
    public var currentVersion: Int { versions.count }

    /// The changes that need a hook in a human file.
    public var hooks: [ModelChange] { steps.flatMap(\.changes).filter { $0.hook != nil } }

    /// The plan as text, a line per step, after a line naming the versions; empty for a design
    /// with one version.
    public var lines: [String] {
        guard versions.count > 1 else { return [] }
        let names = versions.enumerated().map { "v\($0.offset + 1) = \($0.element)" }.joined(separator: ", ")
        let refused = oldestStoredVersion.map { "; data older than v\($0) is refused" } ?? ""
        return ["versions: \(names) (current)\(refused)"] + steps.map(\.line)
    }
}
