import StoryFormat
import TerminalUI
import Testing

/// Wrapping a chapter's text to the reader's width: words kept whole where they fit, cut between
/// characters where one is wider than a line, and the same lines whether they come back as
/// strings or are appended to a page of bytes (which is how a chapter is written).
@Suite("Wrapping text")
struct TextLayoutTests {
    static let texts = [
        "",
        "one",
        "The lantern swings over the harbour and the gulls wait for the tide, as they always have.",
        "line one\nline two\n\nafter a blank line",
        "  spaces   between    words  and at both ends  ",
        "a-very-long-word-that-is-longer-than-any-line-of-the-reader-at-all-whatever-its-width-may-be",
        "東京の港で灯りが揺れている。カモメは潮を待っている。長い長い文には空白がない。",
        "café 🦊 naïve — “quoted” words, and an emoji 👩‍👩‍👧 in the middle of a sentence that wraps",
    ]

    @Test("lines are never wider than the width, and keep every word in order")
    func widths() {
        for text in Self.texts {
            for width in [20, 33, 80] {
                let lines = TextLayout.wrap(text, width: width)
                for line in lines { #expect(DisplayWidth.of(line) <= width, "\(line) is wider than \(width)") }
                let words = text.split(whereSeparator: { $0 == " " || $0 == "\n" }).joined()
                let kept = lines.joined().split(separator: " ").joined()
                #expect(kept == words)
            }
        }
    }

    @Test("appending to a page gives the same lines, each ended by a line feed, and counts them")
    func appending() {
        for text in Self.texts {
            for width in [20, 33, 80] {
                let lines = TextLayout.wrap(text, width: width)
                var page: [UInt8] = Array("before\n".utf8)
                let count = TextLayout.wrap(text, width: width, appendingTo: &page)
                #expect(count == lines.count)
                #expect(String(decoding: page, as: UTF8.self) == "before\n" + lines.map { $0 + "\n" }.joined())
            }
        }
    }

    @Test("every line starts with the indent")
    func indent() {
        let lines = TextLayout.wrap("one two three four five six seven eight nine ten eleven", width: 20, indent: "   ")
        #expect(lines.count > 1)
        for line in lines { #expect(line.hasPrefix("   ")) }
    }
}
