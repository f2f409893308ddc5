import Foundation
import Storage

extension RecordStore {
    /// A store kept in `table` of the PostgreSQL database at `url`; call the backend's
    /// `shutdown()` when done (`(store.backend as? PostgresRecordBackend<Record>)`), or keep the
    /// backend yourself.
    /// - Throws: as ``PostgresRecordBackend/init(url:table:openTimeout:changeFeed:)``.
    public init(postgres url: URL, table: String = "records") async throws {
        self.init(backend: try await PostgresRecordBackend<Record>(url: url, table: table))
    }
}
