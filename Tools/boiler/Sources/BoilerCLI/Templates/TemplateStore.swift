import Foundation
import Mustache

/// A value a template file reads: text, a flag for a `{{#section}}`, or a list of records for a
/// repeated section. Sendable, unlike the `Any` Mustache renders, so plans cross tasks.
enum TemplateValue: Sendable, Hashable {
    case text(String)
    case flag(Bool)
    case record([String: TemplateValue])
    case list([[String: TemplateValue]])

    /// What Mustache renders.
    var mustache: Any {
        switch self {
        case .text(let text): text
        case .flag(let flag): flag
        case .record(let record): record.mapValues(\.mustache)
        case .list(let list): list.map { $0.mapValues(\.mustache) }
        }
    }
}

/// One file of a plan before it is rendered: where it goes (a path that may name values, such as
/// `Sources/{{Name}}Core/NoteRoutes.swift`), the template file it comes from, and the values
/// only this file reads.
struct TemplateFile: Sendable, Hashable {
    /// Where the text comes from.
    enum Source: Sendable, Hashable {
        /// A template file, by its path in the bundle's `Files` folder without `.mustache`, such
        /// as `server/Sources/Core/HTTP/NoteRoutes.swift`; a project's `.boiler/templates`
        /// may hold its own copy at the same path.
        case file(String)
        /// Text made by Swift code (the machine files that list added parts and resources).
        case text(String)
    }

    var path: String
    var source: Source
    var values: [String: TemplateValue] = [:]
    var isExecutable = false

    /// A file rendered from the template file `template` to `path`.
    init(_ path: String, _ template: String, _ values: [String: TemplateValue] = [:]) {
        self.path = path
        self.source = .file(template)
        self.values = values
    }

    /// A file whose text Swift code made; its `{{keys}}` are still filled in.
    init(_ planned: PlannedFile) {
        path = planned.path
        source = .text(planned.contents)
        isExecutable = planned.isExecutable
    }
}

/// The template files boiler renders: those of its resource bundle, each replaceable by a
/// project's own copy under `.boiler/templates/` at the same relative path (as Rails reads
/// `lib/templates`). Everything is rendered by Mustache as plain text (nothing is HTML-escaped).
///
/// A project's copies are files anyone can edit or plant, so each is read only when it lies
/// inside the project (no link leading out), is a regular file and is at most
/// ``maximumFileSize`` bytes; a template that names a value boiler does not give is refused
/// rather than rendered with a hole.
struct TemplateStore: Sendable {
    /// Where a project keeps its own copies of template files.
    static let overridesFolder = ".boiler/templates"
    /// The largest template file boiler reads: the largest bundled one is some 20 KB.
    static let maximumFileSize = 1 << 20
    /// The folder of template files in boiler's resource bundle.
    static let bundledFolderName = "Files"

    /// The bundled template files' folder.
    let bundled: URL
    /// The project whose `.boiler/templates` may replace bundled files, if any.
    let project: URL?

    /// The store of the bundled files, with `project`'s copies in front of them.
    /// - Throws: ``BoilerError/invalidTemplate(path:reason:)`` when the bundle is missing.
    init(project: URL? = nil) throws(BoilerError) {
        guard let bundled = Self.bundledDirectory else {
            throw .invalidTemplate(
                path: "\(Self.bundledFolderName)/",
                reason: "boiler's resource bundle has no template files; reinstall boiler (make install)")
        }
        self.bundled = bundled
        self.project = project
    }

    /// The bundled template files' folder, when the bundle is there.
    static var bundledDirectory: URL? {
        Bundle.module.url(forResource: bundledFolderName, withExtension: nil)
    }

