/// A large output made in pieces as a writer takes them: units `0..<count` (passages, say), each
/// appended by `append`, cut into pieces of at least `pieceSize` bytes (but the last). While the
/// writer writes one piece, the next two are made, each on a thread of its own, so making a file
/// uses both cores and overlaps with writing it; at most three pieces are held at once, never the
/// whole output.
///
/// The cuts are planned before anything is made, from `leastSize`, which must not say more than
/// `append` writes for a unit (it may say less: pieces come out larger). An output smaller than
/// two pieces is made in one, here, without threads.
package struct PiecesMadeAhead: Sequence, Sendable {
    private let ranges: [Range<Int>]
    /// The least size of each piece, to reserve room for it.
    private let sizes: [Int]
    private let head: [UInt8]
    private let tail: [UInt8]
    private let append: @Sendable (Range<Int>, inout [UInt8]) -> Void

    package init(
        count: Int, pieceSize: Int = 1 << 20, leastSize: (Int) -> Int, head: [UInt8] = [], tail: [UInt8] = [],
        append: @escaping @Sendable (Int, inout [UInt8]) -> Void
    ) {
        self.init(count: count, pieceSize: pieceSize, leastSize: leastSize, head: head, tail: tail, appendingUnits: { units, out in
            for unit in units { append(unit, &out) }
        })
    }

    /// The same, with the units of a piece appended together by `appendingUnits` (a writer
    /// that keeps state from one unit to the next makes it once a piece, not once a unit).
    package init(
        count: Int, pieceSize: Int = 1 << 20, leastSize: (Int) -> Int, head: [UInt8] = [], tail: [UInt8] = [],
        appendingUnits append: @escaping @Sendable (Range<Int>, inout [UInt8]) -> Void
    ) {
        var ranges: [Range<Int>] = []
        var sizes: [Int] = []
        var start = 0
        var size = head.count
        for unit in 0..<count {
            size += leastSize(unit)
            if size >= pieceSize {
                ranges.append(start..<unit + 1)
                sizes.append(size)
                start = unit + 1
                size = 0
            }
        }
        if start < count || ranges.isEmpty {
            ranges.append(start..<count)
            sizes.append(size)
        }
        self.ranges = ranges
        self.sizes = sizes
        self.head = head
        self.tail = tail
        self.append = append
    }

    /// How many pieces the output is cut into.
    package var pieceCount: Int { ranges.count }

    package func makeIterator() -> Iterator { Iterator(pieces: self) }

    /// Piece `index`, made here.
    fileprivate func piece(_ index: Int) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(sizes[index] + sizes[index] / 4 + tail.count + 4096)
        if index == 0 { out += head }
        append(ranges[index], &out)
        if index == ranges.count - 1 { out += tail }
        return out
    }

    package struct Iterator: IteratorProtocol {
        private let pieces: PiecesMadeAhead
        private var taken = 0
        private var made: [BackgroundWork<[UInt8]>] = []

        fileprivate init(pieces: PiecesMadeAhead) { self.pieces = pieces }

        package mutating func next() -> [UInt8]? {
            guard pieces.ranges.count > 1 else {
                defer { taken = 1 }
                return taken == 0 ? pieces.piece(0) : nil
            }
            // The piece asked for and the one after it are being made while the last is written.
            while made.count < 2, taken + made.count < pieces.ranges.count {
                let index = taken + made.count
                let pieces = self.pieces
                made.append(BackgroundWork { pieces.piece(index) })
            }
            guard !made.isEmpty else { return nil }
            taken += 1
            return made.removeFirst().wait()
        }
    }
}
