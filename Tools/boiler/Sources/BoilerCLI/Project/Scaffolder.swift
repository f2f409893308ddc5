import Foundation
import _KitSupport

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
            if options.template == .app || options.template == .server {
                throw .invalidOption(
                    "packages", value: packages.joined(separator: ","),
                    expected: "no --packages with the \(options.template.rawValue) template, which needs the whole kit "
                        + "(use --template library or cli to pick packages)")
            }
        }
        if let database = options.database, options.template != .server {
            throw .invalidOption(
                "database", value: database.rawValue, expected: "no --database except with --template server")
        }
        for (key, value) in options.values.sorted(by: { $0.key < $1.key }) {
            try Self.check(key, value)
        }
        self.options = options
    }

    /// The values `--set key=value` may give, and what each is for. Every other value is worked
    /// out from the project's name and flags.
    public static let settableValues: KeyValuePairs<String, String> = [
        "bundleID": "the app's reverse-DNS identifier, which names its data folder (default com.example.<name>)",
        "summary": "one line about the project, under the title of its README (default: none)",
    ]

    /// Refuses a `--set` value no template reads, one boiler works out itself, or one that would
    /// break the file it lands in (a bundle ID goes into Swift source).
    static func check(_ key: String, _ value: String) throws(BoilerError) {
        switch key {
        case "bundleID":
            let parts = value.split(separator: ".", omittingEmptySubsequences: false)
            // Each part: ASCII letters, digits and '-', as ProjectName checks names.
            let valid =
                parts.count >= 2
                && parts.allSatisfy { part in
                    !part.isEmpty && part.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }
                }
            if !valid {
                throw .invalidOption(
                    "set", value: "bundleID=\(value)",
                    expected: "a reverse-DNS identifier such as com.example.notes (ASCII letters, digits and '-', "
                        + "in two or more parts joined by '.')")
            }
        case "summary":
            let isControl = { (scalar: Unicode.Scalar) in scalar.properties.generalCategory == .control }
            if value.trimmingWhitespace.isEmpty || value.unicodeScalars.contains(where: isControl) {
                throw .invalidOption("set", value: "summary=\(value)", expected: "one line of text")
            }
        default:
            let keys = settableValues.map(\.key).joined(separator: ", ")
            throw .invalidOption(
                "set", value: key,
                expected: "one of \(keys): the other template values come from the project's name and flags")
        }
    }

    /// The values templates may use: `{{Name}}`, `{{name}}`, `{{kitPackage}}`, `{{import:Router}}`…
    /// `--set` values (checked in `init`) replace the defaults of ``settableValues``.
    public var values: [String: String] {
        var values: [String: String] = [:]
        values["Name"] = options.name.module
        values["name"] = options.name.module.lowercased()
        values["swiftTools"] = KitVersion.swiftTools
        values["kitPackage"] = options.kit.packageLine
        // Inside a string literal in Package.swift: escaped, without the quotes the template has.
        values["kitIdentity"] = String(SwiftSource.literal(options.kit.identity).dropFirst().dropLast())
        values["bundleID"] = "com.example.\(options.name.module.lowercased())"
        values["kitProducts"] = options.products
            .map { ".product(name: \(SwiftSource.literal($0)), package: \(SwiftSource.literal(options.kit.identity)))" }
            .joined(separator: ", ")
        for module in ReservedNames.kitProducts {
            values["import:\(module)"] = options.packages == nil ? "Boilerplate" : module
        }
        values.merge(options.values) { _, given in given }
        return values
    }

    /// What the template files read: ``values`` (with `import:Router` as `import.Router`, since
    /// a Mustache name has no colon) and the flags and texts the README's sections choose by.
    var templateValues: [String: TemplateValue] {
        var context: [String: TemplateValue] = [:]
        var imports: [String: TemplateValue] = [:]
        for (key, value) in values {
            if key.hasPrefix("import:") {
                imports[String(key.dropFirst("import:".count))] = .text(value)
            } else {
                context[key] = .text(value)
            }
        }
        context["import"] = .record(imports)
        context["hasSummary"] = .flag(options.values["summary"] != nil)
        context["summary"] = context["summary"] ?? .text("")
        context["article"] = .text(options.template == .app ? "An" : "A")
        context["template"] = .text(options.template.rawValue)
        context["products"] = .text(options.products.joined(separator: ", "))
        context["kitDescription"] =
            switch options.kit {
            case .url(let url, let version): .text("[Boilerplate](\(url)) \(version)")
            case .path(let path): .text("Boilerplate from `\(path)`")
            }
        context["run"] = .flag(options.template != .library)
        context["server"] = .flag(options.template == .server)
        context["postgres"] = .flag(options.database == .postgres)
        context["synced"] = .flag(options.synced)
        context["app"] = .flag(options.template == .app)
        context["NAME"] = .text(options.name.module.uppercased())
        return context
    }

    /// Every file of the project, rendered, for the folder `folder`: the seam `boiler new`
    /// writes from and `boiler update` renders "theirs" with. Template files come from boiler's
    /// bundle, or from `overrides`' `.boiler/templates` where that project has its own copy.
    public func plan(in folder: URL, overrides: URL? = nil) throws(BoilerError) -> ScaffoldPlan {
        let store = try TemplateStore(project: overrides)
        var rendered = try store.render(ProjectTemplates.files(for: options), values: templateValues)
        let record = ProjectRecord(options: options, files: rendered)
        rendered.append(PlannedFile(ProjectRecord.fileName, record.json))
        return ScaffoldPlan(folder: folder, files: rendered)
    }
}
