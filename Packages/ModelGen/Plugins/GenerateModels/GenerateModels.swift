import Foundation
import PackagePlugin

/// `swift package generate-models`: writes machine files and creates missing human files in the
/// source tree, for every model design in the package's targets (or those named by `--target`).
///
/// ```
/// swift package --allow-writing-to-package-directory generate-models [--target T]…
///     [--output Models] [--human-only] [--template-path DIR] [--template-var K=V]… [--prune] [--force]
///     [--dry-run]
/// ```
///
/// Files go to `<target>/<output>` (`Models` by default). With `--human-only` only missing human
/// files are created, for targets whose machine files come from the `ModelGenPlugin` build plugin.
/// Human files that exist are never overwritten or deleted.
@main
struct GenerateModels: CommandPlugin {
    func performCommand(context: PluginContext, arguments: [String]) async throws {
        var extractor = ArgumentExtractor(arguments)
        let targetNames = extractor.extractOption(named: "target")
        let output = extractor.extractOption(named: "output").last ?? "Models"
        let humanOnly = extractor.extractFlag(named: "human-only") > 0
        var passed: [String] = []
        for path in extractor.extractOption(named: "template-path") { passed += ["--template-path", path] }
        for variable in extractor.extractOption(named: "template-var") { passed += ["--template-var", variable] }
        if extractor.extractFlag(named: "prune") > 0 { passed.append("--prune") }
        if extractor.extractFlag(named: "force") > 0 { passed.append("--force") }
        if extractor.extractFlag(named: "dry-run") > 0 { passed.append("--dry-run") }
        if !extractor.remainingArguments.isEmpty {
            throw GenerateModelsError("unknown arguments: \(extractor.remainingArguments.joined(separator: " "))")
        }

        let tool = try context.tool(named: "modelgen")
        let targets = try targetNames.isEmpty ? context.package.targets : context.package.targets(named: targetNames)
        var generated = 0
        for case let target as SwiftSourceModuleTarget in targets {
            for design in Self.designs(in: target.directoryURL) {
                let folder = target.directoryURL.appendingPathComponent(output)
                var arguments = [design.path] + passed
                if humanOnly {
                    let scratch = context.pluginWorkDirectoryURL.appendingPathComponent("discarded-machine-files")
                    arguments += ["--output", scratch.path, "--human-output", folder.path]
                } else {
                    arguments += ["--output", folder.path]
                }
                print("\(target.name): \(design.lastPathComponent)")
                try run(tool.url, arguments)
                generated += 1
            }
        }
        if generated == 0 { print("No model designs found (.xcdatamodeld, .xcdatamodel, *.modelgen.yaml/json).") }
    }

    private func run(_ executable: URL, _ arguments: [String]) throws {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw GenerateModelsError("modelgen failed (exit \(process.terminationStatus))")
        }
    }

    /// The designs under `folder`, sorted by path (the same rule as the build plugin).
    static func designs(in folder: URL) -> [URL] {
        guard let enumerator = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil) else {
            return []
        }
        var found: [URL] = []
        for case let url as URL in enumerator {
            let name = url.lastPathComponent
            if url.pathExtension == "xcdatamodeld" || url.pathExtension == "xcdatamodel" {
                found.append(url)
                enumerator.skipDescendants()
            } else if [".modelgen.yaml", ".modelgen.yml", ".modelgen.json"].contains(where: name.hasSuffix) {
                found.append(url)
            }
        }
        return found.sorted { $0.path < $1.path }
    }
}

/// A failure of the `generate-models` command.
struct GenerateModelsError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
