import Foundation

/// A complete response: status, headers, body, and the request that produced it.
public struct HTTPResponse: Sendable {
    /// The status.
    public var status: HTTPStatus
    /// The headers; `headers["Content-Type"]` ignores case.
    public var headers: HTTPHeaders
    /// The body.
    public var body: Data
    /// The URL that answered, after redirects.
    public var url: URL
    /// The request as it was sent for the final attempt.
    public var request: OutgoingRequest

    /// A response from its parts.
    public init(status: HTTPStatus, headers: HTTPHeaders, body: Data, url: URL, request: OutgoingRequest) {
        self.status = status
        self.headers = headers
        self.body = body
        self.url = url
        self.request = request
    }

    /// The media type without parameters, lower-cased: `"application/json"`.
    public var mediaType: String? {
        headers["Content-Type"].map(MediaType.essence)
    }

    /// The `charset` parameter of the content type, when there is one.
    public var charset: String? {
        headers["Content-Type"].flatMap { MediaType.parameter("charset", in: $0) }
    }

    /// The body as text, in the charset the content type names (UTF-8 when it names none).
    public var text: String? {
        String(data: body, encoding: MediaType.encoding(forCharset: charset))
    }
}

/// Reads `type/subtype; key=value` content types.
enum MediaType {
    static func essence(_ contentType: String) -> String {
        contentType.split(separator: ";", maxSplits: 1).first.map {
            ASCII.trimmingWhitespace($0).lowercased()
        } ?? ""
    }

    static func parameter(_ name: String, in contentType: String) -> String? {
        for part in contentType.split(separator: ";").dropFirst() {
            let pair = part.split(separator: "=", maxSplits: 1).map { String(ASCII.trimmingWhitespace($0)) }
            if pair.count == 2, pair[0].lowercased() == name {
                return pair[1].trimmingCharacters(in: CharacterSet(charactersIn: "\""))
            }
        }
        return nil
    }

    static func isJSON(_ essence: String) -> Bool {
        essence == "application/json" || essence.hasSuffix("+json") || essence == "text/json"
    }

    static func isPropertyList(_ essence: String) -> Bool {
        essence == "application/x-plist" || essence == "application/x-bplist" || essence == "application/plist"
            || essence == "application/xml-plist"
    }

    static func encoding(forCharset charset: String?) -> String.Encoding {
        switch charset?.lowercased() {
        case "iso-8859-1", "latin1", "latin-1": .isoLatin1
        case "us-ascii", "ascii": .ascii
        case "utf-16": .utf16
        case "utf-16le": .utf16LittleEndian
        case "utf-16be": .utf16BigEndian
        case "windows-1252", "cp1252": .windowsCP1252
        default: .utf8
        }
    }
}
