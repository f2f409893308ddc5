/// An HTTP request method such as `GET` or `PATCH`.
///
/// Methods are open-ended (WebDAV adds `PROPFIND`), so this is a struct with the common ones
/// as static members rather than a closed enum.
public struct HTTPMethod: RawRepresentable, Hashable, Sendable, ExpressibleByStringLiteral,
    CustomStringConvertible
{
    /// The method's token as sent on the wire, in upper case.
    public let rawValue: String

    /// A method from its token; it is upper-cased.
    public init(rawValue: String) {
        self.rawValue = rawValue.uppercased()
    }

    /// A method from a string literal such as `"PROPFIND"`.
    public init(stringLiteral value: String) {
        self.init(rawValue: value)
    }

    /// The token, such as `"GET"`.
    public var description: String { rawValue }

    /// `GET`: read a resource.
    public static let get = HTTPMethod(rawValue: "GET")
    /// `HEAD`: read a resource's headers only.
    public static let head = HTTPMethod(rawValue: "HEAD")
    /// `POST`: create or act; not idempotent.
    public static let post = HTTPMethod(rawValue: "POST")
    /// `PUT`: replace a resource.
    public static let put = HTTPMethod(rawValue: "PUT")
    /// `PATCH`: change part of a resource; not idempotent.
    public static let patch = HTTPMethod(rawValue: "PATCH")
    /// `DELETE`: remove a resource.
    public static let delete = HTTPMethod(rawValue: "DELETE")
    /// `OPTIONS`: ask what a resource supports.
    public static let options = HTTPMethod(rawValue: "OPTIONS")
    /// `TRACE`: echo the request back.
    public static let trace = HTTPMethod(rawValue: "TRACE")
    /// `CONNECT`: open a tunnel.
    public static let connect = HTTPMethod(rawValue: "CONNECT")

    /// Whether repeating the request has the same effect as sending it once (RFC 9110 §9.2.2),
    /// which makes it safe to retry by default.
    public var isIdempotent: Bool {
        switch rawValue {
        case "GET", "HEAD", "PUT", "DELETE", "OPTIONS", "TRACE": true
        default: false
        }
    }
}
