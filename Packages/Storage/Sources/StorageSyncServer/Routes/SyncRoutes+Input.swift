import Crypto
import Foundation
import Hummingbird
import Storage
import _KitSupport

/// Reading a write's headers, body and record id: every check that turns client input into a
/// typed `SyncRequestError` before anything is stored.
extension SyncRoutes {
    /// The one value of a token header (client id, idempotency key).
    static func token(
        _ values: [String], maximum: Int, missing: SyncRequestError, invalid: (String) -> SyncRequestError
    ) throws(SyncRequestError) -> String {
        guard let value = values.first else { throw missing }
        guard values.count == 1 else { throw invalid("it is given \(values.count) times") }
        guard !value.isEmpty else { throw invalid("it is empty") }
        // The length is checked first, and the value is never echoed: a 10 MB key costs one count.
        guard value.utf8.count <= maximum else {
            throw invalid("it is \(value.utf8.count) bytes long, more than \(maximum)")
        }
        guard value.utf8.allSatisfy(SyncHeader.isTokenByte) else {
            throw invalid("it may hold only letters, digits and -._~:+/=")
        }
        return value
    }

    /// An idempotency key without the quotes of its Structured Field form (`"key"`).
    static func unquoted(_ value: String) -> String {
        let bytes = value.utf8
        guard bytes.count >= 2, bytes.first == UInt8(ascii: "\""), bytes.last == UInt8(ascii: "\"") else {
            return value
        }
        return String(value.dropFirst().dropLast())
    }

    /// The base revision: required for updates and deletes, refused on creates.
    static func baseRevision(_ values: [String], for kind: WriteKind) throws(SyncRequestError) -> Int? {
        guard let text = values.first else {
            if kind == .create { return nil }
            throw .missingBaseRevision
        }
        guard kind != .create else { throw .invalidBaseRevision(reason: "a create has no base revision") }
        guard values.count == 1 else { throw .invalidBaseRevision(reason: "it is given \(values.count) times") }
        let digits = text.utf8
        guard !digits.isEmpty, digits.count <= 18,
            digits.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }),
            digits.count == 1 || digits.first != UInt8(ascii: "0"), let revision = Int(text)
        else { throw .invalidBaseRevision(reason: "\(UntrustedText.shown(text)) is not a non-negative decimal number") }
        return revision
    }

    /// A digest of what makes two writes the same write: method, record id, base revision, and the
    /// record as the server encodes it (`body`; empty for a delete).
    static func fingerprint(_ kind: WriteKind, id: String?, base: Int?, body: Data) -> String {
        var bytes = Array("sync-v1\n\(kind.rawValue)\n\(id ?? "")\n\(base.map(String.init) ?? "-")\n".utf8)
        bytes.append(contentsOf: body)
        return SHA256.hash(data: bytes).map { byte in (byte < 16 ? "0" : "") + String(byte, radix: 16) }.joined()
    }

    /// The record in a write's body.
    static func record(from body: Data) throws(SyncRequestError) -> Record {
        do {
            return try RecordJSON.value(Record.self, from: body)
        } catch let error as DecodingError {
            throw .invalidRecord(reason: describe(error))
        } catch {
            throw .invalidRecord(reason: "it is not JSON of a record")
        }
    }

    /// A decoding failure in words, with the client's keys shortened and escaped.
    private static func describe(_ error: DecodingError) -> String {
        func at(_ path: [any CodingKey]) -> String {
            path.isEmpty ? "the top level" : UntrustedText.shown(path.map(\.stringValue).joined(separator: "."))
        }
        switch error {
        case .keyNotFound(let key, let context): return "\(at(context.codingPath + [key])) is missing"
        case .typeMismatch(_, let context), .valueNotFound(_, let context):
            return "the value at \(at(context.codingPath)) has the wrong type"
        case .dataCorrupted(let context):
            return context.codingPath.isEmpty
                ? "it is not valid JSON" : "the value at \(at(context.codingPath)) is invalid"
        @unknown default: return "it is not JSON of a record"
        }
    }

    /// The id whose `RecordID` text is `text`, or nil: read as JSON (numbers) or as a JSON string
    /// (strings, UUIDs), and accepted only when it writes back as the same text, so one record
    /// has one path.
    static func recordID(from text: String) -> Record.ID? {
        guard !text.isEmpty, text.utf8.count <= 1_024 else { return nil }
        let decoder = JSONDecoder()
        var sources = [Data(text.utf8)]
        if let quoted = try? JSONEncoder().encode(text) { sources.append(quoted) }
        for source in sources {
            if let id = try? decoder.decode(Record.ID.self, from: source), RecordID.string(for: id) == text {
                return id
            }
        }
        return nil
    }

    /// `id` as one path segment.
    static func pathSegment(_ id: String) -> String {
        var allowed = CharacterSet.urlPathAllowed
        allowed.remove("/")
        return id.addingPercentEncoding(withAllowedCharacters: allowed) ?? id
    }
}
