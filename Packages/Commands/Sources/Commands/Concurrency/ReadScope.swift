import Foundation

/// Tracks, per thread, whether a ``ModelStore/read(_:)`` closure is running, so that debug
/// builds can stop a command started from inside one.
@usableFromInline
enum ReadScope {
    #if DEBUG
        private static let key: pthread_key_t = {
            var key = pthread_key_t()
            pthread_key_create(&key, nil)
            return key
        }()

        static var depth: Int {
            Int(bitPattern: pthread_getspecific(key))
        }

        static func enter() {
            pthread_setspecific(key, UnsafeRawPointer(bitPattern: depth + 1))
        }

        static func leave() {
            pthread_setspecific(key, UnsafeRawPointer(bitPattern: depth - 1))
        }
    #endif

    /// Traps in debug builds when called from inside a read closure.
    @usableFromInline static func checkNotReading(_ command: @autoclosure () -> String) {
        #if DEBUG
            if depth > 0 {
                preconditionFailure(
                    "Commands: \(command()) was started from inside ModelStore.read { }. "
                        + "A read closure only reads; run the command after the closure returns.")
            }
        #endif
    }
}
