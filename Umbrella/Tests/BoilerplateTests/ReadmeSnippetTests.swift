import Boilerplate
import Foundation
import Testing

// The snippet, unchanged, inside a function so the test can run it.
private struct NotesModel: Codable, Sendable, Equatable { var notes: [String] = [] }
private struct AddNote: Command {
    var text: String
    func execute(_ model: inout NotesModel) throws { model.notes.append(text) }
}
private final class NetworkStateService: AppService {  // iStructure's service, as a protocol
    let bus: Bus
    init(bus: Bus) { self.bus = bus }
    func start(options: [String: any Sendable]) async throws { /* watch network:on / network:off */  }
    func stop() async throws {}
}

private func snippet() async throws -> [String] {
    let app = try await AppCore(model: NotesModel(), persistence: .file("model.json", in: .applicationSupport))
    app.services.register("net_state") { NetworkStateService(bus: app.bus) }  // $register
    try await app.services.start("net_state", options: ["verbose": true])  // $start
    try await app.run(AddNote(text: "hello"))  // command → model change → saved → event on app.bus
    print(app.model.notes)
    try app.router.add("/notes/:id") { match in print(match.params["id"]!) }
    try app.router.navigate(to: "/notes/1")
    try await app.services.stop("net_state")  // $stop
    let reopened = try await AppCore(model: NotesModel(), persistence: .file("model.json", in: .applicationSupport))
    assert(reopened.model.notes == ["hello"])  // restored from disk
    return reopened.model.notes
}

@Test("the README snippet runs: a command's change is saved and a second AppCore finds it")
func readmeSnippet() async throws {
    // The snippet saves to the real application-support folder of this process; start clean.
    let files = try FileStore(folder: .applicationSupport, app: ProcessInfo.processInfo.processName)
    if files.exists("model.json") { try files.remove("model.json") }
    defer { try? files.remove("model.json") }
    #expect(try await snippet() == ["hello"])
}
