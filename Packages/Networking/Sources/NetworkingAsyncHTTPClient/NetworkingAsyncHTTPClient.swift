import AsyncHTTPClient
import Networking
/// Placeholder for the NetworkingAsyncHTTPClient module; its API arrives with its issue.
public enum NetworkingAsyncHTTPClientModule {
    /// The module's name.
    public static let name = "NetworkingAsyncHTTPClient"
}
