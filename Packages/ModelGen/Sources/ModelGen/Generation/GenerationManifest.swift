import Foundation

/// The record ModelGen keeps of the machine files it wrote into a folder:
/// `.modelgen-manifest.json`, beside them.
///
/// Ownership is never guessed from a file's name or first line — a human file of an entity
/// named `_Draft` starts with `_` and mentions ModelGen too. Only a file listed here, written
/// from the same design, can be an orphan, and only one whose bytes still match the recorded
/// digest is removed without `force`.
struct GenerationManifest: Codable, Equatable {
    /// The manifest's file name in the machine-file folder.
    static let fileName = ".modelgen-manifest.json"

    /// One machine file: the design it came from and the SHA-256 of the bytes written.
    struct Entry: Codable, Equatable {
        var design: String
        var sha256: String
    }

    var generator = "ModelGen"
    var formatVersion = 1
    /// Machine files by name (a plain file name in the folder).
    var files: [String: Entry] = [:]
    /// What the last ``ModelGenerator/generate(from:into:)`` of each design read and produced,
    /// by design name: a rerun with the same inputs and untouched files skips rendering.
    /// Absent in manifests written before it existed, and for designs written another way.
    var inputs: [String: GenerationInputs]?

    /// The manifest of `folder`; empty when there is none.
    /// - Throws: ``ModelGenError/invalidManifest(path:reason:)`` when it exists but cannot be
    ///   trusted: unreadable, not this format, or naming something other than a plain file name.
    static func load(from folder: URL) throws -> GenerationManifest {
        let url = folder.appendingPathComponent(fileName)
        guard FileManager.default.fileExists(atPath: url.path) else { return GenerationManifest() }
        let manifest: GenerationManifest
        do {
            manifest = try JSONDecoder().decode(GenerationManifest.self, from: Data(contentsOf: url))
        } catch let error as DecodingError {
            throw ModelGenError.invalidManifest(path: url.path, reason: Self.describe(error))
        } catch {
            throw ModelGenError.invalidManifest(path: url.path, reason: (error as NSError).localizedDescription)
        }
        guard manifest.generator == "ModelGen", manifest.formatVersion == 1 else {
            throw ModelGenError.invalidManifest(
                path: url.path, reason: "expected generator 'ModelGen' and formatVersion 1")
        }
        for (name, entry) in manifest.files.sorted(by: { $0.key < $1.key }) {
            // A name with a separator or `..` would let pruning reach outside the folder.
            guard isPlainFileName(name) else {
                throw ModelGenError.invalidManifest(path: url.path, reason: "'\(name)' is not a plain file name")
            }
            guard entry.sha256.count == 64, entry.sha256.allSatisfy({ $0.isHexDigit && !$0.isUppercase }) else {
                throw ModelGenError.invalidManifest(path: url.path, reason: "the digest of '\(name)' is not SHA-256")
            }
        }
        // Recorded inputs only ever skip work, and only when every file they name matches, so
        // a hostile entry cannot make a run reach outside the folder; still, refuse odd names.
        for (design, inputs) in (manifest.inputs ?? [:]).sorted(by: { $0.key < $1.key }) {
            for name in inputs.machineFiles + inputs.humanFiles where !isPlainFileName(name) {
                throw ModelGenError.invalidManifest(
                    path: url.path, reason: "the inputs of '\(design)' name '\(name)', not a plain file name")
            }
        }
        return manifest
    }

    /// The manifest's bytes: sorted keys, so the same files give the same manifest everywhere.
    func encoded() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        do {
            return try encoder.encode(self) + Data("\n".utf8)
        } catch {
            throw ModelGenError.writeFailed(path: Self.fileName, reason: "\(error)")
        }
    }

    /// Whether `name` names a file directly inside a folder: no separators, not `.` or `..`,
    /// no control characters.
    static func isPlainFileName(_ name: String) -> Bool {
        !name.isEmpty && name != "." && name != ".." && name.utf8.count <= 255
            && !name.unicodeScalars.contains { $0 == "/" || $0 == "\\" || $0.properties.generalCategory == .control }
    }

    private static func describe(_ error: DecodingError) -> String {
        switch error {
        case .dataCorrupted(let context), .keyNotFound(_, let context), .typeMismatch(_, let context),
            .valueNotFound(_, let context):
            let path = context.codingPath.map(\.stringValue).joined(separator: ".")
            return path.isEmpty ? context.debugDescription : "\(path): \(context.debugDescription)"
        @unknown default:
            return "\(error)"
        }
    }
}