    /// The templates and parts, one folder each, as `boiler templates --eject` names them.
    var names: [String] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: bundled.path)) ?? []
        return entries.filter { !$0.hasPrefix(".") }.sorted()
    }

    /// The template files of the folder `name`, as paths relative to the bundle's `Files`
    /// folder with their `.mustache` extension.
    func files(of name: String) -> [String] {
        let root = bundled.appendingPathComponent(name)
        guard let enumerator = FileManager.default.enumerator(atPath: root.path) else { return [] }
        var files: [String] = []
        while let relative = enumerator.nextObject() as? String {
            var isDirectory: ObjCBool = false
            let full = root.appendingPathComponent(relative).path
            if FileManager.default.fileExists(atPath: full, isDirectory: &isDirectory), !isDirectory.boolValue,
                relative.hasSuffix(".mustache")
            {
                files.append("\(name)/\(relative)")
            }
        }
        return files.sorted()
    }

    /// Every template file of every folder, as paths relative to the bundle's `Files` folder.
    var allFiles: Set<String> { Set(names.flatMap { files(of: $0) }) }

    /// The most entries of `.boiler/templates` ``strayOverrides(in:)`` looks at: a planted tree of
    /// millions of files is reported as too large, not walked.
    static let maximumOverrideEntries = 10_000

    /// The files under `project`'s `.boiler/templates/` that match no template file (a misspelt
    /// name or folder, or a file boiler no longer has), as paths relative to the project, sorted;
    /// nothing reads them, so a user who expects their copy to be used must hear of it. Hidden
    /// files (`.gitkeep`) are not template copies and are left out; links are not followed.
    func strayOverrides(in project: URL) -> [String] {
        let root = project.appendingPathComponent(Self.overridesFolder)
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: root.path, isDirectory: &isDirectory), isDirectory.boolValue,
            let enumerator = FileManager.default.enumerator(
                at: root, includingPropertiesForKeys: [.isDirectoryKey], options: [.skipsHiddenFiles])
        else { return [] }
        let known = allFiles
        let depth = root.standardizedFileURL.pathComponents.count
        var strays: [String] = []
        var seen = 0
        for case let url as URL in enumerator {
            seen += 1
            if seen > Self.maximumOverrideEntries {
                strays.append(
                    "\(Self.overridesFolder)/… (more than \(Self.maximumOverrideEntries) entries; not all were checked)"
                )
                break
            }
            let values = try? url.resourceValues(forKeys: [.isDirectoryKey, .isSymbolicLinkKey])
            if values?.isDirectory == true && values?.isSymbolicLink != true { continue }
            let relative = url.standardizedFileURL.pathComponents.dropFirst(depth).joined(separator: "/")
            if !known.contains(relative) { strays.append("\(Self.overridesFolder)/\(relative)") }
        }
        return strays.sorted()
    }

    /// The warning for each stray copy in `project` (see ``strayOverrides(in:)``), for `add` and
    /// `update` to print; a name is shown escaped, so a line break in it cannot forge output.
    static func strayWarnings(in project: URL) -> [String] {
        guard let store = try? TemplateStore() else { return [] }
        return store.strayOverrides(in: project).map {
            "\(BoilerError.shown($0, limit: 400)) matches no template file, so boiler does not read it; "
                + "'boiler templates --files' lists the names a copy may take."
        }
    }

    /// The text of the template file `name` (a bundle path without `.mustache`): the project's
    /// copy when it has one, else the bundled file; `origin` says which, for messages.
    func source(_ name: String) throws(BoilerError) -> (text: String, origin: String) {
        let relative = "\(name).mustache"
        if let project {
            let path = "\(Self.overridesFolder)/\(relative)"
            try ProjectPaths.checkInside(path, root: project)
            let url = project.appendingPathComponent(path)
            if FileManager.default.fileExists(atPath: url.path) || Self.isLink(url) {
                return (try Self.read(url, shownAs: path), path)
            }
        }
        let url = bundled.appendingPathComponent(relative)
        return (try Self.read(url, shownAs: "boiler's \(relative)"), "boiler's \(relative)")
    }

    /// Renders `file` with `values` (the project's) and the file's own values.
    func render(_ file: TemplateFile, values: [String: TemplateValue]) throws(BoilerError) -> PlannedFile {
        let context = values.merging(file.values) { _, own in own }
        let loaded: (text: String, origin: String)
        switch file.source {
        case .file(let name): loaded = try source(name)
        case .text(let inline): loaded = (inline, file.path)
        }
        let path = try Self.render(file.path, context: context, origin: "the path \(file.path)")
        guard ProjectPaths.isSafeRelative(path) else {
            throw .outsideProject(path: path, reason: "the template's path is not a relative path inside the project")
        }
        let contents = try Self.render(loaded.text, context: context, origin: loaded.origin)
        return PlannedFile(path, contents, isExecutable: file.isExecutable)
    }

    /// Renders every file of `files`.
    func render(_ files: [TemplateFile], values: [String: TemplateValue]) throws(BoilerError) -> [PlannedFile] {
        var rendered: [PlannedFile] = []
        for file in files { rendered.append(try render(file, values: values)) }
        return rendered
    }

    /// Renders `text` as a Mustache template in plain text, after checking that every value it
    /// names is one `context` gives (a typo would otherwise render as nothing).
    static func render(_ text: String, context: [String: TemplateValue], origin: String) throws(BoilerError) -> String {
        let template: MustacheTemplate
        do {
            // Text, not HTML: a quote in a value is a quote in the Swift source it lands in.
            template = try MustacheTemplate(string: "{{% CONTENT_TYPE: TEXT}}" + text)
        } catch let error as MustacheTemplate.ParserError {
            throw .invalidTemplate(
                path: origin,
                reason: "line \(error.context.lineNumber), column \(error.context.columnNumber): \(error.error)")
        } catch {
            throw .invalidTemplate(path: origin, reason: "\(error)")
        }
        let known = knownNames(context)
        for reference in TemplateNames.referenced(in: text) where !known.contains(reference.name) {
            // Inside a section over an empty list nothing renders, and its items' names are unknown.
            let inEmptyList = reference.sections.contains { section in
                if case .list(let items)? = context[section] { items.isEmpty } else { false }
            }
            if inEmptyList { continue }
            let name = reference.name
            throw .invalidTemplate(
                path: origin,
                reason: "it names the value \(BoilerError.shown(name)), which boiler does not give; known values: "
                    + known.sorted().joined(separator: ", "))
        }
        return template.render(context.mapValues(\.mustache))
    }

    /// The names a template may use with `context`: its keys, the keys of its records and of
    /// the records of its lists (a section's own names).
    static func knownNames(_ context: [String: TemplateValue]) -> Set<String> {
        var names = Set(context.keys)
        for value in context.values {
            switch value {
            case .record(let record): names.formUnion(knownNames(record))
            case .list(let list): for item in list { names.formUnion(knownNames(item)) }
            case .text, .flag: break
            }
        }
        return names
    }

    private static func isLink(_ url: URL) -> Bool {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: url.path)) != nil
    }

    /// Reads a template file: a regular file (a link to one inside the project is followed) of at
    /// most ``maximumFileSize`` bytes, in UTF-8.
    private static func read(_ url: URL, shownAs path: String) throws(BoilerError) -> String {
        let attributes: [FileAttributeKey: Any]
        do {
            attributes = try FileManager.default.attributesOfItem(atPath: url.resolvingSymlinksInPath().path)
        } catch {
            throw .invalidTemplate(path: path, reason: "it cannot be read (\(error.localizedDescription))")
        }
        guard attributes[.type] as? FileAttributeType == .typeRegular else {
            throw .invalidTemplate(path: path, reason: "it is not a regular file")
        }
        let size = (attributes[.size] as? NSNumber)?.intValue ?? (attributes[.size] as? Int) ?? 0
        guard size <= maximumFileSize else {
            throw .invalidTemplate(
                path: path, reason: "it is \(size) bytes, and a template file may be at most \(maximumFileSize)")
        }
        guard let data = try? Data(contentsOf: url), data.count <= maximumFileSize,
            let text = String(data: data, encoding: .utf8)
        else {
            throw .invalidTemplate(path: path, reason: "it is not UTF-8 text of at most \(maximumFileSize) bytes")
        }
        return text
    }
}

