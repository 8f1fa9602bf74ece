import StoryFormat

/// The one place where text becomes HTML. Every string a page shows, story text or not, goes
/// through `text` (element content) or `attribute` (a quoted attribute value): the five
/// characters HTML gives meaning to become entities, so a story's `<script>` or `</textarea>` is
/// shown as written and never parsed; control characters and bidirectional overrides are shown
/// visibly (as the terminal reader shows them), so a line cannot be made to read backwards.
public enum HTML {
    /// Text for element content.
    public static func text(_ value: String) -> String {
        entities(VisibleText.escape(value, keepLineBreaks: true, keepTabs: true))
    }

    /// Text for a double-quoted attribute value.
    public static func attribute(_ value: String) -> String {
        entities(VisibleText.escape(value))
    }

    /// A path segment for an `href` or `src` (a name this site made): percent-encoded, then
    /// escaped as an attribute.
    public static func pathSegment(_ value: String) -> String { PercentEncoding.encode(value) }

    private static func entities(_ value: String) -> String {
        let escaped = MarkupText.escaped(value)
        // U+FFFE and U+FFFF are not characters to XML (an EPUB's pages would not parse), nor
        // anything a reader can see: shown as VisibleText shows a control, by its code.
        guard escaped.utf8.contains(0xEF), escaped.unicodeScalars.contains(where: { $0.value == 0xFFFE || $0.value == 0xFFFF }) else { return escaped }
        var out = String.UnicodeScalarView()
        for scalar in escaped.unicodeScalars {
            if scalar.value == 0xFFFE || scalar.value == 0xFFFF {
                for piece in "\\u{\(String(scalar.value, radix: 16, uppercase: true))}".unicodeScalars { out.append(piece) }
            } else {
                out.append(scalar)
            }
        }
        return String(out)
    }

    /// A chapter's paragraphs as `<p>` elements, each `[[name]]` a span the page's script fills
    /// with the reader's name (without a script, or before a name is given: `ReaderName.fallback`).
    public static func paragraphs(of chapter: Chapter) -> String {
        chapter.paragraphs.map { paragraph in
            let pieces = paragraph.components(separatedBy: "[[name]]").map(text)
            let lines = pieces.joined(separator: "<span class=\"reader-name\">\(text(ReaderName.fallback))</span>")
            return "<p>" + lines.replacingOccurrences(of: "\n", with: "<br>\n") + "</p>"
        }.joined(separator: "\n")
    }
}

extension String {
    /// Splits on every occurrence of `separator` (FoundationEssentials is not a dependency here).
    func components(separatedBy separator: String) -> [String] {
        guard !separator.isEmpty else { return [self] }
        var pieces: [String] = []
        var rest = Substring(self)
        while let range = rest.firstRange(of: separator) {
            pieces.append(String(rest[..<range.lowerBound]))
            rest = rest[range.upperBound...]
        }
        pieces.append(String(rest))
        return pieces
    }

    func replacingOccurrences(of target: String, with replacement: String) -> String {
        components(separatedBy: target).joined(separator: replacement)
    }
}
