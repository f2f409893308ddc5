// `swift run -c release --package-path Tools/Benchmarks bench [--filter S] [--json] [--smoke]`
import Foundation

let arguments = CommandLine.arguments.dropFirst()
let json = arguments.contains("--json")
let smoke = arguments.contains("--smoke")
let plan: MeasurementPlan = smoke ? .smoke : .full
var filter: String?
if let index = arguments.firstIndex(of: "--filter"), arguments.index(after: index) < arguments.endIndex {
    filter = arguments[arguments.index(after: index)]
}

/// Every suite's cases, in dependency order. A suite file adds its cases here.
let suites: [(String, () async throws -> [BenchmarkCase])] = [
    ("operations", OperationsBenchmarks.cases),
    ("commands", CommandsBenchmarks.cases),
    ("appcore", AppCoreBenchmarks.cases),
    ("eventbus", EventBusBenchmarks.cases),
    ("router", RouterBenchmarks.cases),
    ("serialization", SerializationBenchmarks.cases),
    ("modelgen", ModelGenBenchmarks.cases),
    ("storage", StorageBenchmarks.cases),
    ("records", RecordsBenchmarks.cases),
    ("records-postgres", { try await RecordsPostgresBenchmarks.cases(smoke: smoke) }),
    ("networking", NetworkingBenchmarks.cases),
    ("sync", { try await SyncBenchmarks.cases(smoke: smoke) }),
]

/// Suites worth setting up for the filter: setup can be costly (servers, data sets), so a filter
/// naming a suite (`router`, `router/github`) sets up only that one; any other filter sets up all.
@MainActor func wanted(_ suite: String) -> Bool {
    guard let filter else { return true }
    let head = String(filter.split(separator: "/").first ?? "")
    let namesSuite = suites.contains { $0.0.contains(head) }
    return !namesSuite || suite.contains(head)
}

if !json { print(Report.tableHeader()) }
var failures = 0
for (suite, makeCases) in suites where wanted(suite) {
    let cases: [BenchmarkCase]
    do {
        cases = try await makeCases().filter { filter == nil || "\($0.suite)/\($0.name)".contains(filter ?? "") }
    } catch {
        FileHandle.standardError.write(Data("bench: setting up \(suite) failed: \(error)\n".utf8))
        failures += 1
        await SuiteCleanup.run()
        continue
    }
    for benchmark in cases {
        do {
            let result = try await Measurement.run(benchmark, plan: plan)
            print(json ? Report.jsonLine(result) : Report.tableRow(result, smoke: smoke))
        } catch {
            FileHandle.standardError.write(Data("bench: \(benchmark.suite)/\(benchmark.name) failed: \(error)\n".utf8))
            failures += 1
        }
    }
    await SuiteCleanup.run()
}
// The suites' databases and files, shared by their cases, go once every case has run.
ScratchFolders.removeAll()
if failures > 0 { exit(1) }
