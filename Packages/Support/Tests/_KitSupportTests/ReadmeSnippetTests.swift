import Testing
import _KitSupport

/// The example of Packages/Support/README.md, as written there.
@Suite("README snippet")
struct ReadmeSnippetTests {
    @Test("the README's example runs and prints what its comments say")
    func readme() {
        let hits = Locked(0)
        hits.withLock { $0 += 1 }
        #expect(hits.withLock { $0 } == 1)
        #expect(UntrustedText.shown("a\nb") == #""a\nb""#)
        #expect(SwiftSource.literal("say \"hi\"") == #""say \"hi\"""#)
    }
}
