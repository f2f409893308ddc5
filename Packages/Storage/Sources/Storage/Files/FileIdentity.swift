import Foundation

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Enough of a file's `stat` to tell whether it changed since it was last read.
///
/// Every atomic save creates a new inode, so a save by another process always changes the
/// identity even when size and modification time happen to match.
struct FileIdentity: Equatable, Sendable {
    var device: UInt64
    var inode: UInt64
    var size: Int64
    var modified: Int64
    var modifiedNanoseconds: Int64

    /// The identity of the file at `url`, or nil when there is none.
    static func of(_ url: URL) -> FileIdentity? {
        var info = stat()
        let result = url.withUnsafeFileSystemRepresentation { path -> Int32 in
            guard let path else { return -1 }
            return stat(path, &info)
        }
        guard result == 0 else { return nil }
        #if canImport(Darwin)
            let seconds = Int64(info.st_mtimespec.tv_sec)
            let nanoseconds = Int64(info.st_mtimespec.tv_nsec)
        #else
            let seconds = Int64(info.st_mtim.tv_sec)
            let nanoseconds = Int64(info.st_mtim.tv_nsec)
        #endif
        return FileIdentity(
            device: UInt64(info.st_dev), inode: UInt64(info.st_ino), size: Int64(info.st_size), modified: seconds,
            modifiedNanoseconds: nanoseconds)
    }
}
