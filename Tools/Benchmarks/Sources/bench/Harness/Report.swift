import Foundation

enum Report {
    /// `{"suite":"router","case":"github-api-match","ours_ns":…,"peer":"routing-kit","peer_ns":…,"ratio":…}`
    static func jsonLine(_ result: BenchmarkResult) -> String {
        var fields: [(String, String)] = [
            ("suite", quoted(result.suite)), ("case", quoted(result.name)),
            ("ours_ns", number(result.oursNanoseconds)),
            ("peer", result.peer.map(quoted) ?? "null"),
            ("peer_ns", result.peerNanoseconds.map(number) ?? "null"),
            ("ratio", result.ratio.map(number) ?? "null"),
            ("target", result.target.map(number) ?? "null"),
        ]
        for (key, value) in result.metrics.sorted(by: { $0.key < $1.key }) {
            fields.append((key, number(value)))
        }
        return "{" + fields.map { "\(quoted($0.0)):\($0.1)" }.joined(separator: ",") + "}"
    }

    static func tableHeader() -> String {
        row(["suite", "case", "ours", "peer", "peer time", "ratio", "target", "notes"])
    }

    static func tableRow(_ result: BenchmarkResult, smoke: Bool = false) -> String {
        let verdict: String
        if smoke {
            // A smoke run is a debug build measured once: it proves the case runs, nothing more.
            verdict = "smoke"
        } else if let ratio = result.ratio, let target = result.target {
            verdict = ratio >= target ? "≥ \(format(target)) ✓" : "≥ \(format(target)) ✗"
        } else {
            verdict = result.target.map { "≥ \(format($0))" } ?? "report"
        }
        let notes = result.metrics.sorted(by: { $0.key < $1.key }).map { "\($0.key)=\(format($0.value))" }
        return row([
            result.suite, result.name, time(result.oursNanoseconds), result.peer ?? "—",
            result.peerNanoseconds.map(time) ?? "—", result.ratio.map { format($0) + "×" } ?? "—", verdict,
            notes.joined(separator: " "),
        ])
    }

    static func row(_ cells: [String]) -> String {
        let widths = [12, 42, 10, 38, 10, 8, 10, 0]
        return zip(cells, widths).map { cell, width in
            cell.count >= width ? cell : cell + String(repeating: " ", count: width - cell.count)
        }.joined(separator: " ")
    }

    static func time(_ nanoseconds: Double) -> String {
        switch nanoseconds {
        case ..<1_000: "\(format(nanoseconds)) ns"
        case ..<1_000_000: "\(format(nanoseconds / 1_000)) µs"
        case ..<1_000_000_000: "\(format(nanoseconds / 1_000_000)) ms"
        default: "\(format(nanoseconds / 1_000_000_000)) s"
        }
    }

    static func format(_ value: Double) -> String {
        if value.isNaN { return "nan" }
        return value >= 100 || value == value.rounded() ? String(Int(value.rounded())) : String(format: "%.2f", value)
    }

    static func number(_ value: Double) -> String {
        value.isFinite ? String(format: "%.3f", value) : "null"
    }

    static func quoted(_ text: String) -> String {
        "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }
}