/// The value names a Mustache template refers to, for checking them before rendering.
enum TemplateNames {
    /// A name a tag refers to (a dotted name by its first part, which is what must be given) and
    /// the sections it is inside, outermost first.
    struct Reference: Hashable {
        var name: String
        var sections: [String]
    }

    /// Every name in a `{{name}}`, `{{{name}}}`, `{{&name}}`, `{{#name}}` or `{{^name}}` tag.
    static func referenced(in text: String) -> [Reference] {
        var references: [Reference] = []
        var sections: [String] = []
        var rest = Substring(text)
        while let open = rest.range(of: "{{") {
            rest = rest[open.upperBound...]
            guard let close = rest.range(of: "}}") else { break }
            var tag = rest[..<close.lowerBound].trimmingCharacters(in: .whitespaces)[...]
            rest = rest[close.upperBound...]
            guard let kind = tag.first else { continue }
            if "!>%=<$".contains(kind) { continue }
            if "{&#^/".contains(kind) { tag = tag.dropFirst() }
            if tag.hasSuffix("}") { tag = tag.dropLast() }
            let full = tag.trimmingCharacters(in: .whitespaces)
            guard !full.isEmpty, full != "." else { continue }
            let name = String(full.split(separator: ".").first ?? Substring(full))
            if kind == "/" {
                if let index = sections.lastIndex(of: name) { sections.removeSubrange(index...) }
                continue
            }
            references.append(Reference(name: name, sections: sections))
            if kind == "#" || kind == "^" { sections.append(name) }
        }
        return references
    }
}
