// Diary.swift: yours to edit. ModelGen created it once from Diary.yaml
// and never overwrites or deletes it; the generated part is in _Diary.swift.
import Foundation
import Serialization

extension Diary: Versioned {
    /// The version stamped on encoded values: the design's current version. Add a version to
    /// the design (a new .xcdatamodel, or an entry under `versions:`) and ModelGen raises it.
    internal static let version = designVersion

    /// Steps that rewrite data stored by older versions, oldest first: the ones ModelGen
    /// generates from the design's versions (hand-written steps for data older than the
    /// design's first version go before them).
    internal static let migrations: [Migration] = designMigrations
}
