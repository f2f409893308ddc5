import Foundation

/// Finds a generated project's imports of kit modules that its manifest does not bring in.
///
/// A project building in the shared build folder (``SharedBuildFolder``) sees every module the
/// kit's own build put there, `StoragePostgres` as much as `StorageSQLite`. A template that
/// imports a kit module none of its products contain would build there and fail for a user,
/// whose build compiles only what the project's products need. This check closes that gap: each
/// target may import the kit modules reachable from the kit products it names, directly or
/// through the project's other targets.
enum KitImportCheck {
    /// One line per offending import: the file, the line, the module and the target.
    static func problems(in project: URL) async throws -> [String] {
        let kit = try await Manifest(of: BoilerProcess.kitRoot)
        let manifest = try await Manifest(of: project)
        let kitIdentity = BoilerProcess.kitRoot.lastPathComponent.lowercased()
        var problems: [String] = []
        for target in manifest.targets.values {
            let allowed = manifest.kitModules(reachableFrom: target.name, kitIdentity: kitIdentity, kit: kit)
            let folder = project.appendingPathComponent(target.path)
            for (file, line, module) in try imports(under: folder)
            where kit.targets[module] != nil && !allowed.contains(module) {
                let path = file.path.replacingOccurrences(of: project.path + "/", with: "")
                problems.append(
                    "\(path):\(line): \(target.name) imports \(module), which no kit product its manifest names contains"
                )
            }
        }
        return problems.sorted()
    }

    /// `import` declarations in the Swift files under `folder`: file, line number, module.
    static func imports(under folder: URL) throws -> [(URL, Int, String)] {
        let pattern = try NSRegularExpression(
            pattern:
                #"^\s*(?:@[A-Za-z_]+\s+)*import\s+(?:(?:class|struct|enum|protocol|func|var|let|typealias)\s+)?([A-Za-z_][A-Za-z0-9_]*)"#
        )
        var found: [(URL, Int, String)] = []
        let files = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)
        while let file = files?.nextObject() as? URL {
            guard file.pathExtension == "swift" else { continue }
            let text = try String(contentsOf: file, encoding: .utf8)
            for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                let line = String(line)
                guard let match = pattern.firstMatch(in: line, range: NSRange(line.startIndex..., in: line)),
                    let range = Range(match.range(at: 1), in: line)
                else { continue }
                found.append((file, index + 1, String(line[range])))
            }
        }
        return found
    }

    /// The targets and products of a package, from `swift package dump-package`.
    struct Manifest {
        struct Target {
            var name: String
            var path: String
            /// Targets of the same package it depends on.
            var localDependencies: [String]
            /// Products of other packages it depends on: (product, package identity).
            var products: [(String, String)]
        }

        var targets: [String: Target] = [:]
        var products: [String: [String]] = [:]

        init(of package: URL) async throws {
            let scratch = FileManager.default.temporaryDirectory.appendingPathComponent(
                "kit-import-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: scratch) }
            let dump = try await BoilerProcess.run(
                URL(fileURLWithPath: "/usr/bin/env"),
                ["swift", "package", "--package-path", package.path, "--scratch-path", scratch.path, "dump-package"],
                in: package)
            guard dump.status == 0, let start = dump.output.firstIndex(of: "{"),
                let json = try JSONSerialization.jsonObject(with: Data(dump.output[start...].utf8)) as? [String: Any]
            else {
                throw ServerFailure(message: "swift package dump-package failed in \(package.path): \(dump.output)")
            }
            for case let target as [String: Any] in json["targets"] as? [Any] ?? [] {
                guard let name = target["name"] as? String, let type = target["type"] as? String else { continue }
                var local: [String] = []
                var products: [(String, String)] = []
                for case let dependency as [String: [Any]] in target["dependencies"] as? [Any] ?? [] {
                    if let value = dependency["byName"] ?? dependency["target"], let name = value.first as? String {
                        local.append(name)
                    } else if let value = dependency["product"], let product = value.first as? String,
                        let package = value.dropFirst().first as? String
                    {
                        products.append((product, package.lowercased()))
                    }
                }
                let folder = type == "test" ? "Tests" : "Sources"
                targets[name] = Target(
                    name: name, path: target["path"] as? String ?? "\(folder)/\(name)", localDependencies: local,
                    products: products)
            }
            for case let product as [String: Any] in json["products"] as? [Any] ?? [] {
                if let name = product["name"] as? String { products[name] = product["targets"] as? [String] ?? [] }
            }
        }

        /// The kit modules `target` can import: the targets of the kit products it or its local
        /// dependencies name, and everything those depend on inside the kit.
        func kitModules(reachableFrom target: String, kitIdentity: String, kit: Manifest) -> Set<String> {
            var pending = [target]
            var seen: Set<String> = []
            var kitPending: [String] = []
            while let name = pending.popLast() {
                guard seen.insert(name).inserted, let target = targets[name] else { continue }
                pending += target.localDependencies
                kitPending += target.products.filter { $0.1 == kitIdentity }.flatMap { kit.products[$0.0] ?? [] }
            }
            var modules: Set<String> = []
            while let name = kitPending.popLast() {
                guard modules.insert(name).inserted, let target = kit.targets[name] else { continue }
                kitPending += target.localDependencies
            }
            return modules
        }
    }
}
