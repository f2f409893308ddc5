import Errors
import Foundation
import Serialization
import Storage

/// One change as the protocol writes it (v1): a feed entry, a write's answer, or a conflict's
/// `current`. Decoded leniently here and checked by the engine (a page before it is applied, an
/// answer before it is acknowledged), so a malformed entry is a typed error naming what is wrong
/// rather than a decoding failure.
struct WireEntry<Record: Decodable & Sendable>: Decodable, Sendable {
    var `protocol`: Int?
    var id: String
    var op: String
    var revision: Int
    var record: Record?
}

/// A page of the change feed (v1).
struct WirePage<Record: Decodable & Sendable>: Decodable, Sendable {
    var `protocol`: Int
    var entries: [WireEntry<Record>]
    var next: String
    var hasMore: Bool
}

/// The members of a problem body the client branches on.
struct WireProblem<Record: Decodable & Sendable>: Decodable, Sendable {
    var reason: String?
    var refetch: Bool?
    var current: WireEntry<Record>?
}

/// The sync protocol's rules a client checks answers against.
enum SyncWire {
    /// The protocol version this client speaks.
    static let version = 1
    /// The longest cursor the protocol allows, in bytes.
    static let maximumCursorLength = 55

    /// Whether `cursor` can be a cursor: 1–55 bytes of visible ASCII (`!` to `~`). The protocol
    /// calls a cursor opaque text of at most 55 bytes, stored as given; this refuses what no
    /// server would send (empty, too long, control characters, spaces, non-ASCII) and keeps every
    /// visible character a server may use (base64's `+/=`, `&`, `%`, `#`): the query it is sent
    /// back in is percent-encoded by Networking, so each arrives as given.
    static func isValidCursor(_ cursor: String) -> Bool {
        let bytes = Array(cursor.utf8)
        guard (1...maximumCursorLength).contains(bytes.count) else { return false }
        return bytes.allSatisfy { (0x21...0x7E).contains($0) }
    }

    /// Decodes `data` as `T` with the records' own JSON reading (so `Versioned` records migrate),
    /// turning a record from a newer model version into `.appTooOld`.
    static func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> Result<T, DecodeFailure> {
        do {
            return .success(try RecordJSON.value(T.self, from: data))
        } catch {
            for cause in error.chain {
                if case .newerVersion(let found, let current, _) = cause as? SerializationError {
                    return .failure(.newerVersion(found: found, supported: current))
                }
            }
            return .failure(.undecodable(String(describing: error.userMessage).prefix(300).description))
        }
    }

    enum DecodeFailure: Error {
        case newerVersion(found: ModelVersion, supported: ModelVersion)
        case undecodable(String)
    }
}
