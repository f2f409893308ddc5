import Foundation
import NetworkingTesting
import Testing
import _KitSupport

@testable import Boilerplate

// The example domain: an issue tracker whose `TrackedIssue` type is generated at build time by
// ModelGen's build plugin from Designs/Tracker.xcdatamodeld.

extension TrackedIssue: Identifiable {}

struct TrackerModel: Codable, Sendable, Equatable {
    var issues: [TrackedIssue] = []
}

struct OpenIssue: Command {
    var title: String
    func execute(_ model: inout TrackerModel) throws {
        guard !title.isEmpty else { throw MessageError("An issue needs a title.") }
        model.issues.append(TrackedIssue(title: title))
    }
}

struct CloseIssue: Command {
    var title: String
    func execute(_ model: inout TrackerModel) throws {
        guard let index = model.issues.firstIndex(where: { $0.title == title }) else {
            throw MessageError("There is no issue '\(title)'.")
        }
        model.issues[index].closed = true
    }
}

/// Pushes every issue to the server (new ones get their ids there) and takes the server's list.
struct SyncIssues: AsyncCommand {
    let remote: RemoteCollection<TrackedIssue>
    func execute(_ context: CommandContext<TrackerModel>) async throws {
        for issue in context.model.issues { _ = try await remote.save(issue) }
        let all = try await remote.fetchAll()
        try await context.mutate { $0.issues = all }
    }
}

/// iStructure's network-state service: follows `network:on` / `network:off` on the app's bus.
private final class NetworkStateService: AppService, @unchecked Sendable {
    private let bus: Bus
    private let lock = NSLock()
    private var seen: [String] = []
    private var tokens = Subscriptions()

    init(bus: Bus) { self.bus = bus }

    /// The network events seen while running, in order.
    var events: [String] { lock.withLock { seen } }

    func start(options: [String: any Sendable]) async throws {
        for name in ["network:on", "network:off"] {
            let token = bus.watch(name) { [weak self] event in
                guard let self else { return }
                self.lock.withLock { self.seen.append(event.name) }
            }
            lock.withLock { token.store(in: &tokens) }
        }
    }

    func stop() async throws { lock.withLock { tokens = Subscriptions() } }
}

/// A real REST server on 127.0.0.1 (NetworkingTesting's `TestServer`) that stores issues in
/// memory: GET/POST /api/issues, PUT /api/issues/<id>.
final class IssueServer: Sendable {
    private let server: TestServer
    private let stored = Locked<[Int64: TrackedIssue]>([:])

    var apiURL: URL { server.apiURL }
    var issues: [TrackedIssue] { stored.withLock { $0.values.sorted { ($0.id ?? 0) < ($1.id ?? 0) } } }

    static func start() async throws -> IssueServer {
        let issueServer = IssueServer(server: try await TestServer.start())
        await issueServer.addRoutes()
        return issueServer
    }

    private init(server: TestServer) { self.server = server }

    /// Adds an issue as if another client had created it.
    func insert(_ issue: TrackedIssue) {
        stored.withLock { issues in
            var issue = issue
            let id = (issues.keys.max() ?? 0) + 1
            issue.id = id
            issues[id] = issue
        }
    }

    func stop() async { await server.stop() }

    private func addRoutes() async {
        await server.route("GET /api/issues") { [self] _ in try .json(encoding: issues) }
        await server.route("POST /api/issues") { [self] request in
            var issue = try JSONDecoder().decode(TrackedIssue.self, from: request.body)
            issue.id = stored.withLock { issues in
                let id = (issues.keys.max() ?? 0) + 1
                issue.id = id
                issues[id] = issue
                return id
            }
            return try .json(encoding: issue, status: 201)
        }
        await server.route("PUT /api/issues/*") { [self] request in
            var issue = try JSONDecoder().decode(TrackedIssue.self, from: request.body)
            guard let id = Int64(request.path.split(separator: "/").last ?? "") else { return .status(404) }
            issue.id = id
            stored.withLock { $0[id] = issue }
            return try .json(encoding: issue)
        }
    }
}

@Suite("Issue tracker: every package together", .serialized)
struct IssueTrackerScenarioTests {
    @Test("the generated model type has a version hash and round-trips through Serialization")
    func generatedModel() throws {
        #expect(TrackedIssue.modelVersionHash.count == 64)
        let issue = TrackedIssue(id: 7, labels: ["bug"], title: "Crash on launch")
        let json = Serializer(.json)
        #expect(try json.read(TrackedIssue.self, from: json.data(issue)) == issue)
    }

