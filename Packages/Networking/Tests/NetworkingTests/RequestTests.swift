import Foundation
import NetworkingTesting
import Testing
import _KitSupport

@testable import Networking

@Suite("Requests")
struct RequestTests {
    @Test("a GET decodes JSON and escapes query values so & and = stay inside them")
    func getWithQuery() async throws {
        try await withServer { server throws in
            await server.route("GET /api/notes") { _ in .json(#"[{"id":1,"text":"one"}]"#) }
            let client = HTTPClient(baseURL: server.apiURL)
            let notes: [Note] = try await client.get("notes", query: ["page": "2", "q": "a&b=c"])
            #expect(notes == [Note(id: 1, text: "one")])
            let seen = try #require(server.requests.first)
            #expect(seen.path == "/api/notes")
            #expect(seen.query["q"] == "a&b=c")
            #expect(seen.query["page"] == "2")
            #expect(seen.rawQuery == "page=2&q=a%26b%3Dc")
        }
    }

    @Test("query items with spaces, unicode and plus signs arrive intact")
    func queryEscaping() async throws {
        try await withServer { server throws in
            await server.route("GET /api/search") { _ in .text("ok") }
            let client = HTTPClient(baseURL: server.apiURL)
            try await client.send(HTTPRequest(path: "search", query: [("q", "1 + 1 = 2 ü"), ("tag", "a/b?c#d")]))
            let seen = try #require(server.requests.first)
            #expect(seen.rawQuery == "q=1%20%2B%201%20%3D%202%20%C3%BC&tag=a%2Fb%3Fc%23d")
        }
    }

    @Test(
        "every method reaches the server as itself",
        arguments: ["GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "HEAD"])
    func methods(_ method: String) async throws {
        try await withServer { server throws in
            await server.route("/api/thing") { request in .text(request.method) }
            let client = HTTPClient(baseURL: server.apiURL)
            let response = try await client.send(HTTPRequest(method: HTTPMethod(rawValue: method), path: "thing"))
            #expect(response.status == .ok)
            #expect(server.requests.first?.method == method)
            if method != "HEAD" { #expect(response.text == method) }
        }
    }

    @Test("paths resolve against the base URL; a leading slash starts from the host")
    func pathResolution() async throws {
        try await withServer { server throws in
            await server.route("GET /api/notes/5") { _ in .text("member") }
            await server.route("GET /health") { _ in .text("root") }
            let client = HTTPClient(baseURL: server.apiURL)
            #expect(try await client.send(HTTPRequest(path: "notes/5")).text == "member")
            #expect(try await client.send(HTTPRequest(path: "/health")).text == "root")
            #expect(try await client.send(HTTPRequest(path: server.baseURL.absoluteString + "health")).text == "root")
        }
    }

    @Test("session headers go with every request and per-request headers win")
    func headers() async throws {
        try await withServer { server throws in
            await server.route("GET /api/h") { _ in .text("ok") }
            let client = HTTPClient(baseURL: server.apiURL)
            client.headers["X-App"] = "demo"
            client.headers["X-Mode"] = "session"
            try await client.send(HTTPRequest(path: "h", headers: ["x-mode": "request"]))
            let seen = try #require(server.requests.first)
            #expect(seen.header("X-App") == "demo")
            #expect(seen.header("X-Mode") == "request")
        }
    }

    @Test("repeated header fields stay separate and setting one replaces them all")
    func headerFields() {
        var headers = HTTPHeaders()
        headers.add("Set-Cookie", "a=1")
        headers.add("set-cookie", "b=2")
        #expect(headers.values(for: "SET-COOKIE") == ["a=1", "b=2"])
        #expect(headers["Set-Cookie"] == "a=1")
        headers["Set-Cookie"] = "c=3"
        #expect(headers.values(for: "Set-Cookie") == ["c=3"])
        let merged = HTTPHeaders([("Accept", "a"), ("X", "1")]).merging(["accept": "b"])
        #expect(merged.values(for: "Accept") == ["b"])
        #expect(merged["X"] == "1")
    }

    @Test("header names compare by ASCII case only; tokens exclude non-ASCII; optional whitespace is trimmed")
    func headerGrammar() throws {
        var headers = HTTPHeaders()
        headers.add("X-Trace-ID", "1")
        #expect(headers["x-trace-id"] == "1")
        #expect(headers["X-TRACE-ID"] == "1")
        #expect(headers["X-Trace-I"] == nil)
        #expect(headers["X-Trace-IDs"] == nil)
        // Only ASCII letters fold: "K" (U+212A KELVIN SIGN) is not "k".
        headers.add("X-\u{212A}ey", "2")
        #expect(headers["x-key"] == nil)
        for name in ["", "Bad Name", "Naïve", "X-\u{212A}ey", "Colon:", "Tab\t"] {
            #expect(throws: HTTPClientError.self) { try RequestValidation.check(HTTPHeaders([(name, "v")])) }
        }
        try RequestValidation.check(HTTPHeaders([("!#$%&'*+-.^_`|~09AZaz", "value with ünïcode")]))
        let head = ResponseHead(status: .ok, headers: ["content-length": " \t42\t "], url: URL(fileURLWithPath: "/"))
        #expect(head.expectedContentLength == 42)
        #expect(MediaType.essence(" Application/JSON ; charset=utf-8") == "application/json")
        #expect(MediaType.parameter("charset", in: "text/plain;  charset = \"latin1\" ") == "latin1")
        #expect(!RequestValidation.hasControlCharacter("ünïcode/path"))
        #expect(RequestValidation.hasControlCharacter("tab\there"))
    }

    @Test("a plain path is appended to the base URL, giving the URL that full resolution gives")
    func plainPathShortcut() throws {
        let plains = ["notes", "notes/5", "a-b_c~d/E.json", "notes/", "v1/users/42/notes", "...", "a/.../b", ".hidden"]
        for plain in plains {
            #expect(URLResolution.isPlainRelative(plain), "\(plain)")
        }
        for other in [
            "", "/health", "./notes", "../notes", "a/../b", "a/./b", "a//b", "a/.", "a/..", ".", "..", "a b",
            "ünï", "a%20b", "a?b=c", "a#f", "mailto:x", "http://other/", "a;b",
        ] {
            #expect(!URLResolution.isPlainRelative(other), "\(other)")
        }
        #expect(URLResolution.directory(of: try #require(URL(string: "http://127.0.0.1:8080/api/"))) != nil)
        for base in ["http://127.0.0.1:8080/api", "http://h/api/?k=v", "http://h/api/#top", "file:///tmp/"] {
            #expect(URLResolution.directory(of: try #require(URL(string: base))) == nil, "\(base)")
        }

        let bases = [
            "http://127.0.0.1:8080/api/", "https://example.com/", "http://h:1/a/b/", "http://h/api",
            "http://h/api/?k=v",
        ]
        let paths = [
            "notes", "notes/5", "notes/", "a-b_c~d/E.json", "...", "/health", "../up", "./here", "a b", "ünï", "a?x=1",
            "http://other.example/x",
        ]
        let queries: [[(String, String)]] = [
            [], [("page", "2"), ("q", "a&b=c")], [("q", "1 + 1 = 2 ü"), ("t", "a/b?c#d")],
        ]
        for text in bases {
            let base = try #require(URL(string: text))
            let directory = URLResolution.directory(of: base)
            for path in paths {
                for query in queries {
                    let full = try URLResolution.url(base: base, path: path, query: query)
                    let quick = try URLResolution.url(base: base, directory: directory, path: path, query: query)
                    #expect(quick == full, "\(text) + \(path)")
                    #expect(quick.absoluteString == full.absoluteString, "\(text) + \(path)")
                }
            }
        }
    }

    @Test("JSON, form, raw and multipart bodies arrive as sent")
    func bodies() async throws {
        try await withServer { server throws in
            await server.route("POST /api/echo") { request in
                Reply(
                    status: 200, headers: [("Content-Type", request.header("Content-Type") ?? "")], body: request.body)
            }
            let client = HTTPClient(baseURL: server.apiURL)
            let json = try await client.send(HTTPRequest(method: .post, path: "echo", json: Note(id: 3, text: "x")))
            #expect(json.mediaType == "application/json")
            #expect(try json.decode(Note.self) == Note(id: 3, text: "x"))

            let form = try await client.post("echo", body: .form([("name", "Tim & Co"), ("q", "a=b")]))
            #expect(form.text == "name=Tim%20%26%20Co&q=a%3Db")
            #expect(form.mediaType == "application/x-www-form-urlencoded")

            let raw = try await client.post(
                "echo", body: .data(Data([0, 1, 2, 255]), contentType: "application/x-raw"))
            #expect(raw.body == Data([0, 1, 2, 255]))

            var multipart = MultipartForm(boundary: "XyZ")
            multipart.add("title", "Holiday")
            multipart.add(data: Data("PNGDATA".utf8), name: "photo", filename: "a.png", contentType: "image/png")
            let echoed = try await client.post("echo", body: .multipart(multipart))
            #expect(echoed.headers["Content-Type"] == "multipart/form-data; boundary=XyZ")
            let text = try #require(echoed.text)
            #expect(text.contains("--XyZ\r\nContent-Disposition: form-data; name=\"title\"\r\n\r\nHoliday\r\n"))
            #expect(
                text.contains(
                    "Content-Disposition: form-data; name=\"photo\"; filename=\"a.png\"\r\nContent-Type: image/png\r\n\r\nPNGDATA\r\n"
                ))
            #expect(text.hasSuffix("--XyZ--\r\n"))
        }
    }

    @Test("a file body streams from disk and multipart file parts read their file")
    func fileBodies() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = directory.url.appendingPathComponent("upload.bin")
        let bytes = Data.pattern(count: 300_000)
        try bytes.write(to: file)
        try await withServer { server throws in
            await server.route("PUT /api/upload") { request in Reply(body: request.body) }
            await server.route("POST /api/form") { request in Reply(body: request.body) }
            let client = HTTPClient(baseURL: server.apiURL)
            let sent = Locked<[TransferProgress]>([])
            let response = try await client.upload("upload", method: .put, file: file) { progress in
                sent.withLock { $0.append(progress) }
            }
            #expect(response.body == bytes)
            #expect(sent.withLock { $0.last?.fractionCompleted } == 1)

            var form = MultipartForm()
            form.add(file: file, name: "blob")
            let echoed = try await client.post("form", body: .multipart(form))
            #expect(echoed.body.count > bytes.count)
            #expect(echoed.body.range(of: bytes) != nil)
        }
    }
}
