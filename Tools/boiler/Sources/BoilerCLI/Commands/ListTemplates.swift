import ArgumentParser
import Foundation

/// `boiler templates`: what `boiler new --template` accepts.
struct ListTemplates: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "templates", abstract: "List the project templates.")

    @Flag(help: "Print JSON: an array of {name, summary}.")
    var json = false

    func run() throws {
        if json {
            let entries = TemplateKind.allCases.map { ["name": $0.rawValue, "summary": $0.summary] }
            let data = try JSONSerialization.data(withJSONObject: entries, options: [.prettyPrinted, .sortedKeys])
            print(String(decoding: data, as: UTF8.self))
        } else {
            for kind in TemplateKind.allCases {
                print("\(kind.rawValue.padding(toLength: 9, withPad: " ", startingAt: 0)) \(kind.summary)")
            }
        }
    }
}
