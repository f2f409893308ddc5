import _KitSupport

/// The names `String(describing:)` gives types, worked out once per type.
///
/// `String(describing: T.self)` goes through the runtime's generic printing path (conformance
/// checks, a `Mirror`) on every call, and a command's default name is read on every change: by
/// ``ModelChange/name``, the journal, middleware, and the umbrella's `ModelDidChange`. A
/// type's name does not change while the process runs, so it is kept, per type. The table
/// grows with the number of distinct command types a program runs, not with the commands.
enum TypeNames {
    private static let names = Locked<[ObjectIdentifier: String]>([:])

    /// `String(describing: type)`, from the table after the first call for `type`.
    static func name(of type: Any.Type) -> String {
        let key = ObjectIdentifier(type)
        if let name = names.withLock({ $0[key] }) { return name }
        // Worked out outside the lock: it may take the runtime's own locks.
        let name = String(describing: type)
        names.withLock { $0[key] = name }
        return name
    }
}
