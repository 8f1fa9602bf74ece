/// A 1-based line and column. Columns count Unicode scalars, so "é" and "🦊" are one column each.
public struct SourcePosition: Sendable, Hashable, Comparable, CustomStringConvertible {
    public var line: Int
    public var column: Int
    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }
    public var description: String { "\(line):\(column)" }
    public static func < (lhs: Self, rhs: Self) -> Bool { (lhs.line, lhs.column) < (rhs.line, rhs.column) }
}

/// Maps byte offsets of a file to lines and columns. Built once per file, and only when a finding
/// is shown, so files without findings never pay for it.
public struct LineIndex: Sendable {
    public let bytes: [UInt8]
    /// Byte offset at which each line starts.
    public let lineStarts: [Int]

    public init(_ bytes: [UInt8]) {
        self.bytes = bytes
        var starts = [0]
        bytes.withUnsafeBufferPointer { buffer in
            for offset in buffer.indices where buffer[offset] == UInt8(ascii: "\n") {
                starts.append(offset + 1)
            }
        }
        lineStarts = starts
    }

    public var lineCount: Int { lineStarts.count }

    /// The 1-based line holding `offset`.
    public func line(of offset: Int) -> Int {
        var low = 0
        var high = lineStarts.count - 1
        while low < high {
            let mid = (low + high + 1) / 2
            if lineStarts[mid] <= offset { low = mid } else { high = mid - 1 }
        }
        return low + 1
    }

    public func position(of offset: Int) -> SourcePosition {
        // One offset: a table of line starts answers at once (see `locate` for many).
        let clamped = min(max(offset, 0), bytes.count)
        let line = line(of: clamped)
        var start = lineStarts[line - 1]
        // A byte-order mark is invisible in editors: columns start after it.
        if start == 0, bytes.starts(with: [0xEF, 0xBB, 0xBF]) { start = min(3, clamped) }
        return SourcePosition(line: line, column: Self.column(of: clamped, lineStart: start, in: bytes))
    }

    /// The 1-based column of `offset` on the line starting at `lineStart`, in characters as
    /// editors count them: a scalar starts at every byte that is not a UTF-8 continuation byte,
    /// and a stray continuation byte (invalid UTF-8) counts as a column of its own.
    public static func column(of offset: Int, lineStart: Int, in bytes: [UInt8]) -> Int {
        bytes.withUnsafeBufferPointer { column(of: offset, lineStart: lineStart, in: $0) }
    }

    /// The same for bytes in memory the caller holds (a mapped file's).
    public static func column(of offset: Int, lineStart: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Int {
        1 + columns(bytes, from: lineStart, to: min(offset, bytes.count), lineStart: lineStart)
    }

    /// How many columns `bytes[from..<to]` spans on the line that starts at `lineStart` (at or
    /// before `from`): a column for every byte that is not a UTF-8 continuation byte, and for a
    /// continuation byte at the line's start or after an ASCII byte (a stray one). Eight bytes at
    /// a time: a minified story is one line of many megabytes.
    static func columns(_ bytes: UnsafeBufferPointer<UInt8>, from: Int, to: Int, lineStart: Int) -> Int {
        var count = 0
        var index = from
        if index == lineStart, index < to {  // the line's first byte is a column, whatever it is
            count += 1
            index += 1
        }
        if let base = bytes.baseAddress {
            let raw = UnsafeRawPointer(base)
            let high: UInt64 = 0x8080_8080_8080_8080
            while index + 8 <= to {
                // `index` > `lineStart` >= 0: the byte before each of the eight is in the buffer.
                let word = raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)
                let before = raw.loadUnaligned(fromByteOffset: index - 1, as: UInt64.self)
                // A high bit for each byte that is 10xxxxxx and follows a byte that is not ASCII:
                // the bytes that are not a column of their own.
                let within = word & ~(word << 1) & before & high
                count += 8 - highBits(within)
                index += 8
            }
        }
        while index < to {
            let byte = bytes[index]
            if byte & 0xC0 != 0x80 || index == lineStart || bytes[index - 1] < 0x80 { count += 1 }
            index += 1
        }
        return count
    }

    /// Byte offset of the start of `line`, for slicing.
    public func start(ofLine line: Int) -> Int { lineStarts[line - 1] }
}

/// A position worked out for a finding, with where its line starts (for the source excerpt).
public struct LocatedOffset: Sendable, Hashable {
    public var position: SourcePosition
    /// Byte offset of the first byte of the line.
    public var lineStart: Int
}

extension LineIndex {
    /// Positions of many offsets, in the order given, from one forward sweep over the file and
    /// without a table of line starts: lines are counted eight bytes at a time between
    /// findings, and columns only from the start of a finding's line (or from the previous
    /// finding on the same line). A minified file is one line, and counting from its start
    /// for each finding would cost findings x file.
    public static func locate(_ offsets: [Int], in bytes: [UInt8]) -> [LocatedOffset] {
        bytes.withUnsafeBufferPointer { locate(offsets, in: $0, passing: nil) }
    }

