import Foundation

/// Turns a project made by today's `boiler new` into one made by an "older boiler": each change
/// is applied to the file, to its base under `.boiler/base/` and to `.boiler.json` (the hash of
/// the base, template version 0.0.9), as the older boiler would have written them. The user's
/// edits change the files only. Changes come from `Tests/Fixtures/update/`.
struct OlderTemplate: Decodable {
    /// One change to a file: prepend or append text, replace text, give whole contents, or
    /// (`absent`) a file the older template did not have.
    struct Change: Decodable {
        var path: String
        var prepend: String?
        var append: String?
        var replace: String?
        var with: String?
        var contents: String?
        var absent: Bool?

        func apply(to text: String?) -> String? {
            if absent == true { return nil }
            if let contents { return contents }
            var result = text ?? ""
            if let prepend { result = prepend + result }
            if let append { result += append }
            if let replace, let with { result = result.replacingOccurrences(of: replace, with: with) }
            return result
        }
    }

    struct Expectations: Decodable {
        var updated: [String]
        var merged: [String]
        var conflict: [String]
        var added: [String]
        var removed: [String]
        var kept: [String]
    }

    var older: [Change]
    var user: [Change]
    var expect: Expectations

    static func load(_ name: String) throws -> OlderTemplate {
        let url = BoilerProcess.kitRoot.appendingPathComponent("Tests/Fixtures/update/\(name).json")
        return try JSONDecoder().decode(OlderTemplate.self, from: Data(contentsOf: url))
    }

    /// Applies the older template's changes to `project`.
    func makeOlder(_ project: URL) throws {
        let recordURL = project.appendingPathComponent(".boiler.json")
        var record = try JSONSerialization.jsonObject(with: Data(contentsOf: recordURL)) as? [String: Any] ?? [:]
        var files = record["files"] as? [String: String] ?? [:]
        var versions = record["fileVersions"] as? [String: String] ?? [:]
        for change in older {
            let text = try? String(contentsOf: project.appendingPathComponent(change.path), encoding: .utf8)
            let file = project.appendingPathComponent(change.path)
            let base = project.appendingPathComponent(".boiler/base/\(change.path)")
            if let new = change.apply(to: text) {
                for url in [file, base] { try Self.write(new, to: url) }
                files[change.path] = Self.hash(new)
                versions[change.path] = "0.0.9"
            } else {
                for url in [file, base] { try? FileManager.default.removeItem(at: url) }
                files[change.path] = nil
                versions[change.path] = nil
            }
        }
        record["files"] = files
        record["fileVersions"] = versions
        record["templateVersion"] = "0.0.9"
        try JSONSerialization.data(withJSONObject: record, options: [.prettyPrinted, .sortedKeys]).write(to: recordURL)
    }

    /// Applies the user's edits to `project`.
    func editAsUser(_ project: URL) throws {
        for change in user {
            let url = project.appendingPathComponent(change.path)
            if let new = change.apply(to: try? String(contentsOf: url, encoding: .utf8)) {
                try Self.write(new, to: url)
            } else {
                try FileManager.default.removeItem(at: url)
            }
        }
    }

    static func write(_ text: String, to url: URL) throws {
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
    }

    /// `.boiler.json`'s hash: FNV-1a, 64-bit, as 16 hex digits.
    static func hash(_ text: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        let digits = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }

    /// Every file below `folder` with its bytes, except below the folders named in `excluding`.
    static func snapshot(_ folder: URL, excluding: [String] = []) -> [String: Data] {
        var result: [String: Data] = [:]
        let root = folder.resolvingSymlinksInPath().path
        guard let enumerator = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil) else {
            return result
        }
        for case let url as URL in enumerator {
            let path = String(url.resolvingSymlinksInPath().path.dropFirst(root.count + 1))
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), !isDirectory.boolValue,
                !excluding.contains(where: { path.hasPrefix($0 + "/") })
            else { continue }
            result[path] = try? Data(contentsOf: url)
        }
        return result
    }
}
