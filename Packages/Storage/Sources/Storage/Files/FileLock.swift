import Foundation

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// An advisory, cross-process, exclusive lock on a file, taken with `flock(2)`.
///
/// The lock lives on a hidden sibling (`.~settings.json.lock`) rather than on the file itself,
/// because an atomic save replaces the file's inode and a lock on the old inode would protect
/// nothing. `flock` locks belong to an open file description, so two descriptors in the same
/// process exclude each other too, and the kernel drops the lock when a holder dies — even by
/// `SIGKILL` — so a crashed process never leaves a stale lock.
///
/// That same-process exclusion would make a nested call wait on itself forever (`withLock(key)
/// { load(key) }` when the load quarantines a corrupt file, or `withLock` inside a `Persisted`
/// update), so the lock is re-entrant per thread: a thread that already holds the lock of a
/// file runs a nested body at once. Bodies are synchronous, so the thread that took the lock is
/// the one that runs the whole body. Other threads and processes still wait.
struct FileLock {
    /// The lock file guarding `url`.
    static func lockURL(for url: URL) -> URL {
        url.deletingLastPathComponent().appendingPathComponent(".~" + url.lastPathComponent + ".lock")
    }

    /// Runs `body` while holding the exclusive lock for `url`, blocking until it is free.
    static func withLock<T>(for url: URL, _ body: () throws -> T) throws -> T {
        let lockURL = lockURL(for: url)
        let descriptor = lockURL.withUnsafeFileSystemRepresentation { path -> Int32 in
            guard let path else { return -1 }
            return open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        }
        if descriptor < 0 { throw StorageError.lockFailed(lockURL, errno: errno) }
        defer { close(descriptor) }
        // The lock file's inode names the lock, whatever path (or store copy) reached it.
        var info = stat()
        if fstat(descriptor, &info) != 0 { throw StorageError.lockFailed(lockURL, errno: errno) }
        let id = LockID(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
        if HeldLocks.shared.isHeldByCurrentThread(id) { return try body() }
        while flock(descriptor, LOCK_EX) != 0 {
            if errno != EINTR { throw StorageError.lockFailed(lockURL, errno: errno) }
        }
        HeldLocks.shared.take(id)
        defer {
            HeldLocks.shared.release(id)
            flock(descriptor, LOCK_UN)
        }
        return try body()
    }
}

/// A lock file, by device and inode.
private struct LockID: Hashable {
    var device: UInt64
    var inode: UInt64
}

/// Which thread of this process holds each lock it has taken, for re-entrance.
private final class HeldLocks: @unchecked Sendable {
    // @unchecked: `owners` is only touched while holding `lock`.
    static let shared = HeldLocks()
    private let lock = NSLock()
    private var owners: [LockID: pthread_t] = [:]

    func isHeldByCurrentThread(_ id: LockID) -> Bool {
        lock.withLock { owners[id].map { pthread_equal($0, pthread_self()) != 0 } ?? false }
    }

    func take(_ id: LockID) {
        lock.withLock { owners[id] = pthread_self() }
    }

    func release(_ id: LockID) {
        lock.withLock { owners[id] = nil }
    }
}
