import HTTPTypes
import Hummingbird

/// The header fields of the sync protocol (see <doc:SyncProtocolV1>).
public enum SyncHeader {
    /// `Sync-Client-ID`: who sends a write; idempotency keys are unique per client.
    public static let clientID = HTTPField.Name("Sync-Client-ID")!
    /// `Idempotency-Key`: names one write; a replay under the same key gets the first answer.
    public static let idempotencyKey = HTTPField.Name("Idempotency-Key")!
    /// `Sync-Base-Revision`: the revision the client's change was made on (updates and deletes).
    public static let baseRevision = HTTPField.Name("Sync-Base-Revision")!
    /// `Sync-Replayed: true` on an answer read back from a receipt instead of made now.
    public static let replayed = HTTPField.Name("Sync-Replayed")!

    /// The longest client id accepted, in bytes.
    public static let maximumClientIDLength = 64
    /// The longest idempotency key accepted, in bytes (quotes excluded).
    public static let maximumIdempotencyKeyLength = 128

    /// Bytes allowed in client ids and idempotency keys: letters, digits and `-._~:+/=` (UUIDs,
    /// ULIDs, base64). No space, quote, backslash or control character: a key is stored and
    /// logged, and must not carry a forged line or a quote into either.
    static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        case UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: ":"),
            UInt8(ascii: "+"), UInt8(ascii: "/"), UInt8(ascii: "="):
            true
        default: false
        }
    }
}
