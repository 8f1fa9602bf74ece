import StoryFormat

/// Wraps text to a width in terminal cells, keeping words whole where they fit.
enum TextLayout {
    static func wrap(_ text: String, width: Int, indent: String = "") -> [String] {
        let width = max(20, width)
        var lines: [String] = []
        for sourceLine in text.split(separator: "\n", omittingEmptySubsequences: false) {
            var line = indent
            var lineWidth = indent.count
            for word in sourceLine.split(separator: " ", omittingEmptySubsequences: true) {
                let wordWidth = cells(word)
                if lineWidth > indent.count, lineWidth + 1 + wordWidth > width {
                    lines.append(line)
                    line = indent
                    lineWidth = indent.count
                }
                if lineWidth > indent.count {
                    line += " "
                    lineWidth += 1
                }
                line += word
                lineWidth += wordWidth
            }
            lines.append(line)
        }
        return lines
    }

    static func cells(_ text: Substring) -> Int {
        text.unicodeScalars.reduce(0) { total, scalar in
            let v = scalar.value
            if scalar.properties.generalCategory == .nonspacingMark { return total }
            let wide = (0x1100...0x115F).contains(v) || (0x2E80...0xA4CF).contains(v) || (0xAC00...0xD7A3).contains(v)
                || (0xF900...0xFAFF).contains(v) || (0xFF00...0xFF60).contains(v) || (0x1F300...0x1FAFF).contains(v)
            return total + (wide ? 2 : 1)
        }
    }
}
