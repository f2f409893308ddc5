// The files `boiler add resource` writes in an app project: the entity, a collection model the
// commands change through the kit's CommandRunner, the commands and their tests.
extension ResourceTemplates {
    static func app(_ n: Names) -> [PlannedFile] {
        [
            PlannedFile("Sources/\(n.core)/Model/\(n.type).swift", entity(n, server: false)),
            PlannedFile("Sources/\(n.core)/Model/\(n.type)List.swift", appList(n)),
            PlannedFile("Sources/\(n.core)/Commands/\(n.type)Commands.swift", appCommands(n)),
            PlannedFile("Tests/\(n.core)Tests/\(n.type)CommandsTests.swift", appTests(n)),
        ]
    }

    /// How to use the new commands from the app's own model.
    static func appHint(_ n: Names) -> String {
        """
        Run the commands on a ModelStore(\(n.type)List()) through a CommandRunner, or keep the \(n.words) records \
        in \(n.module)Model with `public var \(n.many) = \(n.type)List()`.
        """
    }

    static func appList(_ n: Names) -> String {
        """
        import Boilerplate
        import Foundation

        /// The \(n.words) records: the model the \(n.type) commands change. Anything may read it; only
        /// commands change it.
        public struct \(n.type)List: Codable, Sendable, Equatable {
            /// The records, oldest first.
            public var items: [\(n.type)] = []

            /// A list holding `items`.
            public init(items: [\(n.type)] = []) { self.items = items }

            /// The \(n.words) with `id`, or nil.
            public subscript(id: UUID) -> \(n.type)? { items.first { $0.id == id } }
        }

        """
    }

    /// `try checked(…)` for text fields, the value as it is for the others.
    static func appChecked(_ n: Names, field: ResourceSpec.Field, value: String) -> String {
        guard field.type == .string else { return value }
        let name = SwiftSource.literal(field.name)
        return field.optional
            ? "try \(n.type)List.checked(\(value), \(name))"
            : "try \(n.type)List.checked(\(value), \(name), required: true)"
    }

    static func appCommands(_ n: Names) -> String {
        let fields = n.spec.fields
        let createProperties = fields.map { "    /// The \($0.name).\n    public var \($0.name): \($0.swiftType)\n" }
        let assignments = fields.map { "        self.\($0.name) = \($0.name)\n" }
        let createArguments = fields.map { "\($0.name): \(appChecked(n, field: $0, value: "self.\($0.name)"))" }
            .joined(separator: ", ")
        let updateProperties = fields.map {
            "    /// The new \($0.name), if it changes" + ($0.optional ? "; `.some(nil)` clears it" : "")
                + ".\n    public var \($0.name): \($0.swiftType)?\n"
        }
        let updateParameters = fields.map { "\($0.name): \($0.swiftType)? = nil" }.joined(separator: ", ")
        let updates = fields.map {
            "        if let value = self.\($0.name) { changed.\($0.name) = \(appChecked(n, field: $0, value: "value")) }\n"
        }
        return """
            import Boilerplate
            import Foundation

            extension \(n.type)List {
                /// The longest text a \(n.words)'s text field may hold, in characters.
                public static let maximumTextLength = 10_000

                /// Checks a text field: not blank when `required`, and not too long.
                static func checked(_ text: String, _ field: String, required: Bool) throws -> String {
                    if required && text.allSatisfy(\\.isWhitespace) {
                        throw MessageError("The field '\\(field)' must not be blank.")
                    }
                    guard text.count <= maximumTextLength else {
                        throw MessageError("The field '\\(field)' must be at most \\(maximumTextLength) characters long.")
                    }
                    return text
                }

                /// Checks an optional text field: nil, or not too long.
                static func checked(_ text: String?, _ field: String) throws -> String? {
                    guard let text else { return nil }
                    return try checked(text, field, required: false)
                }
            }

            /// Adds a \(n.words). The id and date are inputs, so replaying the command gives the same model.
            public struct Create\(n.type): Command {
            \(createProperties.joined())    /// The new \(n.words)'s id.
                public var id: UUID
                /// When the \(n.words) was created.
                public var createdAt: Date

                /// Creates the command; the id and date default to new ones.
                public init(\(parameters(fields)), id: UUID = UUID(), createdAt: Date = Date()) {
            \(assignments.joined())        self.id = id
                    self.createdAt = createdAt
                }

                /// Appends the \(n.words), or throws when a field is not acceptable or the id is taken.
                public func execute(_ model: inout \(n.type)List) throws -> \(n.type) {
                    guard model[self.id] == nil else { throw MessageError("There is already a \(n.words) \\(self.id).") }
                    let created = \(n.type)(id: self.id, createdAt: self.createdAt, \(createArguments))
                    model.items.append(created)
                    return created
                }
            }

            /// Changes a \(n.words)'s fields; a nil field keeps its value.
            public struct Update\(n.type): Command {
                /// The \(n.words) to change.
                public var id: UUID
            \(updateProperties.joined())
                /// Creates the command.
                public init(id: UUID, \(updateParameters)) {
                    self.id = id
            \(assignments.joined())    }

                /// Changes the \(n.words), or throws when there is none or a field is not acceptable.
                public func execute(_ model: inout \(n.type)List) throws -> \(n.type) {
                    guard let index = model.items.firstIndex(where: { $0.id == self.id }) else {
                        throw MessageError("There is no \(n.words) \\(self.id).")
                    }
                    var changed = model.items[index]
            \(updates.joined())        model.items[index] = changed
                    return changed
                }
            }

            /// Deletes a \(n.words).
            public struct Delete\(n.type): Command {
                /// The \(n.words) to delete.
                public var id: UUID

                /// Creates the command.
                public init(id: UUID) { self.id = id }

                /// Removes the \(n.words), or throws when there is none.
                public func execute(_ model: inout \(n.type)List) throws {
                    guard let index = model.items.firstIndex(where: { $0.id == self.id }) else {
                        throw MessageError("There is no \(n.words) \\(self.id).")
                    }
                    model.items.remove(at: index)
                }
            }

            """
    }

