import Testing

/// Polls `condition` until it holds, giving up (and failing) after a generous bound.
func eventually(_ what: String, _ condition: () -> Bool) async {
    for _ in 0..<5_000 {
        if condition() { return }
        try? await Task.sleep(for: .milliseconds(2))
    }
    Issue.record("Timed out waiting until \(what).")
}
