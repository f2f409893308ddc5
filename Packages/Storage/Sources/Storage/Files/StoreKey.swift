import Foundation

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Checks keys and turns them into file URLs that cannot leave a store's folder.
enum StoreKey {
    /// The components of a valid relative key such as `"notes/2024/a.json"`.
    ///
    /// The key is read as the file system reads it, byte by byte: a combining mark after a `/`
    /// makes one `Character` of the two, but the file system still splits there, so splitting
    /// or comparing by `Character` would let `"../\u{301}x"` through as one harmless name.
    ///
    /// - Throws: ``StorageError/invalidKey(_:reason:)`` for an empty key, an absolute path, a
    ///   NUL byte, a `.` or `..` component, an empty component (`a//b`), a backslash, or a name
    ///   the store reserves for its own temporary, lock and corrupt files.
    static func components(of key: String) throws(StorageError) -> [Substring] {
        let bytes = key.utf8
        if bytes.isEmpty { throw .invalidKey(key, reason: "it is empty") }
        if bytes.contains(0) { throw .invalidKey(key, reason: "it contains a NUL byte") }
        if let first = bytes.first, first == UInt8(ascii: "/") || first == UInt8(ascii: "~") {
            throw .invalidKey(key, reason: "it is an absolute path; keys are relative to the store's folder")
        }
        if bytes.contains(UInt8(ascii: "\\")) { throw .invalidKey(key, reason: "it contains a backslash") }
        var parts: [Substring] = []
        var start = bytes.startIndex
        while true {
            let end = bytes[start...].firstIndex(of: UInt8(ascii: "/")) ?? bytes.endIndex
            let part = bytes[start..<end]
            switch part.count {
            case 0: throw .invalidKey(key, reason: "it has an empty path component")
            case 1 where part.first == UInt8(ascii: "."), 2 where part.elementsEqual("..".utf8):
                throw .invalidKey(key, reason: "it contains a \"\(Substring(part))\" component")
            case 256...: throw .invalidKey(key, reason: "a component is longer than 255 bytes")
            default:
                if AtomicFile.isReserved(name: Substring(part)) {
                    throw .invalidKey(key, reason: "names starting with \".~\" are reserved for the store's own files")
                }
            }
            parts.append(Substring(part))
            if end == bytes.endIndex { return parts }
            start = bytes.index(after: end)
        }
    }

    /// Bytes the store adds to a key's file name for its own files beside it: the temporary
    /// file (`.~<name>.<pid>.<random>.tmp`, at most 28), the lock (`.~<name>.lock`, 7) and a
    /// quarantined file the app chose to keep (`<name>.corrupt-<timestamp>.kept`, 34).
    static let reservedNameBytes = 34

    /// The longest file name (last component) a key may have: `NAME_MAX` (255 bytes) minus
    /// ``reservedNameBytes``, so that every file the store derives from it can be created.
    static let maximumNameBytes = 255 - reservedNameBytes

    /// The longest path the system accepts, terminating NUL included.
    static let maximumPathBytes = Int(PATH_MAX)

    /// The URL of `key` inside `folder`, after validation.
    ///
    /// - Throws: ``StorageError/invalidKey(_:reason:)``, or ``StorageError/keyTooLong(_:limit:)``
    ///   when the key's file name, or the path of a file derived from it, would be too long.
    static func url(of key: String, in folder: URL) throws(StorageError) -> URL {
        var url = folder
        let parts = try components(of: key)
        if let name = parts.last, name.utf8.count > maximumNameBytes {
            throw .keyTooLong(key, limit: maximumNameBytes)
        }
        // The folder's path, "/", the key and the longest derived suffix must fit, with the NUL.
        let pathLimit = maximumPathBytes - 1 - folder.path.utf8.count - 1 - reservedNameBytes
        if key.utf8.count > pathLimit { throw .keyTooLong(key, limit: max(0, pathLimit)) }
        for (index, part) in parts.enumerated() {
            url.appendPathComponent(String(part), isDirectory: index < parts.count - 1)
        }
        return url
    }
}
