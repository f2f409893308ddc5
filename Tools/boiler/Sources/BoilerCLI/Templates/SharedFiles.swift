/// Files every template writes: .gitignore, Makefile, README.
enum SharedFiles {
    static let gitignore = """
        .build*/
        .swiftpm/
        Package.resolved
        .DS_Store
        xcuserdata/

        """

    static let makefile = """
        # {{Name}} — `make help` lists the targets.
        .DEFAULT_GOAL := help
        .PHONY: help build test run

        help: ## List the targets
        \t@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | awk 'BEGIN {FS = ":.*## "}; {printf "  make %-8s %s\\n", $$1, $$2}'

        build: ## Build everything
        \tswift build

        test: ## Run the tests
        \tswift test

        run: ## Run the executable, if the project has one
        \tswift run

        """

    static func readme(for options: ProjectOptions) -> String {
        let kit =
            switch options.kit {
            case .url(let url, let version): "[Boilerplate](\(url)) \(version)"
            case .path(let path): "Boilerplate from `\(path)`"
            }
        let run = options.template == .library ? "" : "swift run {{Name}}\n"
        let summary = options.values["summary"] == nil ? "" : "{{summary}}\n\n"
        let article = options.template == .app ? "An" : "A"
        return """
            # {{Name}}

            \(summary)\(article) \(options.template.rawValue) project made with `boiler new`, on \(kit)
            (products: \(options.products.joined(separator: ", "))).

            ```sh
            swift build
            swift test
            \(run)```

            `make help` lists the Makefile's targets. `.boiler.json` records how the project was
            made; `boiler add command|route|service|model <Name>` adds parts to it later.

            """
    }
}
