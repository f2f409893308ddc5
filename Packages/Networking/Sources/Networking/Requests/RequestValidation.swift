import Foundation

/// Checks that nothing in a request could split it or smuggle another one in.
enum RequestValidation {
    /// - Throws: ``HTTPClientError/invalidHeader(name:reason:)`` for an empty or non-token name,
    ///   or a value with CR, LF or NUL in it.
    static func check(_ headers: HTTPHeaders) throws {
        for field in headers {
            if !ASCII.isToken(field.name) {
                throw HTTPClientError.invalidHeader(
                    name: field.name, reason: "a header name may only contain letters, digits and !#$%&'*+-.^_`|~")
            }
            // CR, LF and NUL are single bytes in UTF-8, never part of a longer sequence.
            if field.value.utf8.contains(where: { $0 == 0x0D || $0 == 0x0A || $0 == 0 }) {
                throw HTTPClientError.invalidHeader(
                    name: field.name, reason: "its value contains a carriage return, line feed or NUL")
            }
        }
    }

    /// Whether `text` holds a control character (CR, LF, NUL, TAB, DEL…) that must never reach
    /// a request line.
    static func hasControlCharacter(_ text: String) -> Bool {
        // Control characters are single bytes in UTF-8; every byte of a longer sequence is ≥ 0x80.
        text.utf8.contains { $0 < 0x20 || $0 == 0x7F }
    }
}

/// Resolves a request's path and query against a base URL.
enum URLResolution {
    private static let pathAllowed: CharacterSet = {
        var set = CharacterSet.urlPathAllowed
        set.insert(charactersIn: "%?#&=")
        return set
    }()

    /// The text a plain relative path is appended to: `base` as a string when it ends with `/`
    /// and has no query or fragment (`http://host/api/`), nil otherwise. Compute it once per
    /// base URL and pass it to ``url(base:directory:path:query:)``.
    static func directory(of base: URL) -> String? {
        let text = base.absoluteString
        guard text.hasSuffix("/"), base.query == nil, base.fragment == nil, base.scheme != nil,
            base.host != nil
        else { return nil }
        return text
    }

    /// Whether `path` is a relative path made only of unreserved characters and `/`, with no
    /// empty, `.` or `..` segment: resolving it against a directory URL is appending it.
    static func isPlainRelative(_ path: String) -> Bool {
        // The current segment's length, and how many of its characters are dots.
        var length = 0
        var dots = 0
        for byte in path.utf8 {
            switch byte {
            case UInt8(ascii: "/"):
                // An empty first segment ("/x") is host-relative; "." and ".." move up a level.
                if length == 0 || length == dots && dots <= 2 { return false }
                length = 0
                dots = 0
                continue
            case UInt8(ascii: "."):
                dots += 1
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "~"):
                break
            default:
                return false
            }
            length += 1
        }
        // A trailing "/" is fine ("notes/"); an empty path, a last "." or ".." is not.
        if length == 0 { return !path.isEmpty }
        return !(length == dots && dots <= 2)
    }

    /// ``url(base:path:query:)``, parsing one string rather than three when `path` is plain
    /// (``isPlainRelative(_:)``) and `directory` is ``directory(of:)`` of `base`.
    static func url(base: URL, directory: String?, path: String, query: [(String, String)]) throws -> URL {
        guard let directory, isPlainRelative(path) else { return try url(base: base, path: path, query: query) }
        let text = query.isEmpty ? directory + path : directory + path + "?" + FormEncoding.encode(query)
        guard let url = URL(string: text) else { return try self.url(base: base, path: path, query: query) }
        return url
    }

    static func url(base: URL, path: String, query: [(String, String)]) throws -> URL {
        if RequestValidation.hasControlCharacter(path) {
            throw HTTPClientError.invalidURL(path, reason: "it contains a line break or another control character")
        }
        var string = path
        if URL(string: string) == nil {
            string = path.addingPercentEncoding(withAllowedCharacters: pathAllowed) ?? path
        }
        guard var url = URL(string: string, relativeTo: base)?.absoluteURL else {
            throw HTTPClientError.invalidURL(path, reason: "it is not a valid URL path")
        }
        if !query.isEmpty {
            let separator = url.query == nil ? "?" : "&"
            var absolute = url.absoluteString
            var fragment = ""
            if let hash = absolute.firstIndex(of: "#") {
                fragment = String(absolute[hash...])
                absolute = String(absolute[..<hash])
            }
            guard let withQuery = URL(string: absolute + separator + FormEncoding.encode(query) + fragment) else {
                throw HTTPClientError.invalidURL(path, reason: "its query cannot be encoded")
            }
            url = withQuery
        }
        return url
    }
}
