import Foundation

/// Turns ``ProjectOptions`` into a ``ScaffoldPlan``: every file rendered, nothing written.
public struct Scaffolder: Sendable {
    /// The options the plan is made from.
    public let options: ProjectOptions

    /// Creates a scaffolder for `options`.
    public init(options: ProjectOptions) throws(BoilerError) {
        if let packages = options.packages {
            let unknown = packages.filter { !ReservedNames.kitProducts.contains($0) }
            if let first = unknown.first {
                throw .invalidOption(
                    "packages", value: first,
                    expected: "a comma-separated list of " + ReservedNames.kitProducts.sorted().joined(separator: ", "))
            }
            if packages.isEmpty { throw .invalidOption("packages", value: "", expected: "at least one package") }
            if options.template == .app {
                throw .invalidOption(
                    "packages", value: packages.joined(separator: ","),
                    expected: "no --packages with the app template, which wires everything through AppCore "
                        + "(use --template library or cli to pick packages)")
            }
        }
        self.options = options
    }

    /// The values templates may use: `{{Name}}`, `{{name}}`, `{{kitPackage}}`, `{{import:Router}}`…
    public var values: [String: String] {
        var values = options.values
        values["Name"] = options.name.module
        values["name"] = options.name.module.lowercased()
        values["swiftTools"] = KitVersion.swiftTools
        values["kitPackage"] = options.kit.packageLine
        values["kitIdentity"] = options.kit.identity
        values["bundleID"] = "com.example.\(options.name.module.lowercased())"
        values["kitProducts"] = options.products
            .map { ".product(name: \"\($0)\", package: \"\(options.kit.identity)\")" }
            .joined(separator: ", ")
        for module in ReservedNames.kitProducts {
            values["import:\(module)"] = options.packages == nil ? "Boilerplate" : module
        }
        return values
    }

    /// Every file of the project, rendered, for the folder `folder`.
    public func plan(in folder: URL) throws(BoilerError) -> ScaffoldPlan {
        let templateFiles: [PlannedFile]
        switch options.template {
        case .library: templateFiles = LibraryTemplate.files(for: options)
        case .cli: templateFiles = CLITemplate.files(for: options)
        case .app: templateFiles = AppTemplate.files(for: options)
        }
        let shared = [
            PlannedFile(".gitignore", SharedFiles.gitignore),
            PlannedFile("Makefile", SharedFiles.makefile),
            PlannedFile("README.md", SharedFiles.readme(for: options)),
        ]
        let values = self.values
        var rendered: [PlannedFile] = []
        for file in shared + templateFiles {
            let path = try TemplateText(file.path).render(values)
            let contents = try TemplateText(file.contents).render(values)
            rendered.append(PlannedFile(path, contents, isExecutable: file.isExecutable))
        }
        let record = ProjectRecord(options: options, files: rendered)
        rendered.append(PlannedFile(ProjectRecord.fileName, record.json))
        return ScaffoldPlan(folder: folder, files: rendered)
    }
}
