import Foundation
import Testing

@Suite("boiler generate models, end to end")
struct GenerateModelsTests {
    static let designs = [
        "mogenerator-test.xcdatamodel", "MogenSwiftTest.xcdatamodeld", "SwiftGenModel.xcdatamodeld",
        "SpotTestModels.xcdatamodeld", "TSBoilerplateModel.xcdatamodeld",
    ]

    static var models: URL {
        BoilerProcess.kitRoot.deletingLastPathComponent().appendingPathComponent("shared/data/models")
    }

    @Test("every shared model design generates; a second run changes nothing; human files survive", arguments: designs)
    func generate(design: String) throws {
        let scratch = try ScratchFolder()
        defer { scratch.remove() }
        let output = scratch.url.appendingPathComponent("Models")
        let path = Self.models.appendingPathComponent(design).path
        let first = try BoilerProcess.boiler(["generate", "models", path, "--output", output.path], in: scratch.url)
        #expect(first.status == 0, "\(first.output)")
        let files = try FileManager.default.contentsOfDirectory(atPath: output.path)
        let machine = files.filter { $0.hasPrefix("_") && $0.hasSuffix(".swift") }
        #expect(!machine.isEmpty)
        #expect(machine.count == files.filter { !$0.hasPrefix("_") }.count)

        let human = output.appendingPathComponent(String(try #require(machine.first).dropFirst()))
        try Data("// mine\n".utf8).write(to: human)
        let second = try BoilerProcess.boiler(
            ["generate", "models", path, "--output", output.path], in: scratch.url)
        #expect(second.status == 0, "\(second.output)")
        #expect(second.output.contains("0 file(s) changed"))
        #expect(try String(contentsOf: human, encoding: .utf8) == "// mine\n")
    }

    @Test("a design that is not a model is an error that names the file, and nothing is written")
    func badDesign() throws {
        let scratch = try ScratchFolder()
        defer { scratch.remove() }
        let design = scratch.url.appendingPathComponent("broken.yaml")
        try Data("entities: [ {name: 1".utf8).write(to: design)
        let output = scratch.url.appendingPathComponent("Models")
        let result = try BoilerProcess.boiler(
            ["generate", "models", design.path, "--output", output.path], in: scratch.url)
        #expect(result.status == 1)
        #expect(result.output.contains("broken.yaml"))
        #expect(!FileManager.default.fileExists(atPath: output.path))
    }
}
