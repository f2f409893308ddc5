import Foundation
import Storage
import Testing

@Suite("Standard folders")
struct FolderTests {
    #if !canImport(Darwin)
        @Test("follow the XDG variables on Linux, namespaced by app id")
        func xdgVariables() {
            let environment = [
                "HOME": "/home/ana", "XDG_DATA_HOME": "/data", "XDG_CACHE_HOME": "/cache",
                "XDG_DOCUMENTS_DIR": "/docs",
            ]
            #expect(StorageFolder.applicationSupport.url(app: "a.b", environment: environment).path == "/data/a.b")
            #expect(StorageFolder.caches.url(app: "a.b", environment: environment).path == "/cache/a.b")
            #expect(StorageFolder.documents.url(app: "a.b", environment: environment).path == "/docs/a.b")
        }

        @Test("fall back to the XDG defaults under HOME, ignoring relative variables")
        func xdgDefaults() {
            let environment = ["HOME": "/home/ana", "XDG_CACHE_HOME": "relative/cache"]
            #expect(
                StorageFolder.applicationSupport.url(app: "a.b", environment: environment).path
                    == "/home/ana/.local/share/a.b")
            #expect(StorageFolder.caches.url(app: "a.b", environment: environment).path == "/home/ana/.cache/a.b")
            #expect(StorageFolder.documents.url(app: "a.b", environment: environment).path == "/home/ana/Documents/a.b")
        }
    #endif

    @Test("temporary lives in the system's temporary directory")
    func temporary() {
        let url = StorageFolder.temporary.url(app: "a.b")
        #expect(url.path.hasPrefix(FileManager.default.temporaryDirectory.path))
        #expect(url.lastPathComponent == "a.b")
    }

    @Test("a custom folder is used as given and created on demand")
    func custom() throws {
        let temporary = try TemporaryFolder()
        let folder = temporary.url.appendingPathComponent("deep/er", isDirectory: true)
        let store = try FileStore(folder: .custom(folder), app: "ignored")
        #expect(store.folder.path == folder.standardizedFileURL.path)
        #expect(FileManager.default.fileExists(atPath: folder.path))
    }

    @Test("an app id that is not a plain name is rejected")
    func badAppID() {
        #expect(throws: StorageError.self) { try FileStore(folder: .caches, app: "../escape") }
    }

    @Test("a folder that cannot be created is a typed error")
    func unavailableFolder() throws {
        let temporary = try TemporaryFolder()
        try temporary.write("not a folder", to: "file")
        let error = #expect(throws: StorageError.self) {
            try FileStore(directory: temporary.url.appendingPathComponent("file/store"))
        }
        guard case .folderUnavailable = error else {
            Issue.record("expected folderUnavailable, got \(String(describing: error))")
            return
        }
    }
}
