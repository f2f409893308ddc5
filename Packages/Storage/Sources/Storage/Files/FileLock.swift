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
        while flock(descriptor, LOCK_EX) != 0 {
            if errno != EINTR { throw StorageError.lockFailed(lockURL, errno: errno) }
        }
        defer { flock(descriptor, LOCK_UN) }
        return try body()
    }
}
