import StoryFormat

/// A file made in pieces as it is written (`cyd export twee` and `cyd export twine`): the pieces,
/// one after the other, are the file; the whole file is never held at once.
public struct FilePieces: Sequence, Sendable {
    let pieces: PiecesMadeAhead

    init(_ pieces: PiecesMadeAhead) { self.pieces = pieces }

    public func makeIterator() -> Iterator { Iterator(inner: pieces.makeIterator()) }

    public struct Iterator: IteratorProtocol {
        var inner: PiecesMadeAhead.Iterator

        public mutating func next() -> [UInt8]? { inner.next() }
    }
}
