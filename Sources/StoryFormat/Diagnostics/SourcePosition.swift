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
        let clamped = min(max(offset, 0), bytes.count)
        let line = line(of: clamped)
        var start = lineStarts[line - 1]
        // A byte-order mark is invisible in editors: columns start after it.
        if start == 0, bytes.starts(with: [0xEF, 0xBB, 0xBF]) { start = min(3, clamped) }
        var column = 1
        var index = start
        while index < clamped {
            // A scalar starts at every byte that is not a UTF-8 continuation byte; a stray
            // continuation byte (invalid UTF-8) counts as a column of its own.
            let byte = bytes[index]
            if byte & 0xC0 != 0x80 || index == start || bytes[index - 1] < 0x80 { column += 1 }
            index += 1
        }
        return SourcePosition(line: line, column: column)
    }

    /// Positions of many offsets, in the order given, from one forward sweep: each line's columns
    /// are counted once, however many findings it holds (a minified file is one line, and
    /// counting from its start for each finding would cost findings x file).
    public func positions(of offsets: [Int]) -> [SourcePosition] {
        let order = offsets.indices.sorted { offsets[$0] < offsets[$1] }
        var result = [SourcePosition](repeating: SourcePosition(line: 1, column: 1), count: offsets.count)
        var line = 0  // 1-based line of the cursor; 0 before the first offset
        var cursor = 0  // byte offset already counted up to
        var column = 1
        var first = 0  // where columns start on the cursor's line
        bytes.withUnsafeBufferPointer { bytes in
            for position in order {
                let offset = min(max(offsets[position], 0), bytes.count)
                let offsetLine = self.line(of: offset)
                if offsetLine != line {
                    line = offsetLine
                    cursor = lineStarts[line - 1]
                    first = cursor
                    column = 1
                }
                // With a byte-order mark, the first line's columns count from after it.
                if line == 1, first == 0, bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF {
                    if offset <= 3 {
                        result[position] = SourcePosition(line: 1, column: 1)
                        continue
                    }
                    cursor = 3
                    first = 3
                }
                while cursor < offset {
                    // A scalar starts at every byte that is not a UTF-8 continuation byte; a stray
                    // continuation byte (invalid UTF-8) counts as a column of its own.
                    let byte = bytes[cursor]
                    if byte & 0xC0 != 0x80 || cursor == first || bytes[cursor - 1] < 0x80 { column += 1 }
                    cursor += 1
                }
                result[position] = SourcePosition(line: line, column: column)
            }
        }
        return result
    }

    /// The byte range of a 1-based line without its line break (CR LF or LF).
    public func lineRange(_ line: Int) -> Range<Int> {
        guard line >= 1, line <= lineStarts.count else { return 0..<0 }
        let start = lineStarts[line - 1]
        var end = line < lineStarts.count ? lineStarts[line] - 1 : bytes.count
        if end > start, bytes[end - 1] == UInt8(ascii: "\r") { end -= 1 }
        return start..<max(start, end)
    }

    /// The text of a 1-based line without its line break (CR LF or LF).
    public func lineBytes(_ line: Int) -> ArraySlice<UInt8> {
        guard line >= 1, line <= lineStarts.count else { return [] }
        let start = lineStarts[line - 1]
        var end = line < lineStarts.count ? lineStarts[line] - 1 : bytes.count
        if end > start, bytes[end - 1] == UInt8(ascii: "\r") { end -= 1 }
        return bytes[start..<max(start, end)]
    }

    /// Byte offset of the start of `line`, for slicing.
    public func start(ofLine line: Int) -> Int { lineStarts[line - 1] }
}
