/// `boiler new --template library`: a package of your own on the kit, with samples of the
/// packages it depends on.
enum LibraryTemplate {
    static func files(for options: ProjectOptions) -> [PlannedFile] {
        var files = [
            PlannedFile("Package.swift", manifest),
            PlannedFile("Sources/{{Name}}/{{Name}}Error.swift", appErrorOrPlain(options)),
            PlannedFile(
                "Tests/{{Name}}Tests/{{Name}}ErrorTests.swift",
                errorTests(options.has("Errors") ? "message" : "description", module: "{{Name}}")),
        ]
        files += Samples.files(for: options, module: "{{Name}}")
        return files
    }

    static let manifest = """
        // swift-tools-version: {{swiftTools}}
        import PackageDescription

        let package = Package(
            name: "{{Name}}",
            platforms: [.macOS(.v14), .iOS(.v17)],
            products: [
                .library(name: "{{Name}}", targets: ["{{Name}}"])
            ],
            dependencies: [
                {{kitPackage}}
            ],
            targets: [
                .target(name: "{{Name}}", dependencies: [{{kitProducts}}]),
                .testTarget(name: "{{Name}}Tests", dependencies: ["{{Name}}"]),
            ]
        )

        """

    static let appError = """
        import {{import:Errors}}

        /// What can go wrong in {{Name}}.
        public enum {{Name}}Error: AppError, Equatable {
            /// An item needs some text.
            case emptyItem

            /// What went wrong, in words a user can act on.
            public var message: String {
                switch self {
                case .emptyItem: "An item needs some text."
                }
            }
        }

        """

    static let plainError = """
        /// What can go wrong in {{Name}}.
        public enum {{Name}}Error: Error, Equatable, CustomStringConvertible {
            /// An item needs some text.
            case emptyItem

            /// What went wrong, in words a user can act on.
            public var description: String {
                switch self {
                case .emptyItem: "An item needs some text."
                }
            }
        }

        """

    static func appErrorOrPlain(_ options: ProjectOptions) -> String {
        options.has("Errors") ? appError : plainError
    }

    static func errorTests(_ property: String, module: String) -> String {
        """
        import Testing
        @testable import \(module)

        @Test("errors say what went wrong")
        func errorsDescribeThemselves() {
            #expect({{Name}}Error.emptyItem.\(property) == "An item needs some text.")
        }

        """
    }
}
