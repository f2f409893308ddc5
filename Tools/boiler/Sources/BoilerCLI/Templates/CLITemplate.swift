/// `boiler new --template cli`: an ArgumentParser tool whose logic lives in a core library on
/// the kit, so the tests exercise the logic without spawning the tool.
enum CLITemplate {
    static func files(for options: ProjectOptions) -> [PlannedFile] {
        var files = [
            PlannedFile("Package.swift", manifest),
            PlannedFile("Sources/{{Name}}/{{Name}}Tool.swift", tool(usesCommands: options.has("Commands"))),
            PlannedFile("Sources/{{Name}}Core/{{Name}}Error.swift", LibraryTemplate.appErrorOrPlain(options)),
            PlannedFile(
                "Tests/{{Name}}CoreTests/{{Name}}ErrorTests.swift",
                LibraryTemplate.errorTests(options.has("Errors") ? "message" : "description", module: "{{Name}}Core")),
        ]
        files += Samples.files(for: options, module: "{{Name}}Core")
        return files
    }

    static let manifest = """
        // swift-tools-version: {{swiftTools}}
        import PackageDescription

        let package = Package(
            name: "{{Name}}",
            platforms: [.macOS(.v14)],
            dependencies: [
                {{kitPackage}},
                .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
            ],
            targets: [
                .target(name: "{{Name}}Core", dependencies: [{{kitProducts}}]),
                .executableTarget(
                    name: "{{Name}}",
                    dependencies: [
                        "{{Name}}Core",
                        .product(name: "ArgumentParser", package: "swift-argument-parser"),
                    ]
                ),
                .testTarget(name: "{{Name}}CoreTests", dependencies: ["{{Name}}Core"]),
            ]
        )

        """

    static func tool(usesCommands: Bool) -> String {
        let body =
            usesCommands
            ? """
                    let store = ModelStore(ItemsModel())
                    let runner = CommandRunner(store: store)
                    for item in items { try runner.execute(AddItem(text: item)) }
                    print("{{Name}} holds \\(store.model.items.count) item(s): \\(store.model.items.joined(separator: ", "))")
            """
            : """
                    print("{{Name}} got \\(items.count) item(s): \\(items.joined(separator: ", "))")
            """
        let imports = usesCommands ? "import {{import:Commands}}\nimport {{Name}}Core\n" : "import {{Name}}Core\n"
        return """
            import ArgumentParser
            \(imports)
            @main
            struct {{Name}}Tool: ParsableCommand {
                static let configuration = CommandConfiguration(
                    commandName: "{{name}}", abstract: "{{Name}}, made with boiler.")

                @Argument(help: "Items to add.")
                var items: [String] = ["Hello"]

                func run() throws {
            \(body)
                }
            }

            """
    }
}
