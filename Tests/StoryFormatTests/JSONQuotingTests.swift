import StoryFormat
import Testing

@Suite("JSON quoting")
struct JSONQuotingTests {
    @Test("every scalar round-trips through the parser, and no control or bidi character is left raw")
    func roundTrip() throws {
        let samples = ["plain", "quote \" and \\ backslash", "tab\tnew\nline\r", "\u{0}\u{1B}[31m\u{7F}\u{85}\u{9B}", "\u{202E}evil\u{2066}", "é 中 🐚"]
        for text in samples {
            let quoted = JSONQuoting.quoted(text)
            let raw = quoted.unicodeScalars.filter { VisibleText.isUnsafe($0) }
            #expect(raw.isEmpty, "\(quoted)")
            let parsed = JSONParser().parse(Array(quoted.utf8))
            let document = try #require(parsed.document)
            #expect(document.string(0) == text)
        }
    }
}
