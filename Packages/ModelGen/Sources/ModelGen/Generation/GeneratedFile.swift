/// A rendered file, before it is written.
public struct GeneratedFile: Sendable, Hashable {
    /// Which of the two files of an entity this is.
    public enum Kind: Sendable, Hashable {
        /// `_Entity.swift`: rewritten whenever its content changes.
        case machine
        /// `Entity.swift`: created once, never overwritten or deleted.
        case human
    }

    /// The file name, such as `_Issue.swift`.
    public var name: String
    /// The design entity it was rendered from (empty for a combined machine file).
    public var entity: String
    /// Machine or human.
    public var kind: Kind
    /// The design file it was rendered from (its name, such as `Model.xcdatamodeld`): the
    /// generation manifest records it, so only files of the same design can become its orphans.
    public var designFile: String = ""
    /// The file's text.
    public var contents: String
}

/// What a generation did (or, in a dry run, would do).
public struct GenerationReport: Sendable, Hashable {
    /// Machine files written because they were new or their content changed.
    public var written: [String] = []
    /// Machine files left alone because their content was already right.
    public var unchanged: [String] = []
    /// Human files created because they were missing.
    public var createdHumanFiles: [String] = []
    /// Human files that already existed and were left untouched.
    public var keptHumanFiles: [String] = []
    /// Machine files this design wrote earlier (as the folder's `.modelgen-manifest.json`
    /// records) whose entity is no longer in the design.
    public var orphans: [String] = []
    /// Orphans removed because pruning was asked for.
    public var pruned: [String] = []
    /// Whether the generation manifest (`.modelgen-manifest.json`) was written or changed.
    public var manifestChanged = false
    /// What the design reader and resolver skipped or changed, in words.
    public var warnings: [String] = []
    /// The migration plan, a line per step between the design's versions
    /// (`v1 → v2: Post.color renamed to hexColor`); empty for a design with one version.
    public var plan: [String] = []

    /// The number of files written, created or removed: 0 when nothing changed.
    public var changeCount: Int { written.count + createdHumanFiles.count + pruned.count }

    /// Creates an empty report.
    public init() {}
}
