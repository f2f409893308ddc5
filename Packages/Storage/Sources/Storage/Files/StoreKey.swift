import Foundation

/// Checks keys and turns them into file URLs that cannot leave a store's folder.
enum StoreKey {
    /// The components of a valid relative key such as `"notes/2024/a.json"`.
    ///
    /// - Throws: ``StorageError/invalidKey(_:reason:)`` for an empty key, an absolute path, a
    ///   NUL byte, a `.` or `..` component, an empty component (`a//b`), a backslash, or a name
    ///   the store reserves for its own temporary, lock and corrupt files.
    static func components(of key: String) throws(StorageError) -> [Substring] {
        if key.isEmpty { throw .invalidKey(key, reason: "it is empty") }
        if key.utf8.contains(0) { throw .invalidKey(key, reason: "it contains a NUL byte") }
        if key.hasPrefix("/") || key.hasPrefix("~") {
            throw .invalidKey(key, reason: "it is an absolute path; keys are relative to the store's folder")
        }
        if key.contains("\\") { throw .invalidKey(key, reason: "it contains a backslash") }
        let parts = key.split(separator: "/", omittingEmptySubsequences: false)
        for part in parts {
            switch part {
            case "": throw .invalidKey(key, reason: "it has an empty path component")
            case ".", "..": throw .invalidKey(key, reason: "it contains a \"\(part)\" component")
            default:
                if part.utf8.count > 255 { throw .invalidKey(key, reason: "a component is longer than 255 bytes") }
                if AtomicFile.isReserved(name: part) {
                    throw .invalidKey(key, reason: "names starting with \".~\" are reserved for the store's own files")
                }
            }
        }
        return parts
    }

    /// The URL of `key` inside `folder`, after validation.
    static func url(of key: String, in folder: URL) throws(StorageError) -> URL {
        var url = folder
        let parts = try components(of: key)
        for (index, part) in parts.enumerated() {
            url.appendPathComponent(String(part), isDirectory: index < parts.count - 1)
        }
        return url
    }
}
