import Foundation

/// The `.partial` file a download streams into, and the record that lets it resume.
///
/// The record (`.partial.validator`, JSON) ties the partial bytes to the URL they came from and
/// to the validator of the version they belong to. A download resumes only for the same URL,
/// sends the validator in `If-Range`, and accepts a `206` only when it carries that validator
/// and starts where the file ends, so bytes of two files or two versions are never spliced.
final class PartialDownload: Sendable {
    let destination: URL
    let fileURL: URL
    let recordURL: URL

    init(destination: URL) {
        self.destination = destination
        self.fileURL = destination.deletingLastPathComponent().appendingPathComponent(
            destination.lastPathComponent + ".partial")
        self.recordURL = destination.deletingLastPathComponent().appendingPathComponent(
            destination.lastPathComponent + ".partial.validator")
    }

    /// The bytes already on disk.
    var size: Int64 {
        ((try? FileManager.default.attributesOfItem(atPath: fileURL.path))?[.size] as? NSNumber)?.int64Value ?? 0
    }

    /// What the partial file was downloaded from; nil when there is no usable record (none, or
    /// one in an older format, which is not trusted).
    var record: ResumeRecord? {
        (try? Data(contentsOf: recordURL)).flatMap { try? JSONDecoder().decode(ResumeRecord.self, from: $0) }
    }

    /// Where a download of `url` resumes and the validator that guards it; nil to start over
    /// (no partial bytes, no record, or a record made for another URL).
    func resumePoint(for url: URL) -> (offset: Int64, validator: String)? {
        guard let record, record.url == url.absoluteString else { return nil }
        let size = self.size
        return size > 0 ? (size, record.validator) : nil
    }

    /// Records what the bytes about to be written belong to, or removes the record when the
    /// response cannot be resumed safely (no strong validator, ranges refused, or a body the
    /// transport decodes, whose byte offsets are not the server's).
    func saveRecord(from head: ResponseHead, url: URL) {
        guard !head.isContentDecoded,
            head.headers["Accept-Ranges"].map({ !ASCII.equalsIgnoringCase($0, "none") }) ?? true,
            let validator = Self.validator(of: head)
        else { return discardRecord() }
        let record = ResumeRecord(url: url.absoluteString, validator: validator)
        guard let data = try? JSONEncoder().encode(record) else { return discardRecord() }
        do {
            try data.write(to: recordURL, options: .atomic)
        } catch {
            discardRecord()
        }
    }

    /// The validator `If-Range` may carry for a response: its `ETag` unless weak, else its
    /// `Last-Modified` when that is strong — at least 60 s before the response's `Date`
    /// (RFC 9110 §8.8.2.2, §13.1.5); a date any closer could name two versions written
    /// within the same second.
    static func validator(of head: ResponseHead) -> String? {
        if let etag = head.headers["ETag"].map({ String(ASCII.trimmingWhitespace($0)) }), !etag.isEmpty {
            return etag.hasPrefix("W/") ? nil : etag
        }
        guard let lastModified = head.headers["Last-Modified"].map({ String(ASCII.trimmingWhitespace($0)) }),
            let modified = HTTPDate.parse(lastModified), let sent = head.headers["Date"].flatMap(HTTPDate.parse),
            sent.timeIntervalSince(modified) >= 60
        else { return nil }
        return lastModified
    }

    func discardRecord() {
        try? FileManager.default.removeItem(at: recordURL)
    }

    func discard() {
        try? FileManager.default.removeItem(at: fileURL)
        discardRecord()
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
        discardRecord()
        return destination
    }
}

/// The URL a partial download came from and the validator of its version.
struct ResumeRecord: Codable, Equatable {
    var url: String
    var validator: String
}

/// A `206` that does not continue the partial file: another version (its validator differs
/// from the one sent in `If-Range`, which the server ignored) or another range. The download
/// starts over instead of splicing.
struct ResumeMismatch: Error {}

/// Streams a body into a ``PartialDownload`` — only once the status is known to be
/// acceptable; an error body is kept in memory for the error instead.
final class FileReceiver: ResponseReceiver, @unchecked Sendable {
    private let partial: PartialDownload
    /// The URL the download asked for, which the resume record is tied to.
    private let sourceURL: URL
    /// Where the request asked the body to start, and the validator it sent in `If-Range`.
    private let resume: (offset: Int64, validator: String)?
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
        partial: PartialDownload, sourceURL: URL, resume: (offset: Int64, validator: String)?,
        acceptable: @escaping @Sendable (HTTPStatus) -> Bool, progress: (@Sendable (TransferProgress) -> Void)?
    ) throws {
        self.partial = partial
        self.sourceURL = sourceURL
        self.resume = resume
        self.acceptable = acceptable
        self.progress = progress
    }

    var errorBody: Data { lock.withLock { _errorBody } }
    /// The complete file's size, when the server said.
    var totalSize: Int64? { lock.withLock { total } }

    func receive(head: ResponseHead) throws {
        guard acceptable(head.status), !head.status.isRedirect else { return }
        try lock.withLock {
            if head.status == .partialContent {
                // Only the range asked for, of the version asked for, continues the file.
                guard let range = ContentRange(head.headers["Content-Range"]), range.start == (resume?.offset ?? 0),
                    range.start <= partial.size,
                    resume == nil || PartialDownload.validator(of: head) == resume?.validator
                else { throw ResumeMismatch() }
                start = range.start
                total = range.total
            } else {
                start = 0
                total = head.deliveredContentLength
            }
            expected = head.deliveredContentLength
            partial.saveRecord(from: head, url: sourceURL)
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
    /// bodies twice, and a dropped connection can leave them short. A body the transport decoded
    /// has no length to check: its `Content-Length` counts the encoded bytes.
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
