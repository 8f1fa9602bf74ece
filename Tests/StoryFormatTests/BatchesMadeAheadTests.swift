import Foundation
import StoryFormat
import TestSupport
import Testing

/// Rows made in batches on another thread while the batch before is stored (the library's
/// chapters): the batches are every unit's value, in order, whatever the batch size; and the
/// maker is never more than one batch ahead of the taker.
@Suite("batches made ahead")
struct BatchesMadeAheadTests {
    @Test("joined, the batches are every unit's value in order, for any count and batch size")
    func batchesAreTheWhole() {
        for count in [0, 1, 2, 9, 10, 11, 1_000, 5_001] {
            for batchSize in [1, 3, 10, 2_000] {
                let batches = BatchesMadeAhead(count: count, batchSize: batchSize) { "unit \($0)" }
                let made = Array(batches)
                #expect(Array(made.joined()) == (0..<count).map { "unit \($0)" }, "count \(count), batch size \(batchSize)")
                #expect(made.dropLast().allSatisfy { $0.count == batchSize })
                #expect(made.count == (count + batchSize - 1) / batchSize)
                // A second pass makes them again, the same.
                #expect(Array(batches) == made)
            }
        }
    }

    @Test("the maker runs at most one batch ahead of the taker")
    func boundedAhead() {
        let highest = HighestUnit()
        let batches = BatchesMadeAhead(count: 1_000, batchSize: 10) { n in
            highest.reached(n)
            return n
        }
        var taken = 0
        for batch in batches {
            #expect(batch == Array((taken * 10)..<(taken * 10 + 10)))
            // Batches taken so far: taken + 1; the one after may be made, none further.
            let reached = highest.value
            #expect(reached < (taken + 2) * 10, "batch \(taken) taken when unit \(reached) was made")
            // The taker is slow: the maker has time to run ahead if it would.
            if taken % 25 == 0 { usleep(2_000) }
            taken += 1
        }
        #expect(taken == 100)
    }

    /// A unit's value that says where and when it is freed.
    final class Freed: @unchecked Sendable {
        static let lock = NSLock()
        nonisolated(unsafe) static var log: [(unit: Int, thread: pthread_t, afterBody: Int)] = []
        nonisolated(unsafe) static var bodiesDone = 0
        let unit: Int
        init(_ unit: Int) { self.unit = unit }
        deinit { Self.lock.withLock { Self.log.append((unit, pthread_self(), Self.bodiesDone)) } }
    }

    @Test("each batch is given in order; with several, each is freed after its turn, on another thread; a single batch is freed here")
    func batchesFreedElsewhere() throws {
        for (count, batchSize) in [(1_000, 100), (50, 100)] {
            Freed.lock.withLock { (Freed.log, Freed.bodiesDone) = ([], 0) }
            let caller = pthread_self()
            var given: [Int] = []
            BatchesMadeAhead(count: count, batchSize: batchSize) { Freed($0) }.forEachBatch { batch in
                given += batch.map(\.unit)
                Freed.lock.withLock { Freed.bodiesDone += 1 }
            }
            #expect(given == Array(0..<count))
            // Freed elsewhere is freed soon after: waited for, a bounded while.
            for _ in 0..<500 where Freed.lock.withLock({ Freed.log.count }) < count { usleep(10_000) }
            let log = Freed.lock.withLock { Freed.log }
            try #require(log.count == count, "every value freed, once")
            #expect(Set(log.map(\.unit)).count == count)
            // A unit of batch k is freed only once the body has had batch k (k + 1 bodies done).
            #expect(log.allSatisfy { $0.afterBody >= $0.unit / batchSize + 1 })
            let here = log.filter { pthread_equal($0.thread, caller) != 0 }.count
            if count > batchSize {
                #expect(here == 0, "\(here) values of several batches freed on the caller's thread")
            } else {
                #expect(here == count, "one batch is freed where it was used")
            }
        }
    }
}
