import Foundation

/// Platform attributes given to every file a store writes.
///
/// Both are honoured on Apple platforms only; elsewhere they are accepted and do nothing
/// (Linux has no backup flag or data-protection classes).
public struct FileAttributes: Sendable, Hashable {
    /// Whether the file is excluded from iCloud and iTunes/Finder backups (Apple platforms).
    public var excludedFromBackup: Bool
    /// Whether the file is encrypted while the device is locked (iOS, tvOS, watchOS,
    /// visionOS: `FileProtectionType.complete`).
    public var completeProtection: Bool

    /// Attributes for a store's files; by default neither is set.
    public init(excludedFromBackup: Bool = false, completeProtection: Bool = false) {
        self.excludedFromBackup = excludedFromBackup
        self.completeProtection = completeProtection
    }

    func apply(toFileAt path: String) throws {
        #if canImport(Darwin)
            if excludedFromBackup {
                var values = URLResourceValues()
                values.isExcludedFromBackup = true
                var target = URL(fileURLWithPath: path)
                try target.setResourceValues(values)
            }
            #if os(iOS) || os(tvOS) || os(watchOS) || os(visionOS)
                if completeProtection {
                    try FileManager.default.setAttributes(
                        [.protectionKey: FileProtectionType.complete], ofItemAtPath: path)
                }
            #endif
        #endif
    }
}
