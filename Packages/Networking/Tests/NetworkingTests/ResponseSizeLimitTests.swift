import FlyingFox
import Foundation
import Networking
import NetworkingTesting
import Testing

/// The size limit holds for bodies without `Content-Length` (chunked), checked as they arrive.
@Suite("Response size limit")
struct ResponseSizeLimitTests {
    @Test("a chunked body past the limit fails with responseTooLarge, without reading it all")
    func chunkedOverLimit() async throws {
        try await withServer { server throws in
            let produced = Counter()
            await server.httpServer.appendRoute("GET /api/endless") { _ in
                let body = SlowBody(chunkSize: 64 * 1024, chunks: 64, pause: .milliseconds(5), produced: produced)
                // No count: FlyingFox sends it chunked, without Content-Length.
                return FlyingFox.HTTPResponse(
                    statusCode: .ok, headers: FlyingFox.HTTPHeaders(), body: HTTPBodySequence(from: body))
            }
            let client = HTTPClient(baseURL: server.apiURL)
            client.maxResponseSize = 256 * 1024
            client.retryPolicy = .never
            let error = await #expect(throws: HTTPClientError.self) {
                try await client.send(HTTPRequest(path: "endless"))
            }
            guard case .responseTooLarge(let limit, _) = error else {
                Issue.record("expected responseTooLarge, got \(String(describing: error))")
                return
            }
            #expect(limit == 256 * 1024)
            #expect(produced.count < 64 * 64 * 1024, "the client stopped reading")
        }
    }

    @Test("a chunked body within the limit arrives whole")
    func chunkedWithinLimit() async throws {
        try await withServer { server throws in
            await server.httpServer.appendRoute("GET /api/small") { _ in
                let body = SlowBody(chunkSize: 1024, chunks: 8, pause: .zero)
                return FlyingFox.HTTPResponse(
                    statusCode: .ok, headers: FlyingFox.HTTPHeaders(), body: HTTPBodySequence(from: body))
            }
            let client = HTTPClient(baseURL: server.apiURL)
            client.maxResponseSize = 8 * 1024
            let response = try await client.send(HTTPRequest(path: "small"))
            #expect(response.body.count == 8 * 1024)
            #expect(response.headers["Content-Length"] == nil)
        }
    }
}
