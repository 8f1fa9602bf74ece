/// A file's bytes in pieces, to be written one after the other: pieces made already, or made
/// as they are taken (`PiecesMadeAhead`: the next two on other cores while one is written).
/// Taking them again makes them again.
public struct FilePieces: Sequence, Sendable {
    enum Source: Sendable {
        case made([[UInt8]])
        case ahead(PiecesMadeAhead)
    }

    let source: Source

    package init(_ pieces: PiecesMadeAhead) { source = .ahead(pieces) }

    /// Pieces made already.
    public init(_ pieces: [[UInt8]]) { source = .made(pieces) }

    public func makeIterator() -> Iterator {
        switch source {
        case .made(let pieces): Iterator(inner: .made(pieces.makeIterator()))
        case .ahead(let pieces): Iterator(inner: .ahead(pieces.makeIterator()))
        }
    }

    public struct Iterator: IteratorProtocol {
        enum Inner {
            case made(IndexingIterator<[[UInt8]]>)
            case ahead(PiecesMadeAhead.Iterator)
        }

        var inner: Inner

        public mutating func next() -> [UInt8]? {
            switch inner {
            case .made(var pieces):
                defer { inner = .made(pieces) }
                return pieces.next()
            case .ahead(var pieces):
                defer { inner = .ahead(pieces) }
                return pieces.next()
            }
        }
    }
}
