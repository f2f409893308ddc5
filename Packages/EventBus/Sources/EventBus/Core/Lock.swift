#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The smallest mutual-exclusion lock the platform offers: `os_unfair_lock` on Apple platforms,
/// a `pthread_mutex_t` elsewhere. `Mutex` from `Synchronization` would do, but needs macOS 15.
final class Lock: @unchecked Sendable {
    #if canImport(Darwin)
        private let primitive: UnsafeMutablePointer<os_unfair_lock>
    #else
        private let primitive: UnsafeMutablePointer<pthread_mutex_t>
    #endif

    init() {
        primitive = .allocate(capacity: 1)
        #if canImport(Darwin)
            primitive.initialize(to: os_unfair_lock())
        #else
            primitive.initialize(to: pthread_mutex_t())
            let result = pthread_mutex_init(primitive, nil)
            precondition(result == 0, "EventBus: pthread_mutex_init failed with \(result)")
        #endif
    }

    deinit {
        #if !canImport(Darwin)
            pthread_mutex_destroy(primitive)
        #endif
        primitive.deinitialize(count: 1)
        primitive.deallocate()
    }

    @inline(__always)
    func lock() {
        #if canImport(Darwin)
            os_unfair_lock_lock(primitive)
        #else
            pthread_mutex_lock(primitive)
        #endif
    }

    @inline(__always)
    func unlock() {
        #if canImport(Darwin)
            os_unfair_lock_unlock(primitive)
        #else
            pthread_mutex_unlock(primitive)
        #endif
    }

    @inline(__always)
    func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
        lock()
        defer { unlock() }
        return try body()
    }
}

/// A value behind a lock, for the small pieces of shared state outside the bus itself.
final class Locked<Value>: @unchecked Sendable {
    private let lock = Lock()
    private var value: Value

    init(_ value: Value) { self.value = value }

    func withValue<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        try lock.withLock { try body(&value) }
    }

    var current: Value { lock.withLock { value } }
}