    /// The same over a file's `SourceBytes`, giving pages back behind the sweep; lines are
    /// counted from the parser's checkpoints when it left some.
    public static func locate(_ offsets: [Int], in source: SourceBytes) -> [LocatedOffset] {
        source.beginPass()
        defer { source.endPass() }
        return source.withUnsafeBufferPointer { locate(offsets, in: $0, passing: source, checkpoints: source.lineCheckpoints) }
    }

    static func locate(
        _ offsets: [Int], in bytes: UnsafeBufferPointer<UInt8>, passing source: SourceBytes?, checkpoints: LineCheckpoints? = nil
    ) -> [LocatedOffset] {
        let order = offsets.indices.sorted { offsets[$0] < offsets[$1] }
        var result = [LocatedOffset](repeating: LocatedOffset(position: SourcePosition(line: 1, column: 1), lineStart: 0), count: offsets.count)
        let hasBOM = bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF
        do {
            var line = 1
            var lineStart = 0
            var scanned = 0  // newlines are counted up to here
            var cursor = 0  // columns are counted up to here, on `lineStart`'s line
            var column = 1
            var first = 0  // where columns start on this line (after a byte-order mark)
            for position in order {
                let offset = min(max(offsets[position], 0), bytes.count)
                // The last line feed the parser counted before this finding, when it is past
                // where lines are counted to: lines go on from there.
                if let checkpoints, let (feed, count) = checkpoints.last(before: offset), feed >= scanned {
                    line = count + 1
                    lineStart = feed + 1
                    cursor = lineStart
                    first = lineStart
                    column = 1
                    scanned = lineStart
                }
                // Lines between the last finding and this one, a few megabytes at a time.
                while scanned < offset {
                    let upTo = min(offset, scanned + SourceBytes.step)
                    let (newlines, lastNewline) = countNewlines(bytes, from: scanned, to: upTo)
                    if newlines > 0 {
                        line += newlines
                        lineStart = lastNewline + 1
                        cursor = lineStart
                        first = lineStart
                        column = 1
                    }
                    scanned = upTo
                    source?.release(upTo: min(upTo, cursor))
                }
                if line == 1, hasBOM, first == 0 {
                    // A byte-order mark is invisible in editors: columns start after it.
                    if offset <= 3 {
                        result[position] = LocatedOffset(position: SourcePosition(line: 1, column: 1), lineStart: 0)
                        continue
                    }
                    cursor = 3
                    first = 3
                }
                while cursor < offset {
                    let upTo = min(offset, cursor + SourceBytes.step)
                    column += columns(bytes, from: cursor, to: upTo, lineStart: first)
                    cursor = upTo
                    source?.release(upTo: cursor)
                }
                result[position] = LocatedOffset(position: SourcePosition(line: line, column: column), lineStart: lineStart)
            }
        }
        return result
    }

    /// How many bits are set in `word`, whose set bits are all bytes' high bits: one multiply
    /// (the build's baseline x86-64 has no population count instruction; `nonzeroBitCount` is a
    /// dozen instructions there).
    @inline(__always) static func highBits(_ word: UInt64) -> Int {
        Int(truncatingIfNeeded: ((word >> 7) &* 0x0101_0101_0101_0101) >> 56)
    }

    /// How many line feeds `bytes[from..<to]` holds, and where the last one is; eight bytes at a
    /// time (a word with no line feed costs a few instructions).
    static func countNewlines(_ bytes: UnsafeBufferPointer<UInt8>, from: Int, to: Int) -> (count: Int, last: Int) {
        var count = 0
        var last = -1
        var index = from
        let low: UInt64 = 0x7F7F_7F7F_7F7F_7F7F
        let feeds: UInt64 = 0x0A0A_0A0A_0A0A_0A0A
        if let base = bytes.baseAddress {
            let raw = UnsafeRawPointer(base)
            while index + 8 <= to {
                let word = raw.loadUnaligned(fromByteOffset: index, as: UInt64.self) ^ feeds
                // A high bit for each byte of `word` that is zero: each line feed, exactly.
                let zero = ~(((word & low) &+ low) | word | low)
                if zero != 0 {
                    count += highBits(zero)
                    last = index + (63 - zero.leadingZeroBitCount) / 8
                }
                index += 8
            }
        }
        while index < to {
            if bytes[index] == 0x0A {
                count += 1
                last = index
            }
            index += 1
        }
        return (count, last)
    }
}

/// Line feeds a parse counted, one checkpoint every 4 KiB of the file (the first line feed of
/// each): where a line feed is and how many there are up to it, counting it. About 200 KB for a
/// file of a hundred megabytes. A page apart, so that placing findings scattered through a large
/// file counts lines only on the pages that hold them (every 64 KiB, placing 7,000 findings of a
/// 78 MB story read the whole file again).
public struct LineCheckpoints: Sendable, Equatable {
    /// A checkpoint is the first line feed of each 2^chunkShift bytes.
    static let chunkShift = 12
    var feeds: [Int32] = []
    var counts: [Int32] = []

    /// The last checkpoint whose line feed is before `offset`.
    func last(before offset: Int) -> (feed: Int, count: Int)? {
        var low = 0, high = feeds.count
        while low < high {
            let middle = (low + high) / 2
            if Int(feeds[middle]) < offset { low = middle + 1 } else { high = middle }
        }
        guard low > 0 else { return nil }
        return (Int(feeds[low - 1]), Int(counts[low - 1]))
    }
}
