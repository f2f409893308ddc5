import Foundation

/// The kit a new project depends on when `boiler new` is given neither `--kit-path` nor
/// `--kit-url`/`--kit-version`, and why that one.
///
/// A `boiler` built from a checkout of the kit uses that checkout, so that a project made with it
/// builds offline against the very sources the tool came from. The checkout is found in one of two
/// ways, each checked at run time (a folder that no longer holds the kit is passed over):
///
/// 1. the folder the CLI's sources were compiled from (known at build time through `#filePath`);
/// 2. a folder above the running executable (the checkout was moved along with its `.build`).
///
/// A `boiler` with neither — installed, and its checkout deleted or never there — uses the
/// published URL at its own version.
public struct DefaultKit: Sendable, Equatable {
    /// How the kit was found.
    public enum Origin: Sendable, Equatable {
        /// The checkout this `boiler` was compiled from.
        case buildCheckout
        /// A checkout that holds the running `boiler` executable.
        case besideExecutable
        /// No checkout was found: the published URL and version.
        case published
    }

    /// Where new projects get the kit from.
    public var source: KitSource
    /// How ``source`` was chosen.
    public var origin: Origin

    /// Creates a choice of kit (tests build these; ``current`` is the one `boiler` uses).
    public init(source: KitSource, origin: Origin) {
        self.source = source
        self.origin = origin
    }

    /// One line for `boiler --version` and `boiler doctor`: which kit, and why.
    public var summary: String {
        switch (source, origin) {
        case (.path(let path), .buildCheckout):
            "the kit at \(path) (the checkout this boiler was built from)"
        case (.path(let path), .besideExecutable):
            "the kit at \(path) (the checkout this boiler's executable is in)"
        case (.path(let path), .published):
            "the kit at \(path)"
        case (.url(let url, let version), _):
            "the kit at \(url) from \(version) (the published kit; no checkout of it was found)"
        }
    }

    /// The kit this `boiler` gives new projects: its checkout if it still holds the kit, else the
    /// published URL at ``KitVersion/current``. Worked out once per process.
    public static let current = locate(
        buildCheckout: compiledCheckout, executable: Bundle.main.executableURL)

    /// The checkout this file was compiled in: `#filePath` is
    /// `<checkout>/Tools/boiler/Sources/BoilerCLI/Project/DefaultKit.swift`.
    static var compiledCheckout: URL {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<6 { url.deleteLastPathComponent() }
        return url
    }

    /// Chooses the kit: `buildCheckout` if it holds the kit, else the nearest folder above
    /// `executable` (symbolic links resolved) that does, else the published kit.
    static func locate(buildCheckout: URL?, executable: URL?) -> DefaultKit {
        if let buildCheckout, holdsKit(buildCheckout) {
            return DefaultKit(source: .path(buildCheckout.standardizedFileURL.path), origin: .buildCheckout)
        }
        if let executable, let checkout = checkout(above: executable) {
            return DefaultKit(source: .path(checkout.path), origin: .besideExecutable)
        }
        return DefaultKit(source: .url(KitVersion.url, version: KitVersion.current), origin: .published)
    }

    /// The nearest folder above `file` (after resolving symbolic links) that holds the kit.
    static func checkout(above file: URL) -> URL? {
        var folder = file.resolvingSymlinksInPath().standardizedFileURL.deletingLastPathComponent()
        while true {
            if holdsKit(folder) { return folder }
            let parent = folder.deletingLastPathComponent()
            // At the root, deleting a component gives the root (or "/..") back: stop there.
            if parent.path == folder.path || parent.path.hasSuffix("/..") { return nil }
            folder = parent.standardizedFileURL
        }
    }

    /// Whether `folder` is a checkout of the kit: its `Package.swift` names the package
    /// `Boilerplate` and the umbrella's sources are there. Both are checked because a folder that
    /// merely has a manifest (a generated project, any package) must not be taken for the kit.
    static func holdsKit(_ folder: URL) -> Bool {
        let manifest = folder.appendingPathComponent("Package.swift")
        guard let text = try? String(contentsOf: manifest, encoding: .utf8),
            text.contains("name: \"Boilerplate\"")
        else { return false }
        var isDirectory: ObjCBool = false
        let umbrella = folder.appendingPathComponent("Umbrella/Sources/Boilerplate").path
        return FileManager.default.fileExists(atPath: umbrella, isDirectory: &isDirectory) && isDirectory.boolValue
    }
}
