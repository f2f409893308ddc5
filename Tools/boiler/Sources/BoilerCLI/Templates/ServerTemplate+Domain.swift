// The domain files of a server project: the note model, its errors, events, commands and domain.
extension ServerTemplate {
    static let noteHumanFile = """
        // Note.swift: yours to edit. The generated part of Note comes from Designs/Model.xcdatamodeld at
        // build time; add behaviour, versioning and the fields queries may use here.
        import Boilerplate
        import Foundation

        extension Note: Identifiable, Versioned, QueryableRecord {
            /// The version stamped on saved notes. When the design's stored shape changes
            /// (`Note.modelVersionHash`), raise it and add a migration from the previous version.
            public static let version = 1

            /// Steps that rewrite notes saved by older versions, oldest first.
            public static let migrations: [Migration] = []

            /// The fields the database filters and sorts on; each is a column with an index.
            public static let queryableFields: [QueryField<Note>] = [
                QueryField(\\.text, "text"), QueryField(\\.pinned, "pinned"), QueryField(\\.createdAt, "created_at"),
            ]
        }

        """

    static let domainError = """
        import Boilerplate

        /// What goes wrong in {{Name}}'s domain. The HTTP layer turns each case into problem details
        /// (RFC 9457) with the status ``status``.
        public enum {{Name}}Error: AppError, Equatable {
            /// There is no note with this id.
            case noteNotFound(id: String)
            /// There is no record of `resource` (a resource added with `boiler add resource`) with this id.
            case notFound(_ resource: String, id: String)
            /// A field of a request is missing or not acceptable.
            case invalidField(_ field: String, reason: String)

            /// A sentence for the person who sent the request.
            public var message: String {
                switch self {
                case .noteNotFound(let id): "There is no note with id '\\(id)'."
                case .notFound(let resource, let id): "There is no \\(resource) with id '\\(id)'."
                case .invalidField(let field, let reason): "The field '\\(field)' \\(reason)."
                }
            }

            /// The HTTP status the error stands for: 404 for a missing record, 422 for bad input.
            public var status: Int {
                switch self {
                case .noteNotFound, .notFound: 404
                case .invalidField: 422
                }
            }
        }

        """

    static let noteEvents = """
        import Boilerplate
        import Foundation

        /// Triggered on the bus after a note was created.
        public struct NoteCreated: Event {
            /// The note as stored.
            public var note: Note
        }

        /// Triggered on the bus after a note was changed.
        public struct NoteUpdated: Event {
            /// The note as stored now.
            public var note: Note
        }

        /// Triggered on the bus after a note was deleted.
        public struct NoteDeleted: Event {
            /// The deleted note's id.
            public var id: UUID
        }

        """

