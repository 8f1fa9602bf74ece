import Dispatch
import StoryFormat
import Testing

@testable import StoryFormat

/// Pieces of work claimed by two threads as each finishes one: every piece done once, the
/// results in the pieces' order, and a thread held up by one piece does not hold up the rest.
@Suite("Pieces claimed by two threads")
struct PiecesClaimedTests {
    @Test("each piece is done once and its result kept in its place", arguments: [0, 1, 2, 7, 100])
    func everyPieceOnce(count: Int) {
        let done = Counter()
        let results = PiecesClaimed.results(count: count) { index in
            done.add()
            return index * index
        }
        #expect(results == (0..<count).map { $0 * $0 })
        #expect(done.value == count)
    }

    @Test("while one thread is held up by a piece, the other does the rest")
    func unevenPieces() {
        let rest = DispatchSemaphore(value: 0)
        let results = PiecesClaimed.results(count: 6) { index -> Int in
            // The first piece waits until the five others are done: only the other thread can do them.
            if index == 0 {
                for _ in 1..<6 { #expect(rest.wait(timeout: .now() + 30) == .success) }
            } else {
                rest.signal()
            }
            return index
        }
        #expect(results == Array(0..<6))
    }

    final class Counter: @unchecked Sendable {
        private let lock = Lock()
        private var count = 0
        func add() { lock.withLock { count += 1 } }
        var value: Int { lock.withLock { count } }
    }
}
