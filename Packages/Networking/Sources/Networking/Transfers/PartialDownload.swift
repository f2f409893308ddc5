import Foundation

/// The `.partial` file a download streams into, and the validator that lets it resume.
final class PartialDownload: Sendable {
    let destination: URL
    let fileURL: URL
    let validatorURL: URL

    init(destination: URL) {
        self.destination = destination
        self.fileURL = destination.deletingLastPathComponent().appendingPathComponent(
            destination.lastPathComponent + ".partial")
        self.validatorURL = destination.deletingLastPathComponent().appendingPathComponent(
            destination.lastPathComponent + ".partial.validator")
    }

    /// The bytes already on disk.
    var size: Int64 {
        ((try? FileManager.default.attributesOfItem(atPath: fileURL.path))?[.size] as? NSNumber)?.int64Value ?? 0
    }

    /// The `ETag` or `Last-Modified` of the response the partial file came from.
    var validator: String? {
        (try? String(contentsOf: validatorURL, encoding: .utf8)).flatMap { $0.isEmpty ? nil : $0 }
    }

    /// Where to resume from: the partial size when there is a validator to guard it, else 0.
    func resumableOffset() -> Int64 {
        validator == nil ? 0 : size
    }

    func saveValidator(from head: ResponseHead) {
        let validator = head.headers["ETag"].flatMap { $0.hasPrefix("W/") ? nil : $0 } ?? head.headers["Last-Modified"]
        if let validator, head.headers["Accept-Ranges"]?.lowercased() != "none" {
            try? Data(validator.utf8).write(to: validatorURL, options: .atomic)
        } else {
            discardValidator()
        }
    }

    func discardValidator() {
        try? FileManager.default.removeItem(at: validatorURL)
    }

    func discard() {
        try? FileManager.default.removeItem(at: fileURL)
        discardValidator()
    }

    /// Replaces `destination` with the complete partial file.
    func moveIntoPlace() throws -> URL {
        let manager = FileManager.default
        do {
            if manager.fileExists(atPath: destination.path) {
                _ = try manager.replaceItemAt(destination, withItemAt: fileURL)
            } else {
                try manager.moveItem(at: fileURL, to: destination)
            }
        } catch {
            throw HTTPClientError.fileFailed(destination, underlying: error)
        }
        discardValidator()
        return destination
    }
}

/// Streams a body into a ``PartialDownload`` — only once the status is known to be
/// acceptable; an error body is kept in memory for the error instead.
final class FileReceiver: ResponseReceiver, @unchecked Sendable {
    private let partial: PartialDownload
    private let acceptable: @Sendable (HTTPStatus) -> Bool
    private let progress: (@Sendable (TransferProgress) -> Void)?
    private let lock = NSLock()
    private var handle: FileHandle?
    private var written: Int64 = 0
    private var start: Int64 = 0
    private var expected: Int64?
    private var total: Int64?
    private var _errorBody = Data()

    init(
        partial: PartialDownload, acceptable: @escaping @Sendable (HTTPStatus) -> Bool,
        progress: (@Sendable (TransferProgress) -> Void)?
    ) throws {
        self.partial = partial
        self.acceptable = acceptable
        self.progress = progress
    }

    var errorBody: Data { lock.withLock { _errorBody } }
    /// The complete file's size, when the server said.
    var totalSize: Int64? { lock.withLock { total } }

    func receive(head: ResponseHead) throws {
        guard acceptable(head.status), !head.status.isRedirect else { return }
        try lock.withLock {
            if head.status == .partialContent, let range = ContentRange(head.headers["Content-Range"]),
                range.start <= partial.size
            {
                start = range.start
                total = range.total
            } else {
                start = 0
                total = head.expectedContentLength
            }
            expected = head.expectedContentLength
            partial.saveValidator(from: head)
            do {
                if !FileManager.default.fileExists(atPath: partial.fileURL.path) {
                    _ = FileManager.default.createFile(atPath: partial.fileURL.path, contents: nil)
                }
                let handle = try FileHandle(forWritingTo: partial.fileURL)
                try handle.truncate(atOffset: UInt64(start))
                try handle.seek(toOffset: UInt64(start))
                self.handle = handle
            } catch {
                throw HTTPClientError.fileFailed(partial.fileURL, underlying: error)
            }
        }
        progress?(TransferProgress(completedBytes: start, totalBytes: total))
    }

    func receive(_ chunk: Data) throws {
        let update = try lock.withLock { () throws -> TransferProgress? in
            guard let handle else {
                if _errorBody.count < HTTPClientError.bodyLimit {
                    _errorBody.append(chunk.prefix(HTTPClientError.bodyLimit - _errorBody.count))
                }
                return nil
            }
            do {
                try handle.write(contentsOf: chunk)
            } catch {
                throw HTTPClientError.fileFailed(partial.fileURL, underlying: error)
            }
            written += Int64(chunk.count)
            return TransferProgress(completedBytes: start + written, totalBytes: total)
        }
        if let update { progress?(update) }
    }

    func close() throws {
        try lock.withLock {
            defer { handle = nil }
            try handle?.close()
        }
    }

    /// Checks the bytes written against `Content-Length`: Linux's download delegate once wrote
    /// bodies twice, and a dropped connection can leave them short.
    func verify(url: URL) throws {
        let (expected, written) = lock.withLock { (self.expected, self.written) }
        if let expected, expected != written {
            throw HTTPClientError.incompleteDownload(expected: expected, received: written, url: url)
        }
    }
}

/// `Content-Range: bytes 100-199/1000`.
struct ContentRange: Equatable {
    var start: Int64
    var end: Int64
    var total: Int64?

    init?(_ value: String?) {
        guard let value, value.lowercased().hasPrefix("bytes ") else { return nil }
        let spec = value.dropFirst(6)
        let parts = spec.split(separator: "/", maxSplits: 1)
        let bounds = parts.first?.split(separator: "-", maxSplits: 1) ?? []
        guard bounds.count == 2, let start = Int64(bounds[0]), let end = Int64(bounds[1]), start <= end else {
            return nil
        }
        self.start = start
        self.end = end
        self.total = parts.count == 2 ? Int64(parts[1]) : nil
    }
}
