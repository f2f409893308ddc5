import Errors
import Foundation
import PostgresNIO

// How a `postgres://` URL becomes a connection configuration, and what is wrong with one that
// does not.

extension PostgresRecordBackend {
    /// The client configuration `url` names: host and port or a unix socket folder (`?host=/path`),
    /// user, password, database and `sslmode` (disable, prefer/allow, require/verify-*).
    package static func configuration(from url: URL) throws -> PostgresClient.Configuration {
        guard let components = URLComponents(url: url, resolvingAgainstBaseURL: false),
            ["postgres", "postgresql"].contains(components.scheme?.lowercased() ?? "")
        else { throw PostgresRecordError.invalidURL(url, reason: "the scheme must be postgres://") }
        guard let user = components.user, !user.isEmpty else {
            throw PostgresRecordError.invalidURL(url, reason: "it names no user (postgres://user@host/database)")
        }
        let database = components.path.hasPrefix("/") ? String(components.path.dropFirst()) : components.path
        let items = components.queryItems ?? []
        let socketFolder = items.first { $0.name == "host" }?.value
        let sslMode = items.first { $0.name == "sslmode" }?.value ?? "prefer"
        var configuration: PostgresClient.Configuration
        if let socketFolder, socketFolder.hasPrefix("/") {
            let port = components.port ?? 5432
            configuration = PostgresClient.Configuration(
                unixSocketPath: "\(socketFolder)/.s.PGSQL.\(port)", username: user, password: components.password,
                database: database.isEmpty ? nil : database)
        } else {
            guard let host = components.host, !host.isEmpty else {
                throw PostgresRecordError.invalidURL(url, reason: "it names no host")
            }
            let tls: PostgresClient.Configuration.TLS
            switch sslMode {
            case "disable": tls = .disable
            case "prefer", "allow": tls = .prefer(.makeClientConfiguration())
            case "require", "verify-ca", "verify-full": tls = .require(.makeClientConfiguration())
            default:
                throw PostgresRecordError.invalidURL(
                    url, reason: "sslmode \(sslMode) is not one of disable, prefer, require")
            }
            configuration = PostgresClient.Configuration(
                host: host, port: components.port ?? 5432, username: user, password: components.password,
                database: database.isEmpty ? nil : database, tls: tls)
        }
        return configuration
    }
}

/// A PostgreSQL backend could not be set up as asked.
public enum PostgresRecordError: AppError, Equatable {
    /// The connection URL is unusable.
    case invalidURL(URL, reason: String)
    /// The table name is not letters, digits and `_` (starting with a letter or `_`), at most 40 characters.
    case invalidTable(String)
    /// The server did not answer while the backend was opening.
    case noAnswer(after: Duration)
    /// The server answered a count with something that is not a number.
    case unreadableCount(String)

    /// A sentence naming the problem.
    public var message: String {
        switch self {
        case .invalidURL(let url, let reason):
            "The PostgreSQL URL \(Self.redacted(url)) is unusable: \(reason)."
        case .invalidTable(let table):
            "The table name \"\(table)\" is invalid: use letters, digits and _, starting with a letter or _, at most 40 characters."
        case .noAnswer(let duration):
            "The PostgreSQL server did not answer within \(duration)."
        case .unreadableCount(let text):
            "The PostgreSQL server answered a count with \"\(text)\", which is not a number."
        }
    }

    /// The URL without its password, for messages and logs.
    private static func redacted(_ url: URL) -> String {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false), components.password != nil
        else {
            return url.absoluteString
        }
        components.password = "***"
        return components.string ?? url.absoluteString
    }
}
