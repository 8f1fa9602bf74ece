/// A large output made in pieces as a writer takes them: units `0..<count` (passages, say), each
/// appended by `append`, cut into pieces of at least `pieceSize` bytes (but the last). While the
/// writer writes one piece, the next two are made, each on a thread of its own, so making a file
/// uses both cores and overlaps with writing it; at most three pieces are held at once, never the
/// whole output.
///
/// A piece's cut is planned from `leastSize` when the piece is started, on the writer's thread
/// while the pieces before it are made (planning every cut before the first piece kept the other
/// core idle: 100,000 chapters' sizes summed took 9 ms). `leastSize` must not say more than
/// `append` writes for a unit (it may say less: pieces come out larger). An output that fits in
/// one piece is made in one, here, without threads.
package struct PiecesMadeAhead: Sequence, Sendable {
    private let count: Int
    private let pieceSize: Int
    private let leastSize: @Sendable (Int) -> Int
    private let head: [UInt8]
    private let tail: [UInt8]
    private let append: @Sendable (Range<Int>, inout [UInt8]) -> Void

    package init(
        count: Int, pieceSize: Int = 1 << 20, leastSize: @escaping @Sendable (Int) -> Int, head: [UInt8] = [], tail: [UInt8] = [],
        append: @escaping @Sendable (Int, inout [UInt8]) -> Void
    ) {
        self.init(count: count, pieceSize: pieceSize, leastSize: leastSize, head: head, tail: tail, appendingUnits: { units, out in
            for unit in units { append(unit, &out) }
        })
    }

    /// The same, with the units of a piece appended together by `appendingUnits` (a writer
    /// that keeps state from one unit to the next makes it once a piece, not once a unit).
    package init(
        count: Int, pieceSize: Int = 1 << 20, leastSize: @escaping @Sendable (Int) -> Int, head: [UInt8] = [], tail: [UInt8] = [],
        appendingUnits append: @escaping @Sendable (Range<Int>, inout [UInt8]) -> Void
    ) {
        self.count = count
        self.pieceSize = pieceSize
        self.leastSize = leastSize
        self.head = head
        self.tail = tail
        self.append = append
    }

    package func makeIterator() -> Iterator { Iterator(pieces: self) }

    /// The piece that starts at unit `start`: units are added until their least sizes (and the
    /// head's, in the first piece) reach the piece size, or the units run out.
    fileprivate func plan(from start: Int) -> Piece {
        var size = start == 0 ? head.count : 0
        var end = start
        while end < count {
            size += leastSize(end)
            end += 1
            if size >= pieceSize { break }
        }
        return Piece(units: start..<end, leastSize: size)
    }

    fileprivate struct Piece {
        let units: Range<Int>
        let leastSize: Int
    }

    /// `piece`, made here: the head before the first unit, the tail after the last.
    fileprivate func make(_ piece: Piece) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(piece.leastSize + piece.leastSize / 4 + tail.count + 4096)
        if piece.units.lowerBound == 0 { out += head }
        append(piece.units, &out)
        if piece.units.upperBound == count { out += tail }
        return out
    }

    package struct Iterator: IteratorProtocol {
        private let pieces: PiecesMadeAhead
        /// The first unit not yet in a piece.
        private var unplanned = 0
        /// Whether the first piece was planned (an output of no units is one piece, head and tail).
        private var started = false
        private var made: [BackgroundWork<[UInt8]>] = []

        fileprivate init(pieces: PiecesMadeAhead) { self.pieces = pieces }

        package mutating func next() -> [UInt8]? {
            let pieces = self.pieces
            if !started {
                started = true
                let first = pieces.plan(from: 0)
                unplanned = first.units.upperBound
                if unplanned == pieces.count { return pieces.make(first) }
                made.append(BackgroundWork { pieces.make(first) })
            }
            // The piece asked for and the one after it are being made while the last is written.
            while made.count < 2, unplanned < pieces.count {
                let piece = pieces.plan(from: unplanned)
                unplanned = piece.units.upperBound
                made.append(BackgroundWork { pieces.make(piece) })
            }
            guard !made.isEmpty else { return nil }
            return made.removeFirst().wait()
        }
    }
}
