/// Compares models whose type turns out to be `Equatable`, without requiring it of every model.
enum ModelEquality {
    /// `==` for `Model` when it is `Equatable`; nil otherwise. Worked out once per runner.
    static func unchangedTest<Model: Sendable>(for model: Model.Type) -> (@Sendable (Model, Model) -> Bool)? {
        guard let equatable = model as? any (Equatable & Sendable).Type else { return nil }
        return test(equatable)

        func test<E: Equatable & Sendable>(_: E.Type) -> @Sendable (Model, Model) -> Bool {
            // `E` is `Model` itself (the cast above proved it), so the casts are identities.
            { old, new in unsafeBitCast(old, to: E.self) == unsafeBitCast(new, to: E.self) }
        }
    }
}