    @Test("sync to the server and back: ids come from the server, activity is published, data survives a restart")
    func syncRoundTrip() async throws {
        let server = try await IssueServer.start()
        let folder = try AppFolder()
        defer { folder.remove() }
        do {
            let client = HTTPClient(baseURL: server.apiURL)
            let remote = RemoteCollection<TrackedIssue>(client: client, path: "issues")
            let app = try await AppCore(model: TrackerModel(), persistence: folder.persistence, http: client)
            app.services.register("net_state") { NetworkStateService(bus: app.bus) }
            try await app.services.start("net_state")

            try await app.run(OpenIssue(title: "Crash on launch"))
            try await app.run(OpenIssue(title: "Typo in settings"))
            server.insert(TrackedIssue(title: "Filed on the web"))
            try await app.run(SyncIssues(remote: remote))

            #expect(server.issues.map(\.title) == ["Filed on the web", "Crash on launch", "Typo in settings"])
            #expect(app.model.issues.map(\.id) == [1, 2, 3])
            let service = try #require(await app.services.service("net_state", as: NetworkStateService.self))
            #expect(service.events.first == "network:on")
            #expect(service.events.last == "network:off")
            #expect(client.requestsInFlight == 0)

            try await app.run(CloseIssue(title: "Crash on launch"))
            try await app.run(SyncIssues(remote: remote))
            #expect(server.issues.first { $0.id == 2 }?.closed == true)
            try await app.services.stop("net_state")

            let reopened = try await AppCore(model: TrackerModel(), persistence: folder.persistence)
            #expect(reopened.model.issues.map(\.title) == ["Filed on the web", "Crash on launch", "Typo in settings"])
            #expect(reopened.model.issues.map(\.closed) == [false, true, false])
        } catch {
            await server.stop()
            throw error
        }
        await server.stop()
    }

    @Test("a deep link closes an issue of the generated model through a command; undo and redo reach the file")
    func deepLinkUndoRedo() async throws {
        let folder = try AppFolder()
        defer { folder.remove() }
        let app = try await AppCore(model: TrackerModel(), persistence: folder.persistence)
        try app.router.add("/issues/:title/close", name: "close-issue") { _ in }
        try await app.run(OpenIssue(title: "crash"))
        try await app.run(OpenIssue(title: "typo"))

        let link = try app.router.resolve("tracker://issues/typo/close?from=mail")
        #expect(link.route.name == "close-issue")
        #expect(link.query["from"] == "mail")
        try await app.run(CloseIssue(title: try #require(link.params["title"])))
        func saved() throws -> [Bool] {
            try #require(app.fileStore).load(TrackerModel.self, from: "notes.json").issues.map(\.closed)
        }
        #expect(app.model.issues.map(\.closed) == [false, true])
        #expect(try saved() == [false, true])

        try await app.undo()
        #expect(app.model.issues.map(\.closed) == [false, false])
        #expect(try saved() == [false, false])
        try await app.redo()
        #expect(try saved() == [false, true])

        // A link to an issue that does not exist reaches the command, which refuses it and changes nothing.
        let missing = try app.router.resolve("/issues/ghost/close")
        await #expect(throws: (any Error).self) {
            try await app.run(CloseIssue(title: missing.params["title"] ?? ""))
        }
        #expect(try saved() == [false, true])
        #expect(throws: RouteError.self) { try app.router.resolve("/issues/typo/reopen") }
    }

    @Test("a failed sync leaves the model and the save file as they were")
    func failedSync() async throws {
        let server = try await IssueServer.start()
        let folder = try AppFolder()
        defer { folder.remove() }
        let client = HTTPClient(baseURL: server.apiURL)
        let app = try await AppCore(model: TrackerModel(), persistence: folder.persistence, http: client)
        try await app.run(OpenIssue(title: "Crash on launch"))
        await server.stop()
        let before = try #require(app.fileStore).load(TrackerModel.self, from: "notes.json")
        await #expect(throws: (any Error).self) {
            try await app.run(SyncIssues(remote: RemoteCollection(client: client, path: "issues")))
        }
        #expect(app.model == before)
        #expect(try #require(app.fileStore).load(TrackerModel.self, from: "notes.json") == before)
    }

    @MainActor
    @Test("operations drive a loading screen: empty, loaded, then failed once the server is gone")
    func loadingScreen() async throws {
        let server = try await IssueServer.start()
        let remote = RemoteCollection<TrackedIssue>(client: HTTPClient(baseURL: server.apiURL), path: "issues")
        let screen = LoadingModel(load: { try await remote.fetchAll() }, isEmpty: { $0.isEmpty })
        await screen.load()
        #expect(screen.state.isEmptyState)
        server.insert(TrackedIssue(title: "Crash on launch"))
        await screen.retry()
        #expect(screen.state.value?.map(\.title) == ["Crash on launch"])
        await server.stop()
        await screen.retry()
        #expect(screen.state.error != nil)
    }
}

extension LoadState {
    fileprivate var isEmptyState: Bool {
        if case .empty = self { return true }
        return false
    }
}
