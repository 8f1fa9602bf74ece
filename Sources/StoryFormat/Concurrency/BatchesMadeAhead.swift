/// Values for units `0..<count` made in batches on another thread while the caller uses the
/// batch before: a writer that spends half its time making rows and half storing them (SQLite on
/// one thread) stores one batch while the next is made. At most two batches are held at once.
/// Fewer units than two batches are made here, in one batch, without a thread.
package struct BatchesMadeAhead<Value: Sendable>: Sequence, Sendable {
    private let count: Int
    private let batchSize: Int
    private let make: @Sendable (Int) -> Value

    package init(count: Int, batchSize: Int = 2_000, make: @escaping @Sendable (Int) -> Value) {
        self.count = count
        self.batchSize = Swift.max(1, batchSize)
        self.make = make
    }

    package func makeIterator() -> Iterator { Iterator(batches: self) }

    /// Gives each batch to `body` in order, as iterating does; when there are several, each is
    /// then freed on another thread, not here: a batch of rows is thousands of values to let go
    /// (perf: 45 ms of the main thread adding the 100,000-chapter story with its translation),
    /// and the taker is the thread the work waits on.
    package func forEachBatch(_ body: ([Value]) throws -> Void) rethrows {
        var iterator = makeIterator()
        let several = batchCount > 1
        while true {
            guard let batch = iterator.next() else { return }
            try body(batch)
            guard several else { continue }
            var done: [Value]? = consume batch
            LargeValues.release(&done)
        }
    }

    /// The units of batch `index`.
    private func range(_ index: Int) -> Range<Int> { (index * batchSize)..<Swift.min(count, (index + 1) * batchSize) }

    private var batchCount: Int { (count + batchSize - 1) / batchSize }

    fileprivate func batch(_ index: Int) -> [Value] { range(index).map(make) }

    package struct Iterator: IteratorProtocol {
        private let batches: BatchesMadeAhead
        private var given = 0
        private var ahead: BackgroundWork<[Value]>?

        fileprivate init(batches: BatchesMadeAhead) { self.batches = batches }

        /// The next batch: made before (on another thread) when there are several; the one after
        /// it is started before this one is given.
        package mutating func next() -> [Value]? {
            guard given < batches.batchCount else { return nil }
            let index = given
            given += 1
            guard batches.batchCount > 1 else { return batches.batch(index) }
            let current = ahead?.take() ?? batches.batch(index)
            if given < batches.batchCount {
                let batches = self.batches, following = given
                ahead = BackgroundWork { batches.batch(following) }
            } else {
                ahead = nil
            }
            return current
        }
    }
}
