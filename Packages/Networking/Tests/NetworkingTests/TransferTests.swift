import Foundation
import Networking
import NetworkingTesting
import Testing
import _KitSupport

@Suite("Downloads and uploads")
struct TransferTests {
    @Test("a download lands at the destination with progress to 1, checked against Content-Length")
    func download() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let source = directory.url.appendingPathComponent("source.bin")
        let bytes = Data.pattern(count: 2_000_000)
        try bytes.write(to: source)
        try await withServer { server throws in
            await server.file("GET /api/files/big.bin", at: source)
            let client = HTTPClient(baseURL: server.apiURL)
            let destination = directory.url.appendingPathComponent("big.bin")
            let fractions = Locked<[Double]>([])
            let file = try await client.download("files/big.bin", to: destination) { progress in
                fractions.withLock { $0.append(progress.fractionCompleted) }
            }
            #expect(file == destination)
            #expect(try Data(contentsOf: file) == bytes)
            let seen = fractions.withLock { $0 }
            #expect(seen.last == 1)
            #expect(seen == seen.sorted())
            #expect(!FileManager.default.fileExists(atPath: destination.path + ".partial"))
        }
    }

    @Test("a 404 page is never saved as the file, and an existing file is left alone")
    func errorNotSaved() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try await withServer { server throws in
            await server.route("GET /api/files/missing") { _ in .text("<h1>Not here</h1>", status: 404) }
            let client = HTTPClient(baseURL: server.apiURL)
            let destination = directory.url.appendingPathComponent("missing.bin")
            try Data("previous".utf8).write(to: destination)
            let error = await #expect(throws: HTTPClientError.self) {
                try await client.download("files/missing", to: destination)
            }
            #expect(error?.status == .notFound)
            #expect(error?.body == Data("<h1>Not here</h1>".utf8))
            #expect(try Data(contentsOf: destination) == Data("previous".utf8))
            #expect(!FileManager.default.fileExists(atPath: destination.path + ".partial"))
        }
    }

    // Resuming is tested in ResumeValidatorTests, with downloads the server really cuts off.

    @Test("a partial file without a validator is not trusted: the download starts over")
    func noValidatorStartsOver() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let source = directory.url.appendingPathComponent("source.bin")
        let bytes = Data.pattern(count: 100_000)
        try bytes.write(to: source)
        try await withServer { server throws in
            await server.file("GET /api/f", at: source)
            let client = HTTPClient(baseURL: server.apiURL)
            let destination = directory.url.appendingPathComponent("f.bin")
            try Data(repeating: 0xFF, count: 5_000).write(to: URL(fileURLWithPath: destination.path + ".partial"))
            try await client.download("f", to: destination)
            #expect(try Data(contentsOf: destination) == bytes)
            #expect(server.requests.last?.header("Range") == nil)
        }
    }

    @Test("upload progress is reported from bytes sent")
    func uploadProgress() async throws {
        try await withServer { server throws in
            await server.route("POST /api/upload") { request in .text("\(request.body.count)") }
            let client = HTTPClient(baseURL: server.apiURL)
            let progress = Locked<[TransferProgress]>([])
            let payload = Data.pattern(count: 500_000)
            let response = try await client.send(
                HTTPRequest(method: .post, path: "upload", body: .data(payload, contentType: nil)), progress: nil
            ) { sent in progress.withLock { $0.append(sent) } }
            #expect(response.text == "500000")
            #expect(progress.withLock { $0.last } == TransferProgress(completedBytes: 500_000, totalBytes: 500_000))
        }
    }
}
