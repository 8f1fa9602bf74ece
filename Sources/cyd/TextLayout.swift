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
                let wordWidth = DisplayWidth.of(word)
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
}
