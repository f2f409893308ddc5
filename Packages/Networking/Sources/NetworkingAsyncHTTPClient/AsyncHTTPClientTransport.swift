import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import Networking

/// A `Transport` on swift-server's AsyncHTTPClient (SwiftNIO), for servers.
///
/// ```swift
/// let client = Networking.HTTPClient(baseURL: apiURL, transport: AsyncHTTPClientTransport.shared)
/// ```
///
/// Redirects are never followed here: `HTTPClient` follows them itself, dropping
/// credentials when the origin changes, exactly as it does over URLSession. Cancellation throws
/// `CancellationError`, and timeouts and lost connections surface as the `URLError` codes the
/// client's retry policy understands.
public final class AsyncHTTPClientTransport: Transport {
    /// The AsyncHTTPClient requests run on.
    public let client: AsyncHTTPClient.HTTPClient
    private let ownsClient: Bool

    /// A transport shared by the whole process, on its own AsyncHTTPClient with redirects
    /// disallowed, which lives as long as the process and is never shut down.
    public static let shared = AsyncHTTPClientTransport(
        configuration: AsyncHTTPClientTransport.defaultConfiguration())

    /// A transport on a new AsyncHTTPClient built from `configuration`, its redirects turned
    /// off. Call ``shutdown()`` when done with it.
    public init(
        configuration: AsyncHTTPClient.HTTPClient.Configuration = AsyncHTTPClientTransport.defaultConfiguration()
    ) {
        var configuration = configuration
        configuration.redirectConfiguration = .disallow
        self.client = AsyncHTTPClient.HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
        self.ownsClient = true
    }

    /// A transport on an AsyncHTTPClient you manage. Configure it with
    /// `redirectConfiguration: .disallow`, or it will follow redirects itself, keeping
    /// credentials across origins.
    public init(client: AsyncHTTPClient.HTTPClient) {
        self.client = client
        self.ownsClient = false
    }

    /// Connect in 10 s, idle reads time out after 60 s, no redirects, no decompression.
    public static func defaultConfiguration() -> AsyncHTTPClient.HTTPClient.Configuration {
        AsyncHTTPClient.HTTPClient.Configuration(
            redirectConfiguration: .disallow,
            timeout: .init(connect: .seconds(10), read: .seconds(60)))
    }

    /// Shuts down the AsyncHTTPClient this transport created; a client passed in is left alone.
    public func shutdown() async throws {
        if ownsClient { try await client.shutdown() }
    }

    /// Sends `request` and streams the response body to `receiver`.
    public func perform(_ request: OutgoingRequest, receiver: any ResponseReceiver) async throws {
        try Task.checkCancellation()
        var outgoing = HTTPClientRequest(url: request.url.absoluteString)
        outgoing.method = NIOHTTP1.HTTPMethod(rawValue: request.method.rawValue)
        for field in request.headers {
            outgoing.headers.add(name: field.name, value: field.value)
        }
        let total = request.body.length
        switch request.body {
        case .empty:
            break
        case .data(let data):
            outgoing.body = .bytes(ByteBuffer(bytes: data))
        case .file(let url):
            let chunks = FileChunks(url: url) { sent in receiver.sent(sent, of: total) }
            outgoing.body = .stream(chunks, length: total.map { .known($0) } ?? .unknown)
        }
        do {
            let response = try await client.execute(outgoing, deadline: .distantFuture)
            if case .data(let data) = request.body { receiver.sent(Int64(data.count), of: total) }
            var headers = HTTPHeaders()
            for header in response.headers { headers.add(header.name, header.value) }
            try receiver.receive(
                head: ResponseHead(status: HTTPStatus(Int(response.status.code)), headers: headers, url: request.url))
            for try await buffer in response.body {
                try receiver.receive(Data(buffer.readableBytesView))
            }
        } catch {
            throw Self.translate(error)
        }
    }

    /// Maps AsyncHTTPClient's and NIO's errors to what `HTTPClient` expects.
    static func translate(_ error: any Error) -> any Error {
        if error is CancellationError || Task.isCancelled { return CancellationError() }
        if let clientError = error as? AsyncHTTPClient.HTTPClientError {
            let code: URLError.Code? =
                switch clientError {
                case .cancelled: nil
                case .deadlineExceeded, .readTimeout, .connectTimeout, .writeTimeout: .timedOut
                case .remoteConnectionClosed: .networkConnectionLost
                default: nil
                }
            if clientError == .cancelled { return CancellationError() }
            if let code { return URLError(code, userInfo: [NSUnderlyingErrorKey: clientError]) }
            return error
        }
        if String(describing: type(of: error)) == "NIOConnectionError" || (error as? IOError)?.errnoCode == ECONNREFUSED
        {
            return URLError(.cannotConnectToHost, userInfo: [NSUnderlyingErrorKey: error])
        }
        return error
    }
}

/// A file read in 64 KiB buffers, reporting how much has been handed to the request.
struct FileChunks: AsyncSequence, Sendable {
    typealias Element = ByteBuffer

    let url: URL
    let sent: @Sendable (Int64) -> Void

    struct AsyncIterator: AsyncIteratorProtocol {
        let handle: FileHandle?
        let sent: @Sendable (Int64) -> Void
        var total: Int64 = 0

        mutating func next() async throws -> ByteBuffer? {
            guard let handle, let data = try handle.read(upToCount: 64 * 1024), !data.isEmpty else {
                try handle?.close()
                return nil
            }
            total += Int64(data.count)
            sent(total)
            return ByteBuffer(bytes: data)
        }
    }

    func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(handle: try? FileHandle(forReadingFrom: url), sent: sent)
    }
}
