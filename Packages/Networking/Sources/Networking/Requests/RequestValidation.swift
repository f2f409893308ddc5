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
