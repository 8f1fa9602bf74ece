import StoryFormat
/// A place in a document as LSP counts it: zero-based line, and UTF-16 code units into the line
/// (an emoji outside the Basic Multilingual Plane is two units, an accented letter one).
public struct Position: Sendable, Hashable {
    public var line: Int
    public var character: Int
    public init(line: Int, character: Int) {
        self.line = line
        self.character = character
    }

    var json: JSONValue { ["line": JSONValue(line), "character": JSONValue(character)] }

    init?(_ json: JSONValue?) {
        guard let line = json?["line"]?.int, let character = json?["character"]?.int else { return nil }
        self.init(line: line, character: character)
    }
}

/// An open document's text as UTF-8 bytes, with the byte offset of every line so positions
/// convert both ways in time proportional to one line.
///
/// Lines end at "\n" ("\r\n" works: the "\r" is the last character of its line); a lone "\r"
/// is not a line break here, which only matters for files no JSON tool writes.
public struct TextDocument: Sendable {
    public let uri: String
    public private(set) var version: Int
    public private(set) var bytes: [UInt8]
    private var lineStarts: [Int] = [0]

    public init(uri: String, version: Int, text: String) {
        self.uri = uri
        self.version = version
        self.bytes = Array(text.utf8)
        indexLines()
    }

    private mutating func indexLines() {
        lineStarts = [0]
        bytes.withUnsafeBufferPointer { buffer in
            for (offset, byte) in buffer.enumerated() where byte == UInt8(ascii: "\n") {
                lineStarts.append(offset + 1)
            }
        }
    }

    /// Applies one change: a range and its new text, or the whole text when `range` is nil.
    public mutating func apply(range: (start: Position, end: Position)?, text: String, version: Int) {
        self.version = version
        guard let range else {
            bytes = Array(text.utf8)
            indexLines()
            return
        }
        let start = offset(of: range.start)
        let end = max(start, offset(of: range.end))
        bytes.replaceSubrange(start..<end, with: text.utf8)
        indexLines()
    }

    /// The byte offset of a position; a line past the end is the end of the text, a character
    /// past the end of its line is the line's end, and one inside a surrogate pair is the
    /// scalar's start.
    public func offset(of position: Position) -> Int {
        guard position.line >= 0 else { return 0 }
        guard position.line < lineStarts.count else { return bytes.count }
        var offset = lineStarts[position.line]
        var units = 0
        while offset < bytes.count, units < position.character {
            let byte = bytes[offset]
            if byte == UInt8(ascii: "\n") { break }
            let length = Self.sequenceLength(byte)
            let width = length == 4 ? 2 : 1
            if units + width > position.character { break }
            units += width
            offset = min(bytes.count, offset + length)
        }
        return offset
    }

    /// The position of a byte offset (clamped to the text).
    public func position(of offset: Int) -> Position {
        let offset = max(0, min(offset, bytes.count))
        var low = 0
        var high = lineStarts.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if lineStarts[middle] <= offset { low = middle } else { high = middle - 1 }
        }
        var units = 0
        var index = lineStarts[low]
        while index < offset {
            let length = Self.sequenceLength(bytes[index])
            units += length == 4 ? 2 : 1
            index += length
        }
        return Position(line: low, character: units)
    }

    func range(_ bytes: Range<Int>) -> JSONValue {
        ["start": position(of: bytes.lowerBound).json, "end": position(of: bytes.upperBound).json]
    }

    /// How many bytes the UTF-8 sequence starting with `byte` takes (1 for a stray continuation
    /// byte, so a walk always advances).
    static func sequenceLength(_ byte: UInt8) -> Int {
        switch byte {
        case 0xF0...: 4
        case 0xE0...: 3
        case 0xC0...: 2
        default: 1
        }
    }
}
