import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite("boiler new --template server, end to end", .serialized)
struct ServerTemplateTests {
    @Test("the server template and a resource added to it build, pass their tests, serve REST and exit 0 on SIGTERM")
    func serverTemplate() async throws {
        let scratch = try ScratchFolder()
        defer { scratch.remove() }
        // Not "Notes": the app template's end-to-end test makes a Notes project, and in a shared
        // build folder two projects of one name would build over each other's products.
        let project = scratch.url.appendingPathComponent("Board")
        let made = try await BoilerProcess.boiler(
            [
                "new", "Board", "--template", "server", "--kit-path", BoilerProcess.kitRoot.path, "--output",
                project.path, "--no-interactive", "--no-git",
            ], in: scratch.url)
        #expect(made.status == 0, "\(made.output)")
        // The resource is added before the first build, so the one build covers the template and
        // the generated resource (Hummingbird builds take minutes).
        let added = try await BoilerProcess.boiler(
            [
                "add", "resource", "Tag", "name:String", "count:Int", "note:String?", "done:Bool=false", "--project",
                project.path,
            ],
            in: scratch.url)
        #expect(added.status == 0, "\(added.output)")
        #expect(added.output.contains("Wrote Sources/BoardCore/Generated/_Resources.swift"))
        let refused = try await BoilerProcess.boiler(
            ["add", "resource", "Tags", "name:String", "--project", project.path], in: scratch.url)
        #expect(refused.status == 64, "\(refused.output)")
        // A default that would break out of its string literal is refused, naming the field.
        let hostile = try await BoilerProcess.boiler(
            ["add", "resource", "Label", #"title:String=a"b"#, "--project", project.path], in: scratch.url)
        #expect(hostile.status == 64, "\(hostile.output)")
        #expect(hostile.output.contains("the default of 'title'"), "\(hostile.output)")
        // One part of every kind, so the same build shows they compile and their tests pass.
        for (kind, name) in [
            ("command", "ArchiveNote"), ("route", "UserStats"), ("service", "Sync"), ("model", "Label"),
        ] {
            let part = try await BoilerProcess.boiler(["add", kind, name, "--project", project.path], in: scratch.url)
            #expect(part.status == 0, "\(part.output)")
        }
        let started = ContinuousClock.now
        let build = try await BoilerProcess.swift(["build", "--build-tests"], in: project)
        try #require(build.status == 0, "\(build.output)")
        let built = ContinuousClock.now
        #expect(try await KitImportCheck.problems(in: project) == [])
        let test = try await BoilerProcess.swift(["test", "--skip-build"], in: project)
        #expect(test.status == 0, "\(test.output)")
        for added in ["ArchiveNote changes the notes as intended", "GET /user-stats answers"] {
            #expect(test.output.contains(added), "the added part's test did not run: \(added)")
        }
        print("server template: build \(built - started), test \(ContinuousClock.now - built)")

        let executable = SharedBuildFolder.products(of: project).appendingPathComponent("Board")
        let server = try RunningServer(
            executable, in: project,
            environment: ["PORT": "0", "DATABASE_PATH": project.appendingPathComponent("e2e.sqlite").path])
        defer { server.kill() }
        let base = try await server.baseURL(within: .seconds(60))

        let (created, createdResponse) = try await HTTP.send(
            "POST", base.appendingPathComponent("notes"), #"{"text": "Milk"}"#)
        #expect(createdResponse.statusCode == 201)
        let note = try #require(try JSONSerialization.jsonObject(with: created) as? [String: Any])
        let id = try #require(note["id"] as? String)
        #expect(note["text"] as? String == "Milk")
        #expect(note["pinned"] as? Bool == false)

        let (list, listResponse) = try await HTTP.send(
            "GET", URL(string: "\(base.absoluteString)/notes?q=Milk&limit=5")!)
        #expect(listResponse.statusCode == 200)
        let page = try #require(try JSONSerialization.jsonObject(with: list) as? [String: Any])
        #expect(page["total"] as? Int == 1)

        let (_, getResponse) = try await HTTP.send("GET", base.appendingPathComponent("notes/\(id)"))
        #expect(getResponse.statusCode == 200)
        let (_, deleteResponse) = try await HTTP.send("DELETE", base.appendingPathComponent("notes/\(id)"))
        #expect(deleteResponse.statusCode == 204)
        let (problem, missingResponse) = try await HTTP.send("GET", base.appendingPathComponent("notes/\(id)"))
        #expect(missingResponse.statusCode == 404)
        #expect(missingResponse.value(forHTTPHeaderField: "Content-Type") == "application/problem+json")
        #expect(String(decoding: problem, as: UTF8.self).contains("There is no note with id"))

        let (stats, statsResponse) = try await HTTP.send("GET", base.appendingPathComponent("user-stats"))
        #expect(statsResponse.statusCode == 200)
        #expect(String(decoding: stats, as: UTF8.self) == "UserStats")

        let (tag, tagResponse) = try await HTTP.send(
            "POST", base.appendingPathComponent("tags"), #"{"name": "urgent", "count": 3}"#)
        #expect(tagResponse.statusCode == 201, "\(String(decoding: tag, as: UTF8.self))")
        let (tags, tagsResponse) = try await HTTP.send("GET", URL(string: "\(base.absoluteString)/tags?q=urg")!)
        #expect(tagsResponse.statusCode == 200)
        let tagPage = try #require(try JSONSerialization.jsonObject(with: tags) as? [String: Any])
        #expect(tagPage["total"] as? Int == 1)
        // `done` has a default, so the POST without it made an undone tag, which the filter finds.
        let (undone, _) = try await HTTP.send("GET", URL(string: "\(base.absoluteString)/tags?done=false")!)
        let undonePage = try #require(try JSONSerialization.jsonObject(with: undone) as? [String: Any])
        #expect(undonePage["total"] as? Int == 1)
        let (_, badTag) = try await HTTP.send("POST", base.appendingPathComponent("tags"), #"{"count": 3}"#)
        #expect(badTag.statusCode == 422)
        // A body over a route's limit (the notes read at most some 44 KB), sent as curl would: a 413
        // problem, not a 500 logged as a server failure; for the template's routes and an added resource's.
        let large = #"{"text": ""# + String(repeating: "a", count: 2 << 20) + #""}"#
        for path in ["notes", "tags"] {
            let (tooLarge, tooLargeResponse) = try await HTTP.send("POST", base.appendingPathComponent(path), large)
            #expect(tooLargeResponse.statusCode == 413, "POST /\(path): \(String(decoding: tooLarge, as: UTF8.self))")
            #expect(tooLargeResponse.value(forHTTPHeaderField: "Content-Type") == "application/problem+json")
            #expect(String(decoding: tooLarge, as: UTF8.self).contains("problem:content-too-large"))
        }

        // The sync protocol beside REST (/sync/<resource>): a note created through REST is in the
        // feed at revision 0; a device's edit on revision 0 applies, a second device's is a 409
        // holding the server's note, and a replay of the first is answered as the first time.
        let (synced, _) = try await HTTP.send("POST", base.appendingPathComponent("notes"), #"{"text": "Synced"}"#)
        let syncedNote = try #require(try JSONSerialization.jsonObject(with: synced) as? [String: Any])
        let syncedID = try #require(syncedNote["id"] as? String)
        #expect(syncedNote["revision"] as? Int == 0)
        let (feed, feedResponse) = try await HTTP.send("GET", URL(string: "\(base.absoluteString)/sync/notes/changes")!)
        #expect(feedResponse.statusCode == 200)
        let entries = try #require(
            (try JSONSerialization.jsonObject(with: feed) as? [String: Any])?["entries"] as? [[String: Any]])
        let record = try #require(entries.first { $0["id"] as? String == syncedID }?["record"] as? [String: Any])
        var edit = record
        edit["text"] = "Synced, edited"
        let editJSON = String(decoding: try JSONSerialization.data(withJSONObject: edit), as: UTF8.self)
        func put(_ device: String) async throws -> (Data, HTTPURLResponse) {
            try await HTTP.send(
                "PUT", base.appendingPathComponent("sync/notes/\(syncedID)"), editJSON,
                headers: ["Sync-Client-ID": device, "Idempotency-Key": "edit-1", "Sync-Base-Revision": "0"])
        }
        let (_, won) = try await put("device-a")
        #expect(won.statusCode == 200)
        let (lost, lostResponse) = try await put("device-b")
        #expect(lostResponse.statusCode == 409, "\(String(decoding: lost, as: UTF8.self))")
        #expect(String(decoding: lost, as: UTF8.self).contains(#""reason":"staleRevision""#))
        let (_, replayed) = try await put("device-a")
        #expect(replayed.statusCode == 200)
        #expect(replayed.value(forHTTPHeaderField: "Sync-Replayed") == "true")
        let (after, _) = try await HTTP.send("GET", base.appendingPathComponent("notes/\(syncedID)"))
        let afterNote = try #require(try JSONSerialization.jsonObject(with: after) as? [String: Any])
        #expect(afterNote["text"] as? String == "Synced, edited" && afterNote["revision"] as? Int == 1)
        // A sync write passes the commands' field checks: a blank text is refused, naming the field.
        var blank = edit
        blank["text"] = "  "
        let (refusedBody, refusedResponse) = try await HTTP.send(
            "PUT", base.appendingPathComponent("sync/notes/\(syncedID)"),
            String(decoding: try JSONSerialization.data(withJSONObject: blank), as: UTF8.self),
            headers: ["Sync-Client-ID": "device-a", "Idempotency-Key": "edit-2", "Sync-Base-Revision": "1"])
        #expect(refusedResponse.statusCode == 422, "\(String(decoding: refusedBody, as: UTF8.self))")
        #expect(String(decoding: refusedBody, as: UTF8.self).contains(#""field":"text""#))
        let (_, tagFeed) = try await HTTP.send("GET", URL(string: "\(base.absoluteString)/sync/tags/changes")!)
        #expect(tagFeed.statusCode == 200)

        try await syncedApp(in: scratch, server: base, sharingBuildOf: project)

        // A second instance on the same database: the two behave as one, as behind a load balancer.
        let second = try RunningServer(
            executable, in: project,
            environment: ["PORT": "0", "DATABASE_PATH": project.appendingPathComponent("e2e.sqlite").path])
        defer { second.kill() }
        let otherBase = try await second.baseURL(within: .seconds(60))
        let (shared, _) = try await HTTP.send("POST", base.appendingPathComponent("notes"), #"{"text": "Shared"}"#)
        let sharedID = try #require(
            (try JSONSerialization.jsonObject(with: shared) as? [String: Any])?["id"] as? String)
        let (_, seenByOther) = try await HTTP.send("GET", otherBase.appendingPathComponent("notes/\(sharedID)"))
        #expect(seenByOther.statusCode == 200)
        let (_, deletedByOther) = try await HTTP.send("DELETE", otherBase.appendingPathComponent("notes/\(sharedID)"))
        #expect(deletedByOther.statusCode == 204)
        let (_, goneForFirst) = try await HTTP.send("GET", base.appendingPathComponent("notes/\(sharedID)"))
        #expect(goneForFirst.statusCode == 404)

        #expect(try await second.terminate(within: .seconds(30)) == 0, "\(second.output)")
        let status = try await server.terminate(within: .seconds(30))
        #expect(status == 0, "\(server.output)")
        // The sync edit announced NoteUpdated like a command: the activity log logged it.
        #expect(
            server.output.split(separator: "\n").contains { $0.contains("Note updated") && $0.contains(syncedID) },
            "the activity log did not see the sync write: \(server.output)")
        #expect(
            !server.output.contains("Request failed"), "a client's mistake was logged as a failure: \(server.output)")

        try await postgresVariant(in: scratch, sharingBuildOf: project)
    }

    /// An app project with the server's resource added `--synced` (`boiler add resource Tag … --synced`)
    /// builds, and its own tests pass with `POCKET_SYNC_URL` naming the running server: the generated
    /// round-trip test creates a tag in the app's synced store and syncs it (the server then has it),
    /// changes it through the server's REST route, and syncs the change back. The app shares the
    /// server's build (the kit and BoilerplateSync are compiled already): only its own code compiles.
    func syncedApp(in scratch: ScratchFolder, server base: URL, sharingBuildOf serverProject: URL) async throws {
        // Not "Notes" or "Board": projects of one name would build over each other's products.
        let project = scratch.url.appendingPathComponent("Pocket")
        let made = try await BoilerProcess.boiler(
            [
                "new", "Pocket", "--template", "app", "--kit-path", BoilerProcess.kitRoot.path, "--output",
                project.path, "--no-interactive", "--no-git",
            ], in: scratch.url)
        #expect(made.status == 0, "\(made.output)")
        let added = try await BoilerProcess.boiler(
            [
                "add", "resource", "Tag", "name:String", "count:Int", "note:String?", "done:Bool=false", "--synced",
                "--project", project.path,
            ], in: scratch.url)
        #expect(added.status == 0, "\(added.output)")
        #expect(added.output.contains("Wrote Sources/PocketCore/Services/TagSyncService.swift"), "\(added.output)")
        let buildFolder =
            SharedBuildFolder.url == nil ? ["--scratch-path", serverProject.appendingPathComponent(".build").path] : []
        let started = ContinuousClock.now
        let build = try await BoilerProcess.swift(["build", "--build-tests"] + buildFolder, in: project)
        try #require(build.status == 0, "\(build.output)")
        let built = ContinuousClock.now
        #expect(try await KitImportCheck.problems(in: project) == [])
        let test = try await BoilerProcess.swift(
            ["test", "--skip-build"] + buildFolder, in: project, environment: ["POCKET_SYNC_URL": base.absoluteString])
        #expect(test.status == 0, "\(test.output)")
        let roundTrip = "a tag made in the app reaches the server, and a change made on the server comes back"
        #expect(
            test.output.split(separator: "\n").contains { $0.contains(roundTrip) && $0.contains("passed") },
            "the round trip did not run: \(test.output)")
        print("synced app: build \(built - started), test \(ContinuousClock.now - built)")
        // The server has the app's tag, with the change made on the server (sample "Milk", then "Bread").
        let (tags, tagsResponse) = try await HTTP.send("GET", URL(string: "\(base.absoluteString)/tags?q=Bread")!)
        #expect(tagsResponse.statusCode == 200)
        let page = try #require(try JSONSerialization.jsonObject(with: tags) as? [String: Any])
        #expect(page["total"] as? Int == 1, "\(String(decoding: tags, as: UTF8.self))")
    }

    /// `--database postgres`: the project builds and passes its own tests, which start a real
    /// PostgreSQL through StoragePostgresTesting (skipped, saying why, where PostgreSQL is not
    /// installed; CI sets BOILERPLATE_REQUIRE_POSTGRES, so there they must run). Without a shared
    /// build folder it builds in the SQLite project's: the dependencies both share (Hummingbird,
    /// NIO, the kit) are compiled once.
    func postgresVariant(in scratch: ScratchFolder, sharingBuildOf sqliteProject: URL) async throws {
        let project = scratch.url.appendingPathComponent("BoardPG")
        let made = try await BoilerProcess.boiler(
            [
                "new", "Board", "--template", "server", "--database", "postgres", "--kit-path",
                BoilerProcess.kitRoot.path, "--output", project.path, "--no-interactive", "--no-git",
            ], in: scratch.url)
        try #require(made.status == 0, "\(made.output)")
        let buildFolder =
            SharedBuildFolder.url == nil ? ["--scratch-path", sqliteProject.appendingPathComponent(".build").path] : []
        let started = ContinuousClock.now
        let build = try await BoilerProcess.swift(["build", "--build-tests"] + buildFolder, in: project)
        try #require(build.status == 0, "\(build.output)")
        let built = ContinuousClock.now
        #expect(try await KitImportCheck.problems(in: project) == [])
        let test = try await BoilerProcess.swift(["test", "--skip-build"] + buildFolder, in: project)
        #expect(test.status == 0, "\(test.output)")
        #expect(test.output.contains("Note routes on PostgreSQL"), "\(test.output)")
        print("server template on PostgreSQL: build \(built - started), test \(ContinuousClock.now - built)")
    }

    @Test("--database postgres writes a project on StoragePostgres that reads DATABASE_URL")
    func postgresPlan() async throws {
        let scratch = try ScratchFolder()
        defer { scratch.remove() }
        let made = try await BoilerProcess.boiler(
            [
                "new", "Notes", "--template", "server", "--database", "postgres", "--kit-path", "/k", "--no-git",
                "--no-interactive",
            ],
            in: scratch.url)
        #expect(made.status == 0, "\(made.output)")
        let project = scratch.url.appendingPathComponent("Notes")
        let manifest = try String(contentsOf: project.appendingPathComponent("Package.swift"), encoding: .utf8)
        #expect(manifest.contains(#".product(name: "StoragePostgres", package: "k")"#))
        let readme = try String(contentsOf: project.appendingPathComponent("README.md"), encoding: .utf8)
        #expect(readme.contains("`DATABASE_URL`"))
        let wrong = try await BoilerProcess.boiler(
            ["new", "Lib", "--template", "library", "--database", "postgres", "--no-git", "--no-interactive"],
            in: scratch.url)
        #expect(wrong.status == 64)
        #expect(wrong.output.contains("--template server"))
    }
}

/// The generated server's executable, running; its output is collected as it comes.
final class RunningServer: @unchecked Sendable {
    private let process = Process()
    private let collected = CollectedOutput()

    init(_ executable: URL, in folder: URL, environment extra: [String: String]) throws {
        process.executableURL = executable
        process.currentDirectoryURL = folder
        process.environment = ProcessInfo.processInfo.environment.merging(extra) { _, new in new }
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        process.standardInput = FileHandle.nullDevice
        try process.run()
        // Blocking reads on a thread of their own, not a readabilityHandler: tearing down the
        // dispatch read source behind one can crash libdispatch on Linux
        // (swift-corelibs-libdispatch#949), and a read never holds a thread of Swift concurrency.
        // The thread ends at the end of the output, when the server has exited.
        let reading = pipe.fileHandleForReading
        Thread { [collected] in
            while case let chunk = reading.availableData, !chunk.isEmpty {
                collected.append(chunk)
            }
        }.start()
    }

    var output: String { collected.text }

    /// The address from the "listening on" line the server prints once it listens.
    /// The output is read before the clock, every time: a task can wake long after its nap on a
    /// loaded machine, and a line that came meanwhile still counts.
    func baseURL(within limit: Duration) async throws -> URL {
        let deadline = ContinuousClock.now + limit
        while true {
            if let line = output.split(separator: "\n").first(where: { $0.contains("listening on http://") }),
                let start = line.range(of: "http://"), let url = URL(string: String(line[start.lowerBound...]))
            {
                return url
            }
            guard process.isRunning, ContinuousClock.now < deadline else { break }
            try await Task.sleep(for: .milliseconds(100))
        }
        throw ServerFailure(message: "the server did not say where it listens: \(output)")
    }

    /// Sends SIGTERM and returns the exit status once the process ends.
    func terminate(within limit: Duration) async throws -> Int32 {
        process.terminate()
        let deadline = ContinuousClock.now + limit
        while process.isRunning {
            guard ContinuousClock.now < deadline else {
                throw ServerFailure(message: "no exit after SIGTERM: \(output)")
            }
            try await Task.sleep(for: .milliseconds(100))
        }
        return process.terminationStatus
    }

    func kill() {
        if process.isRunning { process.interrupt() }
    }
}

/// What a child process has printed so far, appended to by the thread that reads its pipe.
final class CollectedOutput: @unchecked Sendable {
    // @unchecked: `data` is only touched while `lock` is held.
    private let lock = NSLock()
    private var data = Data()

    func append(_ chunk: Data) { lock.withLock { data.append(chunk) } }
    var text: String { lock.withLock { String(decoding: data, as: UTF8.self) } }
}

struct ServerFailure: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}

/// One HTTP request with URLSession: what curl would do.
enum HTTP {
    static func send(
        _ method: String, _ url: URL, _ json: String? = nil, headers: [String: String] = [:]
    ) async throws -> (Data, HTTPURLResponse) {
        var request = URLRequest(url: url)
        request.httpMethod = method
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        if let json {
            request.httpBody = Data(json.utf8)
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        let (data, response) = try await URLSession.shared.data(for: request)
        guard let http = response as? HTTPURLResponse else {
            throw ServerFailure(message: "\(method) \(url) got no HTTP response")
        }
        return (data, http)
    }
}
