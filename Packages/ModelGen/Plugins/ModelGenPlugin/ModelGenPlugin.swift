import Foundation
import PackagePlugin

/// Regenerates a target's machine files at build time from the model designs it contains.
///
/// Designs are `.xcdatamodeld` and `.xcdatamodel` bundles and files named `*.modelgen.yaml`,
/// `*.modelgen.yml` or `*.modelgen.json`. Each design becomes one generated file,
/// `<Design>+Models.swift`, holding every machine type (a build plugin must name its outputs
/// before the design is read). Templates in the target's `ModelGenTemplates` folder replace the
/// bundled ones. Human files are not touched: create them once with
/// `swift package generate-models --human-only`.
@main
struct ModelGenPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: any Target) async throws -> [Command] {
        guard let target = target as? SwiftSourceModuleTarget else { return [] }
        let tool = try context.tool(named: "modelgen")
        let templates = target.directoryURL.appendingPathComponent("ModelGenTemplates")
        let templateFiles = Self.files(in: templates).filter { $0.pathExtension == "mustache" }
        return Self.designs(in: target.directoryURL).map { design in
            let stem = Self.stem(of: design)
            let output = context.pluginWorkDirectoryURL.appendingPathComponent(stem)
            let generated = output.appendingPathComponent("\(stem)+Models.swift")
            var arguments = [
                design.path, "--output", output.path, "--single-file", generated.lastPathComponent, "--no-human",
                "--quiet",
            ]
            if !templateFiles.isEmpty { arguments += ["--template-path", templates.path] }
            return .buildCommand(
                displayName: "Generating models from \(design.lastPathComponent)", executable: tool.url,
                arguments: arguments, inputFiles: Self.inputs(of: design) + templateFiles, outputFiles: [generated])
        }
    }

    /// The designs under `folder`, sorted by path.
    static func designs(in folder: URL) -> [URL] {
        guard let enumerator = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil) else {
            return []
        }
        var found: [URL] = []
        for case let url as URL in enumerator {
            let name = url.lastPathComponent
            if url.pathExtension == "xcdatamodeld" {
                found.append(url)
                enumerator.skipDescendants()
            } else if url.pathExtension == "xcdatamodel" {
                found.append(url)
                enumerator.skipDescendants()
            } else if [".modelgen.yaml", ".modelgen.yml", ".modelgen.json"].contains(where: name.hasSuffix) {
                found.append(url)
            }
        }
        return found.sorted { $0.path < $1.path }
    }

    /// The design's name without its extensions: `Model` for `Model.xcdatamodeld` or `Model.modelgen.yaml`.
    static func stem(of design: URL) -> String {
        let name = design.deletingPathExtension().lastPathComponent
        return name.hasSuffix(".modelgen") ? String(name.dropLast(".modelgen".count)) : name
    }

    /// The files whose change must rerun the generator: a bundle's `contents` and version marker.
    static func inputs(of design: URL) -> [URL] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: design.path, isDirectory: &isDirectory), isDirectory.boolValue
        else { return [design] }
        return files(in: design).filter {
            $0.lastPathComponent == "contents" || $0.lastPathComponent == ".xccurrentversion"
        }
    }

    static func files(in folder: URL) -> [URL] {
        guard let enumerator = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil) else {
            return []
        }
        return enumerator.compactMap { $0 as? URL }.sorted { $0.path < $1.path }
    }
}
