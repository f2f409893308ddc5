import Foundation
import Testing

/// A copy under `.boiler/templates/` that matches no template file is named by the real
/// `boiler` process: `add` and `update` warn (and still do their work), `doctor` exits 1.
/// Nothing is built here: a few runs of boiler, well under a second each.
@Suite("boiler names a template copy that matches no template file")
struct StrayTemplateCopyTests {
    @Test("add and update warn naming the file, doctor reports it and exits 1")
    func warned() async throws {
        let scratch = try ScratchFolder()
        defer { scratch.remove() }
        let made = try await BoilerProcess.boiler(
            ["new", "Notes", "--template", "server", "--kit-path", "/k", "--no-git", "--no-interactive"],
            in: scratch.url)
        #expect(made.status == 0, "\(made.output)")
        let project = scratch.url.appendingPathComponent("Notes")
        let typo = ".boiler/templates/resource/Sources/Core/HTTP/ResourceRoute.swift.mustache"
        let url = project.appendingPathComponent(typo)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data("// ours\n".utf8).write(to: url)

        let added = try await BoilerProcess.boiler(["add", "resource", "Tag", "name:String"], in: project)
        #expect(added.status == 0, "\(added.output)")
        #expect(added.output.contains("warning: \"\(typo)\" matches no template file"), "\(added.output)")
        // The typo is not read: the routes are boiler's.
        let routes = try String(
            contentsOf: project.appendingPathComponent("Sources/NotesCore/HTTP/TagRoutes.swift"), encoding: .utf8)
        #expect(routes.contains("public enum TagRoutes"))

        let updated = try await BoilerProcess.boiler(["update", "--dry-run"], in: project)
        #expect(updated.status == 0, "\(updated.output)")
        #expect(updated.output.contains("warning: \"\(typo)\" matches no template file"), "\(updated.output)")

        let doctor = try await BoilerProcess.boiler(["doctor"], in: project)
        #expect(doctor.status == 1, "\(doctor.output)")
        #expect(doctor.output.contains("\"\(typo)\" matches no template file"), "\(doctor.output)")

        try FileManager.default.removeItem(at: url)
        let healthy = try await BoilerProcess.boiler(["doctor"], in: project)
        #expect(healthy.status == 0, "\(healthy.output)")
    }
}
