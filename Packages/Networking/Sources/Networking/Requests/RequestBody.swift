import Foundation

/// What a request sends, before it is encoded.
///
/// JSON bodies hold the value and are encoded when the request is sent (through
/// Serialization), so building a request never throws.
public enum RequestBody: Sendable {
    /// No body.
    case empty
    /// A value encoded as JSON (`application/json`).
    case json(any Encodable & Sendable)
    /// Fields encoded as `application/x-www-form-urlencoded`, in order.
    case form([(String, String)])
    /// A `multipart/form-data` body of fields and files.
    case multipart(MultipartForm)
    /// Bytes sent as they are, with their content type.
    case data(Data, contentType: String?)
    /// A file streamed from disk, with its content type.
    case file(URL, contentType: String?)

    /// Encodes the body into bytes (or a file) and the `Content-Type` it implies.
    func encoded(with coder: JSONBodyCoder) throws -> (body: OutgoingBody, contentType: String?) {
        switch self {
        case .empty:
            return (.empty, nil)
        case .json(let value):
            return (.data(try coder.encode(value)), "application/json")
        case .form(let fields):
            return (.data(Data(FormEncoding.encode(fields).utf8)), "application/x-www-form-urlencoded")
        case .multipart(let form):
            return (.data(try form.encoded()), form.contentType)
        case .data(let data, let contentType):
            return (.data(data), contentType)
        case .file(let url, let contentType):
            return (.file(url), contentType)
        }
    }
}

/// Percent-encoding for query strings and form bodies.
///
/// `URLComponents.queryItems` leaves `&`, `=` and `+` alone inside values, so `"a&b=c"`
/// would split into two parameters (TSNetworking's bug); this encodes every character outside
/// RFC 3986's unreserved set.
enum FormEncoding {
    private static let unreserved: CharacterSet = {
        var set = CharacterSet.alphanumerics.intersection(
            CharacterSet(charactersIn: Unicode.Scalar(0)..<Unicode.Scalar(128)))
        set.insert(charactersIn: "-._~")
        return set
    }()

    /// Percent-encodes `text` so it is safe as one query or form key or value.
    static func escape(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? text
    }

    /// `a=1&b=x%26y`, in the order given.
    static func encode(_ fields: [(String, String)]) -> String {
        fields.map { "\(escape($0.0))=\(escape($0.1))" }.joined(separator: "&")
    }
}
