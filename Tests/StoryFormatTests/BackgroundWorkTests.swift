import StoryFormat
import Testing

/// Work on a thread of its own: its result given to any number of callers, or handed over to
/// one, so that a large result (half a story's chapters) is not kept twice.
@Suite("background work")
struct BackgroundWorkTests {
    final class Result: Sendable {
        let value: Int
        init(_ value: Int) { self.value = value }
    }

    @Test("wait gives the result to every caller; the work keeps it")
    func waitKeeps() {
        let work = BackgroundWork { Result(42) }
        var first = work.wait()
        #expect(first.value == 42)
        #expect(work.wait() === first)
        #expect(!isKnownUniquelyReferenced(&first), "the work still holds its result")
    }

    @Test("take hands the result over: the taker alone holds it")
    func takeHandsOver() {
        let work = BackgroundWork { Result(7) }
        var taken = work.take()
        #expect(taken.value == 7)
        #expect(isKnownUniquelyReferenced(&taken), "the work kept a copy of what it handed over")
    }
}
