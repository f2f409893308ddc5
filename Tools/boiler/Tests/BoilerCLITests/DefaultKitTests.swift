import Foundation
import Testing

@testable import BoilerCLI

@Suite("the kit boiler new uses by default")
struct DefaultKitTests {
    /// Makes `folder` look like a checkout of the kit: the manifest and the umbrella's sources.
    static func makeKit(at folder: URL) throws {
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent("Umbrella/Sources/Boilerplate"), withIntermediateDirectories: true)
        try Data("let package = Package(\n    name: \"Boilerplate\",\n)\n".utf8)
            .write(to: folder.appendingPathComponent("Package.swift"))
    }

    /// An executable file at `relative` under `folder`.
    static func makeExecutable(_ relative: String, in folder: URL) throws -> URL {
        let file = folder.appendingPathComponent(relative)
        try FileManager.default.createDirectory(
            at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data("#!/bin/sh\n".utf8).write(to: file)
        return file
    }

    @Test("the checkout boiler was compiled from is this repository, and it holds the kit")
    func compiledCheckoutIsThisRepository() {
        let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        #expect(DefaultKit.compiledCheckout.standardizedFileURL.path == repository.standardizedFileURL.path)
        #expect(DefaultKit.holdsKit(DefaultKit.compiledCheckout))
        // A boiler built by these tests is built from a checkout, so it gives new projects that checkout.
        #expect(DefaultKit.current.origin == .buildCheckout)
        #expect(DefaultKit.current.source == .path(DefaultKit.compiledCheckout.standardizedFileURL.path))
    }

    @Test("a build checkout that still holds the kit wins over the executable's folder")
    func buildCheckoutFirst() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let built = temp.url.appendingPathComponent("kit")
        let other = temp.url.appendingPathComponent("other")
        try Self.makeKit(at: built)
        try Self.makeKit(at: other)
        let executable = try Self.makeExecutable(".build/debug/boiler", in: other)
        let kit = DefaultKit.locate(buildCheckout: built, executable: executable)
        #expect(kit == DefaultKit(source: .path(built.standardizedFileURL.path), origin: .buildCheckout))
        #expect(kit.summary.contains("the checkout this boiler was built from"))
    }

    @Test("a build checkout that was deleted is passed over for the checkout the executable is in")
    func movedCheckout() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let moved = temp.url.appendingPathComponent("moved")
        try Self.makeKit(at: moved)
        let executable = try Self.makeExecutable(".build/x86_64-unknown-linux-gnu/release/boiler", in: moved)
        let kit = DefaultKit.locate(
            buildCheckout: temp.url.appendingPathComponent("deleted"), executable: executable)
        #expect(kit.origin == .besideExecutable)
        #expect(kit.source == .path(moved.resolvingSymlinksInPath().standardizedFileURL.path))
        #expect(kit.summary.contains("the checkout this boiler's executable is in"))
    }

    @Test("a symbolic link to the executable is followed to the checkout it lives in")
    func symlinkedExecutable() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let checkout = temp.url.appendingPathComponent("kit")
        try Self.makeKit(at: checkout)
        let executable = try Self.makeExecutable(".build/debug/boiler", in: checkout)
        let bin = temp.url.appendingPathComponent("bin")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        let link = bin.appendingPathComponent("boiler")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: executable)
        let kit = DefaultKit.locate(buildCheckout: nil, executable: link)
        #expect(kit.source == .path(checkout.resolvingSymlinksInPath().standardizedFileURL.path))
    }

    @Test("a folder with some other package's manifest, or a manifest without the umbrella, is not the kit")
    func lookalikesAreNotTheKit() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let project = temp.url.appendingPathComponent("Notes")
        try FileManager.default.createDirectory(
            at: project.appendingPathComponent("Umbrella/Sources/Boilerplate"), withIntermediateDirectories: true)
        try Data("let package = Package(name: \"Notes\")\n".utf8)
            .write(to: project.appendingPathComponent("Package.swift"))
        let halfKit = temp.url.appendingPathComponent("half")
        try FileManager.default.createDirectory(at: halfKit, withIntermediateDirectories: true)
        try Data("let package = Package(\n    name: \"Boilerplate\",\n)\n".utf8)
            .write(to: halfKit.appendingPathComponent("Package.swift"))
        #expect(!DefaultKit.holdsKit(project))
        #expect(!DefaultKit.holdsKit(halfKit))
        let executable = try Self.makeExecutable(".build/debug/boiler", in: project)
        let kit = DefaultKit.locate(buildCheckout: halfKit, executable: executable)
        #expect(kit.origin == .published)
    }

    @Test("with no checkout anywhere, new projects get the published URL at boiler's own version")
    func publishedFallback() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let executable = try Self.makeExecutable("prefix/bin/boiler", in: temp.url)
        let kit = DefaultKit.locate(buildCheckout: temp.url.appendingPathComponent("gone"), executable: executable)
        #expect(kit == DefaultKit(source: .url(KitVersion.url, version: KitVersion.current), origin: .published))
        #expect(kit.summary.contains(KitVersion.url))
        #expect(kit.summary.contains("from \(KitVersion.current)"))
        #expect(DefaultKit.locate(buildCheckout: nil, executable: nil).origin == .published)
    }

    @Test("--kit-path wins, then --kit-url or --kit-version, then the default kit")
    func optionsWin() {
        let checkout = DefaultKit(source: .path("/src/kit"), origin: .buildCheckout)
        #expect(NewProject.kit(path: "/a/b/../kit", url: nil, version: nil, default: checkout) == .path("/a/kit"))
        #expect(
            NewProject.kit(path: nil, url: "https://example.com/kit.git", version: nil, default: checkout)
                == .url("https://example.com/kit.git", version: KitVersion.current))
        #expect(
            NewProject.kit(path: nil, url: nil, version: "0.2.0", default: checkout)
                == .url(KitVersion.url, version: "0.2.0"))
        #expect(NewProject.kit(path: nil, url: nil, version: nil, default: checkout) == .path("/src/kit"))
    }
}
