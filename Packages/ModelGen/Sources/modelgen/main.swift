// `modelgen`: the generator as a plain executable, for the SwiftPM build-tool and command
// plugins (which can only run tools). People use `boiler generate models` instead.
import Foundation
import ModelGen

func fail(_ message: String, code: Int32) -> Never {
    FileHandle.standardError.write(Data("modelgen: \(message)\n".utf8))
    exit(code)
}

let arguments: ToolArguments
do {
    arguments = try ToolArguments(Array(CommandLine.arguments.dropFirst()))
} catch let error as ToolArguments.UsageError {
    if error.message.isEmpty {
        print(ToolArguments.usage)
        exit(0)
    }
    fail("\(error.message)\n\(ToolArguments.usage)", code: 64)
} catch {
    fail("\(error.localizedDescription)", code: 64)
}
guard let design = arguments.design, let output = arguments.output else {
    fail("a design and --output are required\n\(ToolArguments.usage)", code: 64)
}
do {
    let report = try ModelGenerator(options: arguments.options).generate(from: design, into: output)
    let verb = arguments.options.isDryRun ? "would " : ""
    for warning in report.warnings { FileHandle.standardError.write(Data("warning: \(warning)\n".utf8)) }
    if !arguments.quiet {
        for line in report.plan { print(line) }
        for path in report.written { print("\(verb)write \(path)") }
        for path in report.createdHumanFiles { print("\(verb)create \(path)") }
        for path in report.pruned { print("\(verb)remove \(path)") }
        for path in report.orphans where !report.pruned.contains(path) {
            print("orphan \(path) (its entity is gone; --prune removes it)")
        }
        print(
            "\(report.changeCount) file(s) \(verb.isEmpty ? "changed" : "would change"), \(report.unchanged.count) unchanged"
        )
    }
} catch {
    switch error as? ModelGenError {
    case .unownedFile?, .editedOrphans?: fail(error.localizedDescription, code: 73)  // files in the way
    case .invalidOption?: fail(error.localizedDescription, code: 64)
    default: fail(error.localizedDescription, code: 1)
    }
}
