import EventBus
import Testing

// The README's second example, unchanged.
struct DownloadFinished: Event { var file: String }
struct ScreenAppeared: Event { var title: String }
enum DownloadError: Error { case unnamed }

final class DownloadsScreen {
    let bus: Bus  // a scoped bus, torn down with the screen
    private var bag = Subscriptions()  // no deinit, no unwatch: the bag does it

    init(appBus: Bus) {
        bus = appBus.scoped()  // its events are forwarded to the app bus
        appBus.watch(NetworkActivity.self, on: .mainActor, replayLast: true) { activity in
            print("spinner:", activity.active)
        }.store(in: &bag)
        appBus.watchAsync(DownloadFinished.self) { finished in
            guard !finished.file.isEmpty else { throw DownloadError.unnamed }  // → HandlerFailed
            print("saved", finished.file)
        }.store(in: &bag)
        bus.trigger(ScreenAppeared(title: "Downloads"))
    }
}

@Suite("README example")
struct ReadmeExampleTests {
    @Test("the screen's events reach the app bus and its subscriptions end with it")
    func screen() async {
        let appBus = Bus()
        let recorder = appBus.startRecording()
        let failures = Log<String>()
        let failureToken = appBus.watch(HandlerFailed.self) { failures.append($0.location) }
        let check = appBus.leakCheck()
        var screen: DownloadsScreen? = DownloadsScreen(appBus: appBus)
        appBus.trigger(DownloadFinished(file: ""))
        #expect(await eventually { failures.count == 1 })
        #expect(recorder.events(of: ScreenAppeared.self).map(\.title) == ["Downloads"])
        #expect(check.leaks.count == 2)
        let screenBus = screen?.bus
        screen = nil
        #expect(check.leaks.isEmpty)
        #expect(screenBus?.isClosed == false)  // still referenced here, so still open
        failureToken.cancel()
    }
}
