import CHeapProbe
import Foundation
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

    /// A value holding references, as a chapter holds strings and arrays.
    struct Held: Equatable {
        var name: String
        var object: Result?
        static func == (a: Held, b: Held) -> Bool { a.name == b.name && a.object === b.object }
    }

    @Test("a half made elsewhere is appended by moving its elements: the same elements in order, each held once, the half left empty", arguments: [0, 1, 5, 3000])
    func appendMoving(count: Int) {
        let name = { (half: String, index: Int) in "\(half) \(index), a name long enough to be stored apart" }
        var first = (0..<3).map { Held(name: name("first", $0), object: Result($0)) }
        var second = (0..<count).map { Held(name: name("second", $0), object: Result(3 + $0)) }
        weak var last = second.last?.object
        first.appendMoving(&second, leaving: Held(name: "", object: nil))
        #expect(second.isEmpty)
        #expect(first.map(\.name) == (0..<3).map { name("first", $0) } + (0..<count).map { name("second", $0) })
        #expect(first.map { $0.object?.value } == (0..<count + 3).map { $0 })
        // Nothing kept a copy of a moved element: each object is held by `first` alone.
        for index in first.indices { #expect(isKnownUniquelyReferenced(&first[index].object!)) }
        // And nothing was let go one time too many or too few: the last goes when `first` does.
        #expect((last == nil) == (count == 0))
        first = []
        #expect(last == nil)
    }

    /// What was freed, from any thread.
    final class Tally: @unchecked Sendable {
        private let lock = NSLock()
        private var values: [Int] = []
        func freed(_ value: Int) { lock.withLock { values.append(value) } }
        var freed: [Int] { lock.withLock { values } }
    }

    /// Says to its tally when it is freed.
    final class Counted: @unchecked Sendable {
        let value: Int
        let tally: Tally
        init(_ value: Int, _ tally: Tally) { (self.value, self.tally) = (value, tally) }
        deinit { tally.freed(value) }
    }

    #if canImport(Glibc)
    /// Says, when it is freed, the nice value of the thread freeing it.
    final class Niceness: @unchecked Sendable {
        let tally: Tally
        init(_ tally: Tally) { self.tally = tally }
        deinit {
            errno = 0
            tally.freed(Int(getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0)))
        }
    }

    @Test("values let go elsewhere are freed, on a thread at the lowest priority (19), and the caller's thread keeps its own")
    func releasedAtLowestPriority() {
        let tally = Tally()
        errno = 0
        let own = getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0)
        var values: [Niceness]? = (0..<3).map { _ in Niceness(tally) }
        LargeValues.release(&values)
        #expect(values == nil)
        // Bounded: a thread at the lowest priority still runs within a few seconds here.
        for _ in 0..<1_000 where tally.freed.count < 3 { usleep(10_000) }
        #expect(tally.freed == [19, 19, 19])
        errno = 0
        #expect(getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0) == own)
    }
    #endif

    @Test("freeing in halves frees every element exactly once before it returns, and leaves the array empty", arguments: [0, 1, 2, 3, 1001])
    func freeInHalves(count: Int) {
        let tally = Tally()
        var placeholder = Counted(-1, tally)
        var values = (0..<count).map { Counted($0, tally) }
        LargeValues.freeInHalves(&values, leaving: placeholder)
        #expect(values.isEmpty)
        // All freed by the time it returns (the second half's thread waited for), none twice,
        // and the placeholder that stood in the moved half's places let go from each of them.
        #expect(tally.freed.sorted() == Array(0..<count))
        #expect(isKnownUniquelyReferenced(&placeholder))
    }
}

#if canImport(Glibc)
/// glibc's heap, as `LargeValues` leaves it: a block freed is merged with its free neighbours as
/// it is freed, not kept unmerged in a fast bin for the heap's owner to merge later.
@Suite("thread heaps")
struct ThreadHeapsTests {
    @Test("after the first values let go elsewhere, small blocks freed go to no fast bin")
    func noFastBins() {
        var values: [String]? = ["a value handed over"]
        LargeValues.release(&values)
        // Far more blocks of one size than a thread's cache keeps (seven), each between two
        // blocks kept: without the setting nearly all of them would wait in a fast bin.
        let blocks = (0..<4_000).map { _ in malloc(48)! }
        let before = heap_probe_fast_bin_blocks()
        for block in stride(from: 0, to: blocks.count, by: 2) { free(blocks[block]) }
        let after = heap_probe_fast_bin_blocks()
        for block in stride(from: 1, to: blocks.count, by: 2) { free(blocks[block]) }
        #expect(after <= before + 100, "\(after - before) blocks went to fast bins")
    }
}
#endif
