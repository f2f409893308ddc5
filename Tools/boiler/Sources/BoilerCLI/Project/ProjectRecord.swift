import Foundation

/// `.boiler.json`: how a project was made, so later commands (`boiler add`) can extend it and
/// tell the files they generated from the files people wrote.
public struct ProjectRecord: Codable, Sendable, Equatable {
    /// The record's file name at the project root.
    public static let fileName = ".boiler.json"

    /// The version of boiler that made the project.
    public var boilerVersion: String
    /// The name as typed.
    public var name: String
    /// The module name derived from it.
    public var module: String
    /// The template used.
    public var template: TemplateKind
    /// The kit products depended on; nil for the umbrella.
    public var packages: [String]?
    /// Where the kit comes from.
    public var kit: KitSource
    /// The `--set` answers.
    public var values: [String: String]
    /// The routes and services `boiler add` has wired into an app.
    public struct Parts: Codable, Sendable, Equatable {
        /// Route names, in the order they were added.
        public var routes: [String] = []
        /// Service names, in the order they were added.
        public var services: [String] = []
    }

    /// What `boiler add` has wired in; nil until the first route or service.
    public var parts: Parts?
    /// Each generated file's path and a hash of the contents boiler wrote (FNV-1a, 64-bit hex).
    public var files: [String: String]

    init(options: ProjectOptions, files: [PlannedFile]) {
        boilerVersion = KitVersion.current
        name = options.name.original
        module = options.name.module
        template = options.template
        packages = options.packages
        kit = options.kit
        values = options.values
        self.files = Dictionary(uniqueKeysWithValues: files.map { ($0.path, Self.hash($0.contents)) })
    }

    /// The record as stable, pretty JSON.
    var json: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let data = (try? encoder.encode(self)) ?? Data("{}".utf8)
        return String(decoding: data, as: UTF8.self) + "\n"
    }

    /// Reads the record of the project in `folder`.
    /// - Throws: ``BoilerError/notAProject(folder:)`` when there is none or it is unreadable.
    public static func read(in folder: URL) throws(BoilerError) -> ProjectRecord {
        let url = folder.appendingPathComponent(fileName)
        guard let data = try? Data(contentsOf: url) else { throw .notAProject(folder: folder.path) }
        do {
            return try JSONDecoder().decode(ProjectRecord.self, from: data)
        } catch {
            throw .invalidOption("project", value: url.path, expected: "a readable .boiler.json (\(error.userMessage))")
        }
    }

    static func hash(_ text: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        let digits = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
