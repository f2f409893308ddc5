/// The kit this CLI belongs to: generated projects depend on it by default.
public enum KitVersion {
    /// The version of the kit and of this CLI.
    public static let current = "0.1.0"
    /// Where the kit is published.
    public static let url = "https://github.com/boilerplate-swift/boilerplate"
    /// The minimum Swift tools version generated manifests declare.
    public static let swiftTools = "6.0"
}
