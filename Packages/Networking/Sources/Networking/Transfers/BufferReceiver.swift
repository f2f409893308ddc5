import Foundation

/// Collects a body in memory, up to a size limit, reporting download progress.
final class BufferReceiver: ResponseReceiver, @unchecked Sendable {
    private let lock = NSLock()
    private let limit: Int
    /// A HEAD response announces the length of a body it does not carry.
    private let expectsBody: Bool
    private let progress: (@Sendable (TransferProgress) -> Void)?
    private let uploadProgress: (@Sendable (TransferProgress) -> Void)?
    private var _head: ResponseHead?
    private var _data = Data()

    init(
        limit: Int, expectsBody: Bool = true, progress: (@Sendable (TransferProgress) -> Void)? = nil,
        uploadProgress: (@Sendable (TransferProgress) -> Void)? = nil
    ) {
        self.limit = limit
        self.expectsBody = expectsBody
        self.progress = progress
        self.uploadProgress = uploadProgress
    }

    var head: ResponseHead? { lock.withLock { _head } }
    var data: Data { lock.withLock { _data } }

    func receive(head: ResponseHead) throws {
        guard expectsBody else {
            lock.withLock { _head = head }
            return
        }
        // Only a length that counts the delivered bytes is checked up front; a decoded body,
        // or one without Content-Length (chunked), is checked as its chunks arrive.
        if let length = head.deliveredContentLength, length > limit {
            throw HTTPClientError.responseTooLarge(limit: limit, url: head.url)
        }
        lock.withLock {
            _head = head
            if let length = head.deliveredContentLength, length > 0 { _data.reserveCapacity(Int(length)) }
        }
        progress?(TransferProgress(completedBytes: 0, totalBytes: head.deliveredContentLength))
    }

    func receive(_ chunk: Data) throws {
        let (count, head) = try lock.withLock { () throws -> (Int, ResponseHead?) in
            if _data.count + chunk.count > limit, let url = _head?.url {
                throw HTTPClientError.responseTooLarge(limit: limit, url: url)
            }
            _data.append(chunk)
            return (_data.count, _head)
        }
        progress?(TransferProgress(completedBytes: Int64(count), totalBytes: head?.deliveredContentLength))
    }

    func sent(_ bytes: Int64, of total: Int64?) {
        uploadProgress?(TransferProgress(completedBytes: bytes, totalBytes: total))
    }
}

/// How far a transfer has got.
///
/// Computed from the bytes actually moved — URLSession's own `progress` stays at 0 for data
/// tasks on Linux.
public struct TransferProgress: Sendable, Equatable {
    /// Bytes moved so far.
    public var completedBytes: Int64
    /// Bytes expected in all, when the server (or the file being uploaded) says.
    public var totalBytes: Int64?

    /// Progress from its parts.
    public init(completedBytes: Int64, totalBytes: Int64?) {
        self.completedBytes = completedBytes
        self.totalBytes = totalBytes
    }

    /// The fraction done, from 0 to 1; 0 while the total is unknown, 1 once a transfer of
    /// unknown size has finished.
    public var fractionCompleted: Double {
        guard let totalBytes, totalBytes > 0 else { return 0 }
        return min(1, Double(completedBytes) / Double(totalBytes))
    }
}
