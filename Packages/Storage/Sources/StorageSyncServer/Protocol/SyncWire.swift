import Foundation
import Storage

/// The protocol's version: the `protocol` member of every success body.
public enum SyncProtocol {
    /// This server speaks version 1 (<doc:SyncProtocolV1>).
    public static let version = 1
}

/// One change as the protocol writes it: an entry of a change page, the answer to a write (with
/// `protocol`), or the server's current record in a conflict.
struct WireEntry<Record: Encodable>: Encodable {
    var `protocol`: Int?
    var id: String
    var op: Op
    var revision: Int
    var record: Record?

    enum Op: String, Encodable {
        case saved, deleted
    }

    enum CodingKeys: String, CodingKey {
        case `protocol`, id, op, revision, record
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(self.protocol, forKey: .protocol)
        try container.encode(id, forKey: .id)
        try container.encode(op, forKey: .op)
        try container.encode(revision, forKey: .revision)
        try container.encodeIfPresent(record, forKey: .record)
    }
}

/// A page of the change feed as the protocol writes it.
struct WirePage<Record: Encodable>: Encodable {
    var `protocol` = SyncProtocol.version
    var entries: [WireEntry<Record>]
    var next: String
    var hasMore: Bool
}

/// An error answer: problem details (RFC 9457) with the protocol's members.
struct WireProblem<Record: Encodable>: Encodable {
    var type: String
    var title: String
    var status: Int
    var detail: String
    /// The stable name of the problem (`staleRevision`, `cursorExpired`…).
    var reason: String
    /// On 410: the client must drop its cursor and read the feed from the start.
    var refetch: Bool?
    /// On `422 recordRefused`: the record's field the server's rules refused, when one is named.
    var field: String?
    /// On a write conflict: the record as the server has it now; nil (written `null`) when it
    /// does not exist.
    var current: WireEntry<Record>?
    var hasCurrent = false

    enum CodingKeys: String, CodingKey {
        case type, title, status, detail, reason, refetch, field, current
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(type, forKey: .type)
        try container.encode(title, forKey: .title)
        try container.encode(status, forKey: .status)
        try container.encode(detail, forKey: .detail)
        try container.encode(reason, forKey: .reason)
        try container.encodeIfPresent(refetch, forKey: .refetch)
        try container.encodeIfPresent(field, forKey: .field)
        if hasCurrent {
            if let current {
                try container.encode(current, forKey: .current)
            } else {
                try container.encodeNil(forKey: .current)
            }
        }
    }

    /// The `type` URI of a reason.
    static func type(_ reason: String) -> String { "urn:boiler:sync:" + reason }

    /// The reason phrase of a status the protocol uses.
    static func title(_ status: Int) -> String {
        switch status {
        case 400: "Bad Request"
        case 401: "Unauthorized"
        case 403: "Forbidden"
        case 409: "Conflict"
        case 410: "Gone"
        case 413: "Content Too Large"
        case 422: "Unprocessable Content"
        default: "Internal Server Error"
        }
    }
}

/// An answer as the routes send it and as a receipt keeps it, so a replay is sent byte for byte.
struct SyncAnswer: Codable, Equatable, Sendable {
    var status: Int
    var contentType: String
    var location: String?
    var body: Data

    static let json = "application/json"
    static let problemJSON = "application/problem+json"

    /// The answer as a receipt stores it.
    func stored() throws -> Data { try JSONEncoder().encode(self) }

    /// An answer a receipt stored.
    init(stored data: Data) throws { self = try JSONDecoder().decode(SyncAnswer.self, from: data) }

    init(status: Int, contentType: String, location: String? = nil, body: Data) {
        self.status = status
        self.contentType = contentType
        self.location = location
        self.body = body
    }
}
