/// What a screen that loads data shows: the heir of `MDStatefulViewController`'s views.
public enum LoadState<Value: Sendable>: Sendable {
    /// Nothing loaded yet: the starting view.
    case idle
    /// A load is under way: the loading view.
    case loading
    /// The load returned data to show: the primary view.
    case loaded(Value)
    /// The load succeeded with nothing to show: the no-results view.
    case empty
    /// The load failed: the retry view, with the error's `userMessage`.
    case failed(any Error)

    /// The loaded value, if any.
    public var value: Value? {
        if case .loaded(let value) = self { return value }
        return nil
    }

    /// The error, if the load failed.
    public var error: (any Error)? {
        if case .failed(let error) = self { return error }
        return nil
    }

    /// Whether a load is under way.
    public var isLoading: Bool {
        if case .loading = self { return true }
        return false
    }

    /// The state's name, for tests, logs and switch-free UI code: `idle`, `loading`,
    /// `loaded`, `empty` or `failed`.
    public var name: String {
        switch self {
        case .idle: "idle"
        case .loading: "loading"
        case .loaded: "loaded"
        case .empty: "empty"
        case .failed: "failed"
        }
    }
}
