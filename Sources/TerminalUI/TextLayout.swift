import StoryFormat

/// Wraps text to a width in terminal cells, keeping words whole where they fit. Words are found
/// in the UTF-8 bytes (a space or a line feed is never part of another character there), so a
/// chapter of 50 MB wraps in well under a second.
package enum TextLayout {
    package static func wrap(_ text: String, width: Int, indent: String = "") -> [String] {
        var lines: [String] = []
        eachLine(of: text, width: width, indent: indent) { lines.append(String(decoding: $0, as: UTF8.self)) }
        return lines
    }

    /// Wraps `text` as `wrap` does, appending each line and a line feed to `page`; returns how
    /// many lines it added. No string is made per line, so a huge chapter costs its bytes.
    @discardableResult
    package static func wrap(_ text: String, width: Int, appendingTo page: inout [UInt8]) -> Int {
        var count = 0
        eachLine(of: text, width: width, indent: "") { line in
            page.append(contentsOf: line)
            page.append(0x0A)
            count += 1
        }
        return count
    }

    private static func eachLine(of text: String, width: Int, indent: String, _ body: (UnsafeBufferPointer<UInt8>) -> Void) {
        let width = max(20, width)
        let indentWidth = indent.count
        let indentBytes = Array(indent.utf8)
        var text = text
        text.withUTF8 { bytes in
            var line: [UInt8] = indentBytes
            var lineWidth = indentWidth
            var index = 0
            func endLine() {
                line.withUnsafeBufferPointer { body($0) }
                line.removeAll(keepingCapacity: true)
                line.append(contentsOf: indentBytes)
                lineWidth = indentWidth
            }
            while index <= bytes.count {
                if index == bytes.count || bytes[index] == 0x0A {
                    endLine()
                    index += 1
                    continue
                }
                if bytes[index] == 0x20 {
                    index += 1
                    continue
                }
                var end = index
                var ascii = true
                while end < bytes.count, bytes[end] != 0x20, bytes[end] != 0x0A {
                    if bytes[end] >= 0x80 { ascii = false }
                    end += 1
                }
                let word = UnsafeBufferPointer(rebasing: bytes[index..<end])
                let wordWidth = ascii ? word.count : DisplayWidth.of(String(decoding: word, as: UTF8.self))
                if wordWidth > width - indentWidth {
                    // Wider than a whole line (CJK text, which has no spaces, or a long URL): cut
                    // between characters where the line is full, never past the width.
                    if lineWidth > indentWidth {
                        if lineWidth + 2 > width { endLine() } else {
                            line.append(0x20)
                            lineWidth += 1
                        }
                    }
                    for character in String(decoding: word, as: UTF8.self) {
                        let characterWidth = DisplayWidth.of(String(character))
                        if lineWidth > indentWidth, lineWidth + characterWidth > width { endLine() }
                        line.append(contentsOf: Array(String(character).utf8))
                        lineWidth += characterWidth
                    }
                    index = end
                    continue
                }
                if lineWidth > indentWidth, lineWidth + 1 + wordWidth > width { endLine() }
                if lineWidth > indentWidth {
                    line.append(0x20)
                    lineWidth += 1
                }
                line.append(contentsOf: word)
                lineWidth += wordWidth
                index = end
            }
        }
    }

    /// Items (`b back`, `m mark`) joined by a separator and wrapped between items, never inside
    /// one; the lines after the first start with `indent`.
    package static func wrapItems(_ items: [String], separator: String = " · ", width: Int, indent: String = "") -> [String] {
        let width = max(20, width)
        let separatorWidth = DisplayWidth.of(separator)
        var lines: [String] = []
        var line = ""
        var lineWidth = 0
        for item in items {
            let itemWidth = DisplayWidth.of(item)
            if !line.isEmpty, lineWidth + separatorWidth + itemWidth > width {
                lines.append(line)
                line = ""
            }
            if line.isEmpty {
                line = (lines.isEmpty ? "" : indent) + item
                lineWidth = (lines.isEmpty ? 0 : DisplayWidth.of(indent)) + itemWidth
            } else {
                line += separator + item
                lineWidth += separatorWidth + itemWidth
            }
        }
        if !line.isEmpty { lines.append(line) }
        return lines
    }

    /// The longest start of `text` that fits in `width` terminal cells (for a line redrawn in
    /// place, which must never wrap).
    package static func truncate(_ text: String, width: Int) -> String {
        var out = ""
        var used = 0
        for character in text {
            let characterWidth = DisplayWidth.of(String(character))
            if used + characterWidth > width { break }
            out.append(character)
            used += characterWidth
        }
        return out
    }

    /// Writes `text` to a stream: wrapped to the window with a hanging indent when the stream is
    /// a terminal, as it is otherwise (scripts and logs keep one line per message).
    package static func write(_ text: String, to stream: Terminal.Stream, indent: String = "") {
        guard let columns = Terminal.width(of: stream) else { return stream.write(text + "\n") }
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).flatMap { paragraph -> [String] in
            // A line that fits is left exactly as it is (aligned columns keep their spaces).
            if DisplayWidth.of(paragraph) <= columns { return [String(paragraph)] }
            let lead = String(paragraph.prefix { $0 == " " })
            let wrapped = wrap(String(paragraph.dropFirst(lead.count)), width: columns - lead.count, indent: indent)
            guard let first = wrapped.first else { return [""] }
            // The first line keeps its own margin; the indent is for the lines that continue it.
            return [lead + first.dropFirst(indent.count)] + wrapped.dropFirst().map { lead + $0 }
        }
        stream.write(lines.joined(separator: "\n") + "\n")
    }
}
