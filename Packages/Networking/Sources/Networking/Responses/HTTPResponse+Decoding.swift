import Foundation

extension HTTPResponse {
    /// Decodes the body by its content type: JSON (through Serialization), a property list,
    /// text in its charset when `T` is `String`, or the raw bytes when `T` is `Data`.
    ///
    /// - Throws: ``HTTPClientError/decodingFailed(type:contentType:url:underlying:)`` or
    ///   ``HTTPClientError/unsupportedContentType(_:type:url:)``.
    public func decode<T: Decodable>(_ type: T.Type = T.self, using coder: JSONBodyCoder = .standard) throws -> T {
        if T.self == Data.self, let data = body as? T { return data }
        if T.self == String.self {
            guard let text, let value = text as? T else {
                throw HTTPClientError.decodingFailed(
                    type: "String", contentType: headers["Content-Type"], url: url,
                    underlying: CocoaError(.fileReadInapplicableStringEncoding))
            }
            return value
        }
        let essence = mediaType ?? ""
        do {
            if MediaType.isPropertyList(essence) {
                return try PropertyListDecoder().decode(T.self, from: body)
            }
            if MediaType.isJSON(essence) || essence.isEmpty || essence == "text/plain" {
                return try coder.decode(T.self, from: body)
            }
        } catch {
            throw HTTPClientError.decodingFailed(
                type: String(describing: T.self), contentType: headers["Content-Type"], url: url, underlying: error)
        }
        throw HTTPClientError.unsupportedContentType(
            headers["Content-Type"], type: String(describing: T.self), url: url)
    }
}
