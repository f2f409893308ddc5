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

    /// Checks that `change` was made by `name` (when given) and that `expected` holds for it.
    ///
    /// Exhaustive: `expected` turns the old model into exactly the new one. Non-exhaustive:
    /// applying `expected` to the new model leaves it unchanged, so every value the test sets
    /// is the actual one and nothing else is looked at.
    func check(
        _ change: ModelChange<Model>, named name: String?, site: CallSite, _ expected: (inout Model) throws -> Void
    )
        throws
    {
        if let name, change.kind == .command, change.name != name {
            reporter.report("Expected a change by \(name), but the next change was made by \(change.name).", site)
        }
        switch exhaustivity {
        case .on:
            var wanted = change.old
            try expected(&wanted)
            if wanted != change.new {
                reporter.report(
                    "\(change.name) changed the model differently than expected (− expected, + actual):\n"
                        + ModelDiff.describe(expected: wanted, actual: change.new), site)
            }
        case .off:
            var wanted = change.new
            try expected(&wanted)
            if wanted != change.new {
                reporter.report(
                    "\(change.name) left values the test names different from what it expected "
                        + "(− expected, + actual; only the named values are checked):\n"
                        + ModelDiff.describe(expected: wanted, actual: change.new), site)
            }
        }
    }

    /// The next change `receive` may assert: the oldest one, or, non-exhaustively, the oldest
    /// one by `name` (the changes before it are dropped unasserted).
    func nextReceivable(named name: String, in state: inout State) -> ModelChange<Model>? {
        switch state.exhaustivity {
        case .on:
            return state.unasserted.isEmpty ? nil : state.unasserted.removeFirst()
        case .off:
            guard let index = state.unasserted.firstIndex(where: { $0.kind == .command && $0.name == name }) else {
                return nil
            }
            let change = state.unasserted[index]
            state.unasserted.removeFirst(index + 1)
            return change
        }
    }

    /// Reports (and forgets) changes nobody asserted; non-exhaustively, only forgets them.
    func checkNothingPending(before next: String?, site: CallSite) {
        let (unasserted, exhaustivity) = state.withLock { state in
            defer { state.unasserted.removeAll() }
            return (state.unasserted, state.exhaustivity)
        }
        guard !unasserted.isEmpty, exhaustivity == .on else { return }
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
