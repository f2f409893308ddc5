import Foundation
import Testing

/// `boiler add` killed with SIGKILL at any of its steps leaves the project as it was, or — once
/// the next `boiler update` or `boiler add` finishes the committed journal — fully added; never
/// a file without its base or its record.
@Suite("boiler add killed mid-way", .serialized)
struct AddCrashTests {
    /// One add to kill: the template of the project and the arguments after `boiler add`.
    struct Case: CustomTestStringConvertible, Sendable {
        var template: String
        var add: [String]

        var testDescription: String { "\(template): boiler add \(add.joined(separator: " "))" }
    }

    static let cases = [
        // A part wired through the app's machine file.
        Case(template: "app", add: ["route", "Archive"]),
        // A resource wired through the server's machine file, with a default and an optional.
        Case(template: "server", add: ["resource", "Tag", "name:String", "rank:Int=3", "note:String?"]),
        // A synced resource: Package.swift and the app's machine file change too.
        Case(template: "app", add: ["resource", "Label", "title:String", "--synced"]),
    ]

    /// The add run after a kill past the commit point, to finish the job and add its own part.
    static let next = ["add", "command", "ArchiveAll", "--quiet"]

    /// `.boiler/pending` is where an add stages, before and after its commit point.
    static let ignored = [".boiler/pending"]

    @Test("SIGKILL at each step of an add in turn: the project is as it was or fully added", arguments: cases)
    func killedAdds(_ test: Case) async throws {
        let scratch = try ScratchFolder()
        defer { scratch.remove() }
        let project = scratch.url.appendingPathComponent("Notes")
        let made = try await BoilerProcess.boiler(
            [
                "new", "Notes", "--template", test.template, "--kit-path", BoilerProcess.kitRoot.path, "--output",
                project.path, "--no-git", "--no-interactive",
            ], in: scratch.url)
        try #require(made.status == 0, "\(made.output)")
        let arguments = ["add"] + test.add + ["--quiet"]
        let old = OlderTemplate.snapshot(project)

        // The added state, from an add nobody killed, and the state after the next add too.
        try #require(!(try await UpdateCrashTests.runKilled(arguments, in: project, atStep: nil)), "the add failed")
        let added = OlderTemplate.snapshot(project, excluding: Self.ignored)
        try #require(added.count > old.count, "the add wrote nothing")
        try #require(!(try await UpdateCrashTests.runKilled(Self.next, in: project, atStep: nil)))
        let addedTwice = OlderTemplate.snapshot(project, excluding: Self.ignored)
        // Nothing is left to update right after an add.
        try UpdateCrashTests.restore(added, in: project)
        let update = try await BoilerProcess.boiler(["update", "--dry-run"], in: project)
        let busy = update.output.split(separator: "\n").filter { $0.hasPrefix("  ") && !$0.contains("file(s) already") }
        #expect(update.status == 0 && busy.isEmpty, "\(update.output)")

        // A SIGKILL at each step in turn (rendering and planning are not steps: they write
        // nothing), until an add reaches its end before the step comes.
        var landings: [UpdateCrashTests.Landing: Int] = [:]
        var finishedByAdd = 0
        var step = 0
        while landings[.finished] == nil {
            step += 1
            try #require(step <= 500, "an add of \(added.count - old.count) files never finished")
            try UpdateCrashTests.restore(old, in: project)
            let killed = try await UpdateCrashTests.runKilled(arguments, in: project, atStep: step)
            let journal = project.appendingPathComponent(".boiler/pending/journal.json")
            let landing: UpdateCrashTests.Landing
            if FileManager.default.fileExists(atPath: journal.path) {
                landing = .afterCommit
                // Half done: the record refuses to be read until the next add or update finishes it.
                let doctor = try await BoilerProcess.boiler(["doctor"], in: project)
                #expect(doctor.output.contains("interrupted"), "step \(step): \(doctor.output)")
                if step % 2 == 0 {
                    let finish = try await BoilerProcess.boiler(["update"], in: project)
                    #expect(finish.status == 0, "step \(step): \(finish.output)")
                    #expect(
                        OlderTemplate.snapshot(project, excluding: Self.ignored) == added,
                        "step \(step): boiler update did not finish the add")
                } else {
                    let finish = try await BoilerProcess.boiler(Array(Self.next.dropLast()), in: project)
                    #expect(finish.status == 0, "step \(step): \(finish.output)")
                    #expect(finish.output.contains("Finished the change that was interrupted"), "\(finish.output)")
                    #expect(
                        OlderTemplate.snapshot(project, excluding: Self.ignored) == addedTwice,
                        "step \(step): the next boiler add did not finish the add, then add its own")
                    finishedByAdd += 1
                }
            } else {
                let now = OlderTemplate.snapshot(project, excluding: Self.ignored)
                landing = killed ? .beforeCommit : .finished
                if landing == .beforeCommit {
                    #expect(now == old, "step \(step): the project changed before the commit point")
                } else {
                    #expect(now == added, "step \(step): finished, but not as added")
                }
            }
            landings[landing, default: 0] += 1
        }
        let summary = UpdateCrashTests.Landing.allCases.map { "\($0.rawValue): \(landings[$0] ?? 0)" }
            .joined(separator: ", ")
        print("add crash test (\(test.testDescription)), where kills at each of \(step - 1) steps landed: \(summary)")
        // Files are staged before the commit point and moved after it: kills landed on both sides,
        // and both the next update and the next add finished an interrupted add.
        #expect((landings[.beforeCommit] ?? 0) >= 2, "\(summary)")
        #expect((landings[.afterCommit] ?? 0) >= 2, "\(summary)")
        #expect(finishedByAdd >= 1, "\(summary)")
    }
}
