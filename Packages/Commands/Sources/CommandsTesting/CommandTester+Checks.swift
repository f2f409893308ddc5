import Commands

extension CommandTester {
    /// Pops the change the tester just caused and checks it.
    func assertNext(
        named name: String?, before: Model, site: CallSite, _ expected: (inout Model) throws -> Void
    )
        throws
    {
        guard let change = state.withLock({ $0.unasserted.isEmpty ? nil : $0.unasserted.removeFirst() }) else {
            var wanted = before
            try expected(&wanted)
            if wanted != before {
                reporter.report(
                    "\(name ?? "The step") changed nothing, but the test expected:\n"
                        + ModelDiff.describe(expected: before, actual: wanted), site)
            }
            return
        }
        try check(change, named: name, site: site, expected)
    }

    /// Checks that `change` was made by `name` (when given) and that `expected` turns its old
    /// model into its new one.
    func check(
        _ change: ModelChange<Model>, named name: String?, site: CallSite, _ expected: (inout Model) throws -> Void
    )
        throws
    {
        if let name, change.kind == .command, change.name != name {
            reporter.report("Expected a change by \(name), but the next change was made by \(change.name).", site)
        }
        var wanted = change.old
        try expected(&wanted)
        if wanted != change.new {
            reporter.report(
                "\(change.name) changed the model differently than expected (− expected, + actual):\n"
                    + ModelDiff.describe(expected: wanted, actual: change.new), site)
        }
    }

    /// Reports (and forgets) changes nobody asserted.
    func checkNothingPending(before next: String?, site: CallSite) {
        let unasserted = state.withLock { state in
            defer { state.unasserted.removeAll() }
            return state.unasserted
        }
        guard !unasserted.isEmpty else { return }
        reporter.report(Self.pendingMessage(unasserted, before: next), site)
    }

    static func pendingMessage(_ unasserted: [ModelChange<Model>], before next: String?) -> String {
        let names = unasserted.map(\.name).joined(separator: ", ")
        let when = next.map { "before \($0) ran" } ?? "at the end of the test"
        return "\(unasserted.count) change(s) were not asserted \(when): \(names). "
            + "Assert each with receive(_:), or the model changed in a way the test does not know."
    }
}

/// The name a change made by a `C` carries.
func commandName<C>(of type: C.Type) -> String {
    switch type {
    case let command as any Command.Type: command.commandName
    case let command as any AsyncCommand.Type: command.commandName
    default: String(describing: type)
    }
}
