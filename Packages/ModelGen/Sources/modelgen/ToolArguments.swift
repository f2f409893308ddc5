import Foundation
import ModelGen

/// The command line of the `modelgen` tool the SwiftPM plugins run.
struct ToolArguments {
    var design: URL?
    var output: URL?
    var options = GenerationOptions()
    var quiet = false
    var templateVariables: [String] = []

    static let usage = """
        usage: modelgen <design> --output <dir> [--human-output <dir>] [--template-path <dir>]
                        [--template-var key=value]... [--access public|package|internal]
                        [--import Module]... [--conformance Protocol]... [--single-file <name>]
                        [--queryable] [--no-human] [--prune] [--force] [--dry-run] [--quiet]
        """

    struct UsageError: Error {
        var message: String
    }

    init(_ arguments: [String]) throws {
        var iterator = arguments.makeIterator()
        func value(for flag: String) throws -> String {
            guard let next = iterator.next() else { throw UsageError(message: "\(flag) needs a value") }
            return next
        }
        while let argument = iterator.next() {
            switch argument {
            case "--output", "-o": output = URL(fileURLWithPath: try value(for: argument))
            case "--human-output": options.humanDirectory = URL(fileURLWithPath: try value(for: argument))
            case "--template-path": options.templateDirectory = URL(fileURLWithPath: try value(for: argument))
            case "--template-var": templateVariables.append(try value(for: argument))
            case "--access": options.accessLevel = try value(for: argument)
            case "--import": options.imports.append(try value(for: argument))
            case "--conformance": options.conformances.append(try value(for: argument))
            case "--single-file": options.singleFileName = try value(for: argument)
            case "--queryable": options.queryable = true
            case "--no-human": options.createsHumanFiles = false
            case "--prune": options.prunesOrphans = true
            case "--force": options.force = true
            case "--dry-run": options.isDryRun = true
            case "--quiet": quiet = true
            case "--help", "-h": throw UsageError(message: "")
            default:
                if argument.hasPrefix("-") { throw UsageError(message: "unknown option \(argument)") }
                guard design == nil else { throw UsageError(message: "more than one design given") }
                design = URL(fileURLWithPath: argument)
            }
        }
        options.templateVariables = try GenerationOptions.templateVariables(from: templateVariables)
    }
}
