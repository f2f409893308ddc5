import Foundation
import Storage
import Testing

/// A clock the test moves by hand.
final class ManualClock: @unchecked Sendable {
    private let lock = NSLock()
    private var current = Date(timeIntervalSince1970: 1_000_000)

    var now: Date {
        lock.lock()
        defer { lock.unlock() }
        return current
    }

    func advance(_ seconds: TimeInterval) {
        lock.lock()
        current += seconds
        lock.unlock()
    }
}

@Suite("CacheStore")
struct CacheStoreTests {
    func cache(
        in temporary: TemporaryFolder, limit: Int = 1_000_000, clock: ManualClock = ManualClock()
    ) throws
        -> CacheStore
    {
        try CacheStore(
            name: "images", app: "test", byteLimit: limit, folder: .custom(temporary.url), now: { clock.now })
    }

    @Test("returns what was set, for any key")
    func roundTrip() async throws {
        let temporary = try TemporaryFolder()
        let cache = try cache(in: temporary)
        try await cache.set(SettingsV1(theme: "a"), for: "https://example.com/a?b=c")
        #expect(await cache.value(SettingsV1.self, for: "https://example.com/a?b=c") == SettingsV1(theme: "a"))
        #expect(await cache.value(SettingsV1.self, for: "other") == nil)
    }

    @Test("expires entries after their lifetime and deletes them")
    func expiry() async throws {
        let temporary = try TemporaryFolder()
        let clock = ManualClock()
        let cache = try cache(in: temporary, clock: clock)
        try await cache.set(1, for: "short", lifetime: 10)
        try await cache.set(2, for: "forever")
        clock.advance(9)
        #expect(await cache.value(Int.self, for: "short") == 1)
        clock.advance(2)
        #expect(await cache.value(Int.self, for: "short") == nil)
        #expect(await cache.value(Int.self, for: "forever") == 2)
        #expect(await cache.count == 1)
    }

    @Test("removeExpired deletes expired entries without reading them as values")
    func removeExpired() async throws {
        let temporary = try TemporaryFolder()
        let clock = ManualClock()
        let cache = try cache(in: temporary, clock: clock)
        for index in 0..<5 { try await cache.set(index, for: "k\(index)", lifetime: TimeInterval(index * 10 + 5)) }
        clock.advance(20)
        await cache.removeExpired()
        #expect(await cache.count == 3)
    }

    @Test("stays within its size limit by dropping the least recently used")
    func sizeLimit() async throws {
        let temporary = try TemporaryFolder()
        let blob = String(repeating: "x", count: 1_000)
        let cache = try cache(in: temporary, limit: 3_500)
        try await cache.set(blob, for: "a")
        try await cache.set(blob, for: "b")
        try await cache.set(blob, for: "c")
        _ = await cache.value(String.self, for: "a")  // a is now more recent than b
        try await cache.set(blob, for: "d")
        #expect(await cache.byteCount <= 3_500)
        #expect(await cache.value(String.self, for: "b") == nil)
        #expect(await cache.value(String.self, for: "a") == blob)
        #expect(await cache.value(String.self, for: "d") == blob)
    }

    @Test("reads a damaged entry as a miss and deletes it")
    func damaged() async throws {
        let temporary = try TemporaryFolder()
        let cache = try cache(in: temporary)
        try await cache.set(SettingsV1(), for: "k")
        let files = try FileManager.default.contentsOfDirectory(
            at: temporary.url.appendingPathComponent("images"), includingPropertiesForKeys: nil)
        for file in files { try Data("junk".utf8).write(to: file) }
        #expect(await cache.value(SettingsV1.self, for: "k") == nil)
        #expect(await cache.count == 0)
    }

    @Test("keeps entries for the next instance, and removeAll empties it")
    func persistence() async throws {
        let temporary = try TemporaryFolder()
        try await cache(in: temporary).set("v", for: "k")
        let reopened = try cache(in: temporary)
        #expect(await reopened.value(String.self, for: "k") == "v")
        await reopened.removeAll()
        #expect(await reopened.count == 0)
        #expect(await reopened.byteCount == 0)
    }
}