    static let noteCommands = """
        import Boilerplate
        import Foundation

        /// A change to the notes: the only way a note is created, changed or deleted. A command checks
        /// its input, writes through the ``NoteDomain``'s record store and announces what it did on the bus.
        public protocol NoteCommand: Sendable {
            /// What running the command gives back.
            associatedtype Result: Sendable
            /// Runs the command against `domain`.
            func run(in domain: NoteDomain) async throws -> Result
        }

        /// The longest text a note may hold, in characters.
        public let maximumNoteLength = 10_000

        /// Checks a note's text: not blank and not too long.
        func checkedText(_ text: String) throws({{Name}}Error) -> String {
            guard !text.allSatisfy(\\.isWhitespace) else { throw .invalidField("text", reason: "must not be blank") }
            guard text.count <= maximumNoteLength else {
                throw .invalidField("text", reason: "must be at most \\(maximumNoteLength) characters long")
            }
            return text
        }

        /// Creates a note. The id and date are inputs, so a test can name them.
        public struct CreateNote: NoteCommand {
            /// The note's text; it must not be blank.
            public var text: String
            /// Whether the note starts pinned.
            public var pinned: Bool
            /// The new note's id.
            public var id: UUID
            /// When the note was written.
            public var createdAt: Date

            /// Creates the command; the id and date default to new ones.
            public init(text: String, pinned: Bool = false, id: UUID = UUID(), createdAt: Date = Date()) {
                self.text = text
                self.pinned = pinned
                self.id = id
                self.createdAt = createdAt
            }

            /// Stores the note and triggers ``NoteCreated``.
            public func run(in domain: NoteDomain) async throws -> Note {
                let note = Note(createdAt: createdAt, id: id, pinned: pinned, text: try checkedText(text))
                try await domain.records.insert(note)
                domain.bus.trigger(NoteCreated(note: note))
                return note
            }
        }

        /// Changes a note's text, its pin, or both; a nil field keeps its value.
        public struct UpdateNote: NoteCommand {
            /// The note to change.
            public var id: UUID
            /// The new text, if it changes.
            public var text: String?
            /// The new pin, if it changes.
            public var pinned: Bool?

            /// Creates the command.
            public init(id: UUID, text: String? = nil, pinned: Bool? = nil) {
                self.id = id
                self.text = text
                self.pinned = pinned
            }

            /// Stores the changed note and triggers ``NoteUpdated``.
            public func run(in domain: NoteDomain) async throws -> Note {
                guard var note = try await domain.records.fetch(id: id) else {
                    throw {{Name}}Error.noteNotFound(id: id.uuidString)
                }
                if let text { note.text = try checkedText(text) }
                if let pinned { note.pinned = pinned }
                do {
                    try await domain.records.update(note)
                } catch StorageError.recordNotFound {
                    // Another instance deleted it between the read and the write.
                    throw {{Name}}Error.noteNotFound(id: id.uuidString)
                }
                domain.bus.trigger(NoteUpdated(note: note))
                return note
            }
        }

        /// Deletes a note.
        public struct DeleteNote: NoteCommand {
            /// The note to delete.
            public var id: UUID

            /// Creates the command.
            public init(id: UUID) { self.id = id }

            /// Deletes the note and triggers ``NoteDeleted``, or throws when there is no such note.
            public func run(in domain: NoteDomain) async throws {
                guard try await domain.records.fetch(id: id) != nil else {
                    throw {{Name}}Error.noteNotFound(id: id.uuidString)
                }
                try await domain.records.delete(id: id)
                domain.bus.trigger(NoteDeleted(id: id))
            }
        }

        """

    static let noteDomain = """
        import Boilerplate
        import Foundation

        /// {{Name}}'s domain: the notes in their record store and the bus their events go to.
        ///
        /// It holds nothing but these two: every answer comes from the database, so several server
        /// instances over one database behave as one.
        public struct NoteDomain: Sendable {
            /// Where the notes are kept (SQLite or PostgreSQL).
            public let records: RecordStore<Note>
            /// Where commands announce what they did.
            public let bus: Bus

            /// A domain over `records`, announcing on `bus`.
            public init(records: RecordStore<Note>, bus: Bus = Bus()) {
                self.records = records
                self.bus = bus
            }

            /// Runs a command: the only way notes change.
            @discardableResult
            public func run<C: NoteCommand>(_ command: C) async throws -> C.Result {
                try await command.run(in: self)
            }

            /// The note with `id`.
            /// - Throws: ``{{Name}}Error/noteNotFound(id:)`` when there is none.
            public func note(id: UUID) async throws -> Note {
                guard let note = try await records.fetch(id: id) else { throw {{Name}}Error.noteNotFound(id: id.uuidString) }
                return note
            }

            /// One page of notes, oldest first, filtered in the database.
            /// - Parameters:
            ///   - containing: Only notes whose text contains this.
            ///   - pinned: Only notes pinned (true) or not (false).
            ///   - limit: At most this many notes.
            ///   - offset: After skipping this many.
            public func notes(containing: String? = nil, pinned: Bool? = nil, limit: Int, offset: Int) async throws -> NotePage
            {
                var filter = RecordPredicate<Note>.all
                if let containing { filter = filter && .contains(\\.text, containing) }
                if let pinned { filter = filter && \\.pinned == pinned }
                let items = try await records.fetch(where: filter, sortedBy: \\.createdAt, limit: limit, offset: offset)
                let total = try await records.count(where: filter)
                return NotePage(items: items, total: total, limit: limit, offset: offset)
            }
        }

        /// One page of a list of notes.
        public struct NotePage: Codable, Sendable, Equatable {
            /// The notes on this page.
            public var items: [Note]
            /// How many notes match the filter, on every page.
            public var total: Int
            /// The page size asked for.
            public var limit: Int
            /// How many matching notes come before this page.
            public var offset: Int
        }

        """
}
