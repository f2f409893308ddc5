import Foundation

extension ModelDesign {
    /// Reads a model design from disk: its current version.
    ///
    /// Accepts an `.xcdatamodeld` bundle, an `.xcdatamodel` bundle, its `contents` file, or a
    /// `.yaml`/`.yml`/`.json` design (the last entry of its `versions:` list, if it has one).
    /// A bundle is read at the version `.xccurrentversion` names, and only that version is
    /// read, so a bundle whose order of versions is not certain still reads. Without that
    /// file, a bundle of one version is read at it; of several, at the newest when their order
    /// is certain (as ``DesignHistory/read(from:)`` finds it), else at the first by name.
    /// - Parameter url: The design's file URL.
    /// - Returns: The design, with warnings for what was skipped.
    /// - Throws: ``ModelGenError`` naming the file when it cannot be read or is not a model.
    public static func read(from url: URL) throws -> ModelDesign {
        let source = try DesignSource.of(url)
        switch source {
        case .bundle(let bundle):
            let version = try currentVersion(of: bundle)
            var design = try readXML(
                at: version.appendingPathComponent("contents"), name: source.name, file: url.path)
            design.name = source.name
            return design
        case .version(let version):
            return try readXML(at: version.appendingPathComponent("contents"), name: source.name, file: url.path)
        case .contents(let file, let name):
            return try readXML(at: file, name: name, file: url.path)
        case .tree(let file):
            var reader = TreeDesignReader(file: url.path)
            return try reader.read(try designTree(at: file), name: source.name)
        }
    }

    /// The version an `.xcdatamodeld` bundle's `.xccurrentversion` names (`"Model 2"`, without
    /// the extension), or nil when the bundle has no such file.
    static func currentVersionName(of bundle: URL) throws -> String? {
        let marker = bundle.appendingPathComponent(".xccurrentversion")
        guard FileManager.default.fileExists(atPath: marker.path) else { return nil }
        let data = try contents(of: marker)
        let plist = try? PropertyListSerialization.propertyList(from: data, format: nil)
        guard let name = (plist as? [String: Any])?["_XCCurrentVersionName"] as? String else {
            throw ModelGenError.notAModel(file: marker.path, reason: "it has no _XCCurrentVersionName string")
        }
        guard FileManager.default.fileExists(atPath: bundle.appendingPathComponent(name).path) else {
            throw ModelGenError.notAModel(
                file: bundle.path, reason: "the current version '\(name)' is not in the bundle")
        }
        return name.hasSuffix(".xcdatamodel") ? String(name.dropLast(".xcdatamodel".count)) : name
    }

    /// The version folder an `.xcdatamodeld` bundle designates as current.
    static func currentVersion(of bundle: URL) throws -> URL {
        let marker = bundle.appendingPathComponent(".xccurrentversion")
        if FileManager.default.fileExists(atPath: marker.path) {
            let data = try contents(of: marker)
            let plist = try? PropertyListSerialization.propertyList(from: data, format: nil)
            guard let name = (plist as? [String: Any])?["_XCCurrentVersionName"] as? String else {
                throw ModelGenError.notAModel(
                    file: marker.path, reason: "it has no _XCCurrentVersionName string")
            }
            let version = bundle.appendingPathComponent(name)
            guard FileManager.default.fileExists(atPath: version.path) else {
                throw ModelGenError.notAModel(
                    file: bundle.path, reason: "the current version '\(name)' is not in the bundle")
            }
            return version
        }
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: bundle.path)) ?? []
        let versions = entries.filter { $0.hasSuffix(".xcdatamodel") }.sorted()
        guard let first = versions.first else {
            throw ModelGenError.notAModel(file: bundle.path, reason: "the bundle holds no .xcdatamodel version")
        }
        if versions.count > 1, let history = try? DesignHistory.read(from: bundle) {
            return bundle.appendingPathComponent("\(history.current.name).xcdatamodel")
        }
        return bundle.appendingPathComponent(first)
    }

    private static func readXML(at url: URL, name: String, file: String) throws -> ModelDesign {
        try XMLDesignReader.read(try contents(of: url), name: name, file: file)
    }

    /// The key-value tree of a `.yaml`, `.yml` or `.json` design file: JSON by its extension,
    /// YAML otherwise. One reading for the current design and for a design's history.
    static func designTree(at url: URL) throws -> DesignTree {
        let data = try contents(of: url)
        if url.pathExtension.lowercased() == "json" { return try DesignTree.json(data, file: url.path) }
        return try DesignTree.yaml(String(decoding: data, as: UTF8.self), file: url.path)
    }

    private static func contents(of url: URL) throws -> Data {
        do {
            return try Data(contentsOf: url)
        } catch {
            throw ModelGenError.unreadable(file: url.path, reason: (error as NSError).localizedDescription)
        }
    }
}
