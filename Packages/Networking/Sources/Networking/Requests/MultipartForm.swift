import Foundation

/// A `multipart/form-data` body (RFC 7578): text fields and files, in order.
///
/// ```swift
/// var form = MultipartForm()
/// form.add("title", "Holiday")
/// form.add(file: photoURL, name: "photo", contentType: "image/jpeg")
/// try await client.post("photos", body: .multipart(form))
/// ```
public struct MultipartForm: Sendable {
    /// One part of the form.
    public struct Part: Sendable {
        /// The form field's name.
        public var name: String
        /// The file name, for file parts.
        public var filename: String?
        /// The part's content type, for file parts.
        public var contentType: String?
        /// Where the part's bytes come from.
        public var content: Content
    }

    /// A part's bytes: in memory or in a file read when the body is encoded.
    public enum Content: Sendable {
        /// Bytes in memory.
        case data(Data)
        /// A file's contents.
        case file(URL)
    }

    /// The boundary between parts; random by default.
    public var boundary: String
    /// The parts, in order.
    public private(set) var parts: [Part] = []

    /// An empty form with a random boundary.
    public init(boundary: String = "Boundary-\(UUID().uuidString)") {
        self.boundary = boundary
    }

    /// `multipart/form-data; boundary=…`.
    public var contentType: String { "multipart/form-data; boundary=\(boundary)" }

    /// Adds a text field.
    public mutating func add(_ name: String, _ value: String) {
        parts.append(Part(name: name, filename: nil, contentType: nil, content: .data(Data(value.utf8))))
    }

    /// Adds a file from memory.
    public mutating func add(
        data: Data, name: String, filename: String, contentType: String = "application/octet-stream"
    ) {
        parts.append(Part(name: name, filename: filename, contentType: contentType, content: .data(data)))
    }

    /// Adds a file from disk, named after its last path component unless `filename` is given.
    public mutating func add(
        file: URL, name: String, filename: String? = nil, contentType: String = "application/octet-stream"
    ) {
        parts.append(
            Part(
                name: name, filename: filename ?? file.lastPathComponent, contentType: contentType, content: .file(file)
            ))
    }

    /// The encoded body.
    ///
    /// - Throws: ``HTTPClientError/fileFailed(_:underlying:)`` when a file part cannot be read,
    ///   ``HTTPClientError/invalidHeader(name:reason:)`` when a name has a line break.
    public func encoded() throws -> Data {
        var body = Data()
        for part in parts {
            for text in [part.name, part.filename ?? "", part.contentType ?? ""]
            where RequestValidation.hasControlCharacter(text) {
                throw HTTPClientError.invalidHeader(
                    name: "Content-Disposition", reason: "form part \"\(text)\" contains a control character")
            }
            var disposition = "form-data; name=\"\(Self.quoted(part.name))\""
            if let filename = part.filename { disposition += "; filename=\"\(Self.quoted(filename))\"" }
            var head = "--\(boundary)\r\nContent-Disposition: \(disposition)\r\n"
            if let contentType = part.contentType { head += "Content-Type: \(contentType)\r\n" }
            body.append(Data((head + "\r\n").utf8))
            switch part.content {
            case .data(let data):
                body.append(data)
            case .file(let url):
                do {
                    body.append(try Data(contentsOf: url))
                } catch {
                    throw HTTPClientError.fileFailed(url, underlying: error)
                }
            }
            body.append(Data("\r\n".utf8))
        }
        body.append(Data("--\(boundary)--\r\n".utf8))
        return body
    }

    private static func quoted(_ text: String) -> String {
        text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "%22")
    }
}
