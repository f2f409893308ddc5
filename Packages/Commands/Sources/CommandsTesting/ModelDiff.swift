/// A line diff of two values' `dump` output, for failure messages.
enum ModelDiff {
    /// Lines only in `expected` start with "−", lines only in `actual` with "+"; a few
    /// unchanged lines around each change keep their place readable.
    static func describe<Value>(expected: Value, actual: Value) -> String {
        let old = lines(of: expected)
        let new = lines(of: actual)
        let table = lcsTable(old, new)
        var output: [(mark: Character, text: String)] = []
        var i = 0
        var j = 0
        while i < old.count || j < new.count {
            if i < old.count, j < new.count, old[i] == new[j] {
                output.append((" ", old[i]))
                i += 1
                j += 1
            } else if j < new.count, i == old.count || table[i][j + 1] >= table[i + 1][j] {
                output.append(("+", new[j]))
                j += 1
            } else {
                output.append(("−", old[i]))
                i += 1
            }
        }
        let changed = output.indices.filter { output[$0].mark != " " }
        let shown = Set(changed.flatMap { max(0, $0 - 2)...min(output.count - 1, $0 + 2) })
        return output.indices.filter(shown.contains).map { "\(output[$0].mark) \(output[$0].text)" }
            .joined(separator: "\n")
    }

    static func lines<Value>(of value: Value) -> [String] {
        var text = ""
        dump(value, to: &text)
        return text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init).filter { !$0.isEmpty }
    }

    /// `table[i][j]` is the length of the longest common subsequence of `a[i...]` and `b[j...]`.
    private static func lcsTable(_ a: [String], _ b: [String]) -> [[Int]] {
        var table = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in stride(from: a.count - 1, through: 0, by: -1) {
            for j in stride(from: b.count - 1, through: 0, by: -1) {
                table[i][j] = a[i] == b[j] ? table[i + 1][j + 1] + 1 : max(table[i + 1][j], table[i][j + 1])
            }
        }
        return table
    }
}
