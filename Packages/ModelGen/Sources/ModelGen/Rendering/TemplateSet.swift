import Foundation
import Mustache

/// The Mustache templates a generation renders with: the bundled ones, each replaceable by a
/// file of the same name in a template directory (mogenerator's `--template-path`).
///
/// `machine` renders `_Entity.swift`, `human` renders `Entity.swift`; both may include
/// partials (`{{> struct}}`), and every `.mustache` file of the template directory is available
/// as one.
struct TemplateSet: Sendable {
    /// The names ``ModelGenerator`` renders.
    static let roots = ["machine", "human"]
    /// The bundled templates, by name.
    static let bundledNames = ["machine", "human", "struct", "migrations", "raw-enum", "associated-enum"]

    let library: MustacheLibrary

    /// The bundled templates' folder.
    static var bundledDirectory: URL? {
        Bundle.module.url(forResource: "Templates", withExtension: nil)
    }

    /// Loads the bundled templates, replaced or extended by those in `directory`.
    static func load(overrides directory: URL?) throws -> TemplateSet {
        var sources: [String: (text: String, file: String)] = [:]
        guard let bundled = bundledDirectory else {
            throw ModelGenError.missingTemplate(name: "machine", searched: "the ModelGen resource bundle")
        }
        for name in bundledNames {
            let url = bundled.appendingPathComponent("\(name).mustache")
            sources[name] = (try read(url), url.path)
        }
        if let directory {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: directory.path, isDirectory: &isDirectory),
                isDirectory.boolValue
            else {
                throw ModelGenError.invalidOption(
                    option: "--template-path \(directory.path)", reason: "it is not a directory")
            }
            let files = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
            for file in files.sorted() where file.hasSuffix(".mustache") {
                let url = directory.appendingPathComponent(file)
                sources[String(file.dropLast(".mustache".count))] = (try read(url), url.path)
            }
        }
        var library = MustacheLibrary()
        for (name, source) in sources.sorted(by: { $0.key < $1.key }) {
            do {
                library.register(try MustacheTemplate(string: source.text), named: name)
            } catch let error as MustacheTemplate.ParserError {
                throw ModelGenError.invalidTemplate(
                    name: source.file, line: error.context.lineNumber, column: error.context.columnNumber,
                    reason: "\(error.error)")
            } catch {
                throw ModelGenError.invalidTemplate(name: source.file, line: 1, column: 1, reason: "\(error)")
            }
        }
        return TemplateSet(library: library)
    }

    private static func read(_ url: URL) throws -> String {
        do {
            return try String(contentsOf: url, encoding: .utf8)
        } catch {
            throw ModelGenError.missingTemplate(
                name: url.lastPathComponent, searched: url.deletingLastPathComponent().path)
        }
    }

    /// Renders the template `name` with `context`.
    func render(_ name: String, _ context: [String: Any]) throws -> String {
        guard let text = library.render(context, withTemplate: name) else {
            throw ModelGenError.missingTemplate(name: name, searched: "the loaded templates")
        }
        return text
    }
}