    static func appTests(_ n: Names) -> String {
        let fields = n.spec.fields
        let required = fields.filter { !$0.optional }
        let first = fields[0]
        let blank = required.first { $0.type == .string }
        let blankTest =
            blank.map { text in
                """

                        #expect(throws: MessageError.self) {
                            try runner.execute(Create\(n.type)(\(createArguments(required, index: 0, override: (text.name, "\" \\n\"")))))
                        }
                """
            } ?? ""
        let fieldChecks = fields.map { "        #expect(created.\($0.name) == \(sample($0.type, 0).swift))\n" }.joined()
        return """
            import Boilerplate
            import Foundation
            import Testing

            @testable import \(n.core)

            // Written by `boiler add resource \(n.type) \(fieldList(n))`; yours to edit.
            @Suite("\(n.type) commands")
            struct \(n.type)CommandsTests {
                @Test("create, update and delete change the \(n.words) records through the command runner")
                func lifecycle() throws {
                    let store = ModelStore(\(n.type)List())
                    let runner = CommandRunner(store: store)
                    let created = try runner.execute(Create\(n.type)(\(createArguments(fields, index: 0))))
            \(fieldChecks)        #expect(store.model.items == [created])
                    let updated = try runner.execute(Update\(n.type)(id: created.id, \(first.name): \(sample(first.type, 1).swift)))
                    #expect(updated.\(first.name) == \(sample(first.type, 1).swift))
                    #expect(store.model[created.id] == updated)
                    try runner.execute(Delete\(n.type)(id: created.id))
                    #expect(store.model.items.isEmpty)
                }

                @Test("a refused command leaves the model as it was")
                func refused() throws {
                    let store = ModelStore(\(n.type)List())
                    let runner = CommandRunner(store: store)
                    #expect(throws: MessageError.self) {
                        try runner.execute(Update\(n.type)(id: UUID(), \(first.name): \(sample(first.type, 1).swift)))
                    }
                    #expect(throws: MessageError.self) { try runner.execute(Delete\(n.type)(id: UUID())) }\(blankTest)
                    #expect(store.model == \(n.type)List())
                }
            }

            """
    }
}
