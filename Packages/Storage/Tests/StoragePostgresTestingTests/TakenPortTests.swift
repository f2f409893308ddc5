import Foundation
import Storage
import StoragePostgres
import StoragePostgresTesting
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The test server's port is free when it is picked, but another process may take it before
/// PostgreSQL binds it (CI runs HTTP test servers on port 0 beside it). Starting then moves to
/// another port instead of failing the test that asked for a database.
@Suite("PostgresTestServer: a port taken before the server binds it")
struct TakenPortTests {
    struct Note: Codable, Identifiable, Sendable, Equatable {
        var id: Int
        var text: String
    }

    /// A socket listening on a loopback port until `close`, like another test's server.
    final class Listener {
        let descriptor: Int32
        let port: Int

        init() throws {
            #if canImport(Glibc)
                descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            #else
                descriptor = socket(AF_INET, SOCK_STREAM, 0)
            #endif
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = 0
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            let descriptor = descriptor
            let listening = withUnsafeMutablePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                    bind(descriptor, pointer, length) == 0 && listen(descriptor, 1) == 0
                        && getsockname(descriptor, pointer, &length) == 0
                }
            }
            try #require(descriptor >= 0 && listening)
            port = Int(UInt16(bigEndian: address.sin_port))
        }

        deinit { close(descriptor) }
    }

    @Test("a server whose first port is taken starts on another and serves")
    func movesToAnotherPort() async throws {
        guard PostgresTestServer.unavailableReason == nil else { return }
        let taken = try Listener()
        let server = try await PostgresTestServer.start(firstPort: taken.port)
        #expect(server.port != taken.port)
        let backend = try await PostgresRecordBackend<Note>(url: server.url, table: "notes")
        let notes = RecordStore(backend: backend)
        try await notes.insert(Note(id: 1, text: "Milk"))
        #expect(try await notes.fetch(id: 1) == Note(id: 1, text: "Milk"))
        try await backend.shutdown()
        await server.stop()
        #expect(!FileManager.default.fileExists(atPath: server.folder.path))
    }
}
