/// Work split into more pieces than there are threads, the pieces claimed in order by this thread
/// and one other as each finishes its last: neither waits long for the other, however unevenly
/// the pieces cost or the other work on the machine falls (two fixed halves left a core idle for
/// the last tenth of a second when one half shared its core with other work).
package enum PiecesClaimed {
    /// Each piece's result, in the pieces' order; `work` runs once for each of `0..<count`, on
    /// this thread or the other.
    package static func results<Result: Sendable>(count: Int, _ work: @escaping @Sendable (Int) -> Result) -> [Result] {
        guard count > 1 else { return (0..<count).map(work) }
        let slots = Slots<Result>(count: count)
        let other = BackgroundWork { slots.work(work) }
        slots.work(work)
        other.join()
        return slots.taken()
    }

    final class Slots<Result: Sendable>: @unchecked Sendable {
        private let lock = Lock()
        private var next = 0
        private var results: [Result?]

        init(count: Int) { results = Array(repeating: nil, count: count) }

        /// Claims and does pieces until none is left.
        func work(_ work: (Int) -> Result) {
            while let index = claim() {
                let result = work(index)
                lock.withLock { results[index] = result }
            }
        }

        private func claim() -> Int? {
            lock.withLock {
                guard next < results.count else { return nil }
                defer { next += 1 }
                return next
            }
        }

        func taken() -> [Result] { lock.withLock { results.map { $0! } } }
    }
}
