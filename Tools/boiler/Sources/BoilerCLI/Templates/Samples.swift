/// Sample code for each kit package a project depends on; a package left out by `--packages`
/// takes its samples with it.
enum Samples {
    static func files(for options: ProjectOptions, module: String) -> [PlannedFile] {
        var files: [PlannedFile] = []
        if options.has("Commands") {
            files.append(PlannedFile("Sources/\(module)/Items/ItemsModel.swift", itemsModel))
            files.append(PlannedFile("Sources/\(module)/Items/AddItem.swift", addItem))
            files.append(PlannedFile("Tests/\(module)Tests/AddItemTests.swift", addItemTests(module)))
        }
        if options.has("EventBus") {
            files.append(PlannedFile("Sources/\(module)/Events/ItemAdded.swift", itemAdded))
            files.append(PlannedFile("Tests/\(module)Tests/ItemAddedTests.swift", itemAddedTests(module)))
        }
        if options.has("Router") {
            files.append(PlannedFile("Sources/\(module)/Routes/ItemRoutes.swift", itemRoutes))
            files.append(PlannedFile("Tests/\(module)Tests/ItemRoutesTests.swift", itemRoutesTests(module)))
        }
        return files
    }

    static let itemsModel = """
        /// The model: plain values that anything may read and only commands may change.
        public struct ItemsModel: Sendable, Equatable, Codable {
            /// The items, oldest first.
            public var items: [String] = []

            /// An empty model.
            public init() {}
        }

        """

    static let addItem = """
        import {{import:Commands}}

        /// Adds an item: the only way an item gets into the model.
        public struct AddItem: Command {
            /// The item's text; it must not be empty.
            public var text: String

            /// Creates the command.
            public init(text: String) { self.text = text }

            /// Appends the item, or throws when its text is empty.
            public func execute(_ model: inout ItemsModel) throws {
                guard !text.isEmpty else { throw {{Name}}Error.emptyItem }
                model.items.append(text)
            }
        }

        """

    static func addItemTests(_ module: String) -> String {
        """
        import {{import:Commands}}
        import Testing
        @testable import \(module)

        @Suite("AddItem")
        struct AddItemTests {
            @Test("adds an item to the model")
            func addsAnItem() throws {
                let store = ModelStore(ItemsModel())
                let runner = CommandRunner(store: store)
                try runner.execute(AddItem(text: "Milk"))
                #expect(store.model.items == ["Milk"])
            }

            @Test("refuses an empty item and leaves the model as it was")
            func refusesEmptyItems() {
                let store = ModelStore(ItemsModel())
                let runner = CommandRunner(store: store)
                #expect(throws: {{Name}}Error.emptyItem) { try runner.execute(AddItem(text: "")) }
                #expect(store.model.items.isEmpty)
            }
        }

        """
    }

    static let itemAdded = """
        import {{import:EventBus}}

        /// Triggered after an item was added.
        public struct ItemAdded: Event {
            /// The item's text.
            public var text: String

            /// Creates the event.
            public init(text: String) { self.text = text }
        }

        """

    static func itemAddedTests(_ module: String) -> String {
        """
        import {{import:EventBus}}
        import Testing
        @testable import \(module)

        @Test("subscribers hear about added items")
        func subscribersHearAboutItems() {
            final class Heard: @unchecked Sendable { var texts: [String] = [] }
            let heard = Heard()
            let bus = Bus()
            let token = bus.watch(ItemAdded.self) { event in heard.texts.append(event.text) }
            bus.trigger(ItemAdded(text: "Milk"))
            token.cancel()
            bus.trigger(ItemAdded(text: "Eggs"))
            #expect(heard.texts == ["Milk"])
        }

        """
    }

    static let itemRoutes = """
        import {{import:Router}}

        /// The project's routes: deep links to items.
        public enum ItemRoutes {
            /// A route table with `/items` and `/items/:id` (named `item`).
            public static func table(onItem: @escaping @Sendable (Int) -> Void) throws -> RouteTable {
                let routes = RouteTable()
                try routes.add("/items") { _ in }
                try routes.add("/items/:id(int)", name: "item") { match in
                    onItem(match.int("id") ?? 0)
                }
                return routes
            }
        }

        """

    static func itemRoutesTests(_ module: String) -> String {
        """
        import {{import:Router}}
        import Testing
        @testable import \(module)

        @Test("deep links reach the item route and reverse routing builds them")
        func deepLinks() throws {
            let routes = try ItemRoutes.table(onItem: { _ in })
            let result = try routes.navigate(to: "/items/42")
            #expect(result.int("id") == 42)
            #expect(try routes.url(for: "item", params: ["id": "7"]) == "/items/7")
            #expect(!routes.canNavigate(to: "/nowhere"))
        }

        """
    }
}
