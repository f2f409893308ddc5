import Foundation

extension ModelDesign {
    /// Reads a model design from disk.
    ///
    /// Accepts an `.xcdatamodeld` bundle (its current version, named by `.xccurrentversion`, or
    /// the first version by name when that file is absent), an `.xcdatamodel` bundle, its
    /// `contents` file, or a `.yaml`/`.yml`/`.json` design.
    /// - Parameter url: The design's file URL.
    /// - Returns: The design, with warnings for what was skipped.
    /// - Throws: ``ModelGenError`` naming the file when it cannot be read or is not a model.
    public static func read(from url: URL) throws -> ModelDesign {
        let path = url.path
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw ModelGenError.unreadable(file: path, reason: "no such file or directory")
        }
        let name = url.deletingPathExtension().lastPathComponent
        switch url.pathExtension.lowercased() {
        case "xcdatamodeld":
            let version = try currentVersion(of: url)
            var design = try readXML(at: version.appendingPathComponent("contents"), name: name, file: path)
            design.name = name
            return design
        case "xcdatamodel":
            return try readXML(at: url.appendingPathComponent("contents"), name: name, file: path)
        case "yaml", "yml", "json":
            var reader = TreeDesignReader(file: path)
            return try reader.read(try designTree(at: url), name: name)
        default:
            if url.lastPathComponent == "contents" || url.pathExtension.lowercased() == "xml" {
                let bundle = url.deletingLastPathComponent().deletingPathExtension().lastPathComponent
                return try readXML(at: url, name: url.lastPathComponent == "contents" ? bundle : name, file: path)
            }
            throw ModelGenError.notAModel(
                file: path, reason: "expected .xcdatamodeld, .xcdatamodel, contents, .yaml, .yml or .json")
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
        guard let first = entries.filter({ $0.hasSuffix(".xcdatamodel") }).sorted().first else {
            throw ModelGenError.notAModel(file: bundle.path, reason: "the bundle holds no .xcdatamodel version")
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
