import Commands
import EventBus
import Foundation
import Networking
import Router
import Storage

/// One object that owns an app's model store, command runner, event bus, route table,
/// services, and optionally its persistence and HTTP client.
///
/// ```swift
/// let app = try await AppCore(model: NotesModel(), persistence: .file("model.json", in: .applicationSupport))
/// try await app.run(AddNote(text: "hello"))      // command → model change → saved → event on app.bus
/// print(app.model.notes)
/// ```
///
/// Commands are the only way the model changes, and ``run(_:)-8v0ws``, ``undo()`` and
/// ``redo()`` are the way to run them. AppCore is a thin container over the runner's commit
/// step: with persistence, the runner's save step writes the model file, so every change is
/// on disk before ``run(_:)-8v0ws`` returns and before ``ModelDidChange`` is published on
/// ``bus`` (a `TransientCommand` is not waited for); a change whose save fails is rolled
/// back. An HTTP client's activity becomes the named events `network:on` and `network:off`.
public final class AppCore<Model: Codable & Sendable>: Sendable {
    /// The model store, for reading and observing. It takes changes only from ``runner``:
    /// handing it to another `CommandRunner` gives a runner whose commands fail with
    /// `CommandError.foreignStore`.
    public let store: ModelStore<Model>
    /// The runner every command goes through; it saves like ``run(_:)-8v0ws`` does (its errors
    /// are `CommandError`s, with the ``AppCoreError`` inside).
    public let runner: CommandRunner<Model>
    /// The app's event bus.
    public let bus: Bus
    /// The app's routes.
    public let router: RouteTable
    /// The app's services (`$register`, `$start`, `$stop`).
    public let services: ServiceRegistry
    /// The HTTP client, when one was given.
    public let http: HTTPClient?
    /// Where the model is saved, when persistence is configured.
    public let fileStore: FileStore?
    /// The model's file name inside ``fileStore``.
    public let modelFile: String?
    /// Where the app's load and save failures and ``services``' lifecycle events are logged.
    public let log: LogSink

    private let observation: ChangeObservation

    /// Creates the container, loading the saved model when persistence has one.
    /// - Parameters:
    ///   - model: The model to start with when nothing was saved yet.
    ///   - persistence: Where the model is saved; ``Persistence/none`` keeps it in memory.
    ///   - bus: The event bus; a new one by default.
    ///   - router: The route table; a new one by default.
    ///   - http: An HTTP client whose activity is published as `network:on`/`network:off`.
    ///   - undoLimit: How many commands can be undone.
    ///   - journalLimit: How many commands the runner's journal keeps; 0 (the default) keeps
    ///     no journal.
    ///   - middleware: Middleware around every command, outermost first.
    ///   - log: Where a model that cannot be loaded or saved is logged (`error`, source
    ///     `AppCore`, with the `file`) besides being thrown, and where ``services`` log.
    /// - Throws: ``AppCoreError/loadFailed(file:underlying:)`` when a saved model exists but
    ///   cannot be read (it is never replaced by `model`), or a storage error for the folder. A
    ///   model file moved aside as corrupt fails every launch the same way
    ///   (`StorageError.corrupt` naming the moved file) until the app calls
    ///   ``Persistence/restoreQuarantined()`` or ``Persistence/startFresh()``.
    public init(
        model: Model, persistence: Persistence = .none, bus: Bus = Bus(), router: RouteTable = RouteTable(),
        http: HTTPClient? = nil, undoLimit: Int = 100, journalLimit: Int = 0,
        middleware: [any CommandMiddleware<Model>] = [], log: LogSink = .discard
    ) async throws {
        var initial = model
        var save: SaveStep<Model>?
        switch persistence.kind {
        case .none:
            fileStore = nil
            modelFile = nil
        case .file(let name, let folder, let app):
            let files = try FileStore(folder: folder, app: app ?? ProcessInfo.processInfo.processName)
            // loadIfPresent, not exists + load: a save file moved aside as corrupt by an earlier
            // launch keeps failing the load until the app restores it or starts fresh.
            do {
                initial = try files.loadIfPresent(Model.self, from: name) ?? model
            } catch {
                let failure = AppCoreError.loadFailed(file: name, underlying: error)
                log.log(.error, failure.message, metadata: ["file": name], source: "AppCore")
                throw failure
            }
            fileStore = files
            modelFile = name
            save = .sync { model in
                do {
                    try files.save(model, as: name)
                } catch {
                    let failure = AppCoreError.saveFailed(file: name, underlying: error)
                    log.log(.error, failure.message, metadata: ["file": name], source: "AppCore")
                    throw failure
                }
            }
        }
        let store = ModelStore(initial)
        self.store = store
        self.runner = CommandRunner(
            store: store, undoLimit: undoLimit, journalLimit: journalLimit, middleware: middleware, save: save)
        self.bus = bus
        self.router = router
        self.services = ServiceRegistry(log: log)
        self.log = log
        self.http = http
        // The store announces a change only once it is saved, in commit order.
        self.observation = store.observe { [bus] change in bus.trigger(ModelDidChange(change)) }
        if let http { NetworkActivityEvents.publish(activityOf: http, on: bus) }
    }

    deinit { observation.cancel() }

    /// A consistent snapshot of the model: every published change, none still being saved.
    public var model: Model { store.model }

    /// The model as an observable, read-only view for SwiftUI and `withObservationTracking`:
    /// a view that reads `app.state.notes` re-renders only when `notes` changes. It shows each
    /// change once it is saved and published, before `run` returns.
    public var state: ModelState<Model> { store.state }
}
