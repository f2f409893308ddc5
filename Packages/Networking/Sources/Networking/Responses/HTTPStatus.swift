import Foundation

/// An HTTP status code with its reason phrase: prints as `200 OK`.
public struct HTTPStatus: RawRepresentable, Hashable, Sendable, Comparable, ExpressibleByIntegerLiteral,
    CustomStringConvertible
{
    /// The numeric code, such as `404`.
    public let rawValue: Int

    /// A status from its code.
    public init(rawValue: Int) {
        self.rawValue = rawValue
    }

    /// A status from its code.
    public init(_ code: Int) {
        self.rawValue = code
    }

    /// A status from an integer literal such as `422`.
    public init(integerLiteral value: Int) {
        self.rawValue = value
    }

    /// The numeric code, such as `404`.
    public var code: Int { rawValue }

    /// Whether the code is in 200–299.
    public var isSuccess: Bool { (200..<300).contains(rawValue) }

    /// Whether the code is one that redirects with a `Location` (301, 302, 303, 307, 308).
    public var isRedirect: Bool { [301, 302, 303, 307, 308].contains(rawValue) }

    /// The standard reason phrase, such as `"Not Found"`.
    public var reasonPhrase: String {
        Self.phrases[rawValue] ?? "Status \(rawValue)"
    }

    private static let phrases: [Int: String] = [
        100: "Continue", 101: "Switching Protocols", 200: "OK", 201: "Created", 202: "Accepted",
        203: "Non-Authoritative Information", 204: "No Content", 205: "Reset Content", 206: "Partial Content",
        300: "Multiple Choices", 301: "Moved Permanently", 302: "Found", 303: "See Other", 304: "Not Modified",
        307: "Temporary Redirect", 308: "Permanent Redirect", 400: "Bad Request", 401: "Unauthorized",
        402: "Payment Required", 403: "Forbidden", 404: "Not Found", 405: "Method Not Allowed",
        406: "Not Acceptable", 407: "Proxy Authentication Required", 408: "Request Timeout", 409: "Conflict",
        410: "Gone", 411: "Length Required", 412: "Precondition Failed", 413: "Content Too Large",
        414: "URI Too Long", 415: "Unsupported Media Type", 416: "Range Not Satisfiable",
        417: "Expectation Failed", 422: "Unprocessable Content", 425: "Too Early", 426: "Upgrade Required",
        428: "Precondition Required", 429: "Too Many Requests", 431: "Request Header Fields Too Large",
        500: "Internal Server Error", 501: "Not Implemented", 502: "Bad Gateway", 503: "Service Unavailable",
        504: "Gateway Timeout", 505: "HTTP Version Not Supported",
    ]

    /// `"404 Not Found"`.
    public var description: String { "\(rawValue) \(reasonPhrase)" }

    /// Orders statuses by code.
    public static func < (lhs: HTTPStatus, rhs: HTTPStatus) -> Bool { lhs.rawValue < rhs.rawValue }

    /// 200
    public static let ok: HTTPStatus = 200
    /// 201
    public static let created: HTTPStatus = 201
    /// 204
    public static let noContent: HTTPStatus = 204
    /// 206
    public static let partialContent: HTTPStatus = 206
    /// 304
    public static let notModified: HTTPStatus = 304
    /// 401
    public static let unauthorized: HTTPStatus = 401
    /// 404
    public static let notFound: HTTPStatus = 404
    /// 416
    public static let rangeNotSatisfiable: HTTPStatus = 416
    /// 422
    public static let unprocessableContent: HTTPStatus = 422
    /// 429
    public static let tooManyRequests: HTTPStatus = 429
    /// 500
    public static let internalServerError: HTTPStatus = 500
    /// 503
    public static let serviceUnavailable: HTTPStatus = 503
}
