import Testing

@testable import StoryFormat

/// The parser leaves checkpoints of the line feeds it counted (one every 4 KiB: a page, so that
/// placing a finding reads again little more than its own page of a large file), and finding
/// positions start counting lines from the checkpoint before each finding. Every position must
/// be the one counting from the start of the file gives, and a file whose line feeds the parser
/// could not all count (in a comment, raw in a string) must leave none.
@Suite("Line checkpoints")
struct LineCheckpointTests {
    /// A pretty story of about `chapters` x 300 bytes, with line ends `newline`.
    static func story(_ chapters: Int, newline: String = "\n", bom: Bool = false, extra: String = "") -> [UInt8] {
        var text = (bom ? "\u{FEFF}" : "") + "{" + newline + "  \"story\": {" + extra + newline + "    \"chapters\": [" + newline
        for n in 0..<chapters {
            text += "      { \"id\": \"c\(n)\", \"name\": \"Chapter \(n) — “é”\"," + newline
            text += "        \"text\": \"Line one.\\nLine two with [[name]] and naïve words, long enough to fill the file.\"," + newline
            text += "        \"choices\": [ { \"chapter_id\": \"c\(n + 1)\", \"text\": \"On\" } ] }" + (n + 1 < chapters ? "," : "") + newline
        }
        text += "    ]" + newline + "  }" + newline + "}" + newline
        return Array(text.utf8)
    }

    func positionsAgree(_ bytes: [UInt8], lenient: Bool = false, expectCheckpoints: Bool, everyChunk: Bool = true) throws {
        let source = SourceBytes(bytes)
        let parsed = JSONParser(options: .init(lenient: lenient)).parse(source)
        #expect(parsed.document != nil, "\(parsed.diagnostics.map(\.message))")
        #expect((source.lineCheckpoints != nil) == expectCheckpoints)
        // One checkpoint in every 4 KiB that holds a line feed (every 4 KiB of these stories does).
        if expectCheckpoints, everyChunk { #expect((source.lineCheckpoints?.feeds.count ?? 0) >= bytes.count >> 12) }
        var offsets = Array(stride(from: 0, to: bytes.count, by: 97)) + [bytes.count, bytes.count - 1, 0, 1, 2, 3, 4]
        offsets += bytes.indices.filter { bytes[$0] == 0x0A }.prefix(500).flatMap { [$0, $0 + 1] }
        offsets.shuffle()
        let counted = LineIndex.locate(offsets, in: bytes)
        let fromCheckpoints = LineIndex.locate(offsets, in: source)
        #expect(fromCheckpoints.map(\.position) == counted.map(\.position))
        #expect(fromCheckpoints.map(\.lineStart) == counted.map(\.lineStart))
    }

    @Test("a pretty story of several hundred kilobytes: line feeds, CRLF and a byte-order mark")
    func pretty() throws {
        try positionsAgree(Self.story(1_500), expectCheckpoints: true)
        try positionsAgree(Self.story(1_500, newline: "\r\n"), expectCheckpoints: true)
        try positionsAgree(Self.story(1_500, bom: true), expectCheckpoints: true)
    }

    @Test("a minified story is one line: no checkpoint is needed, and none misleads")
    func minified() throws {
        try positionsAgree(Self.story(1_500, newline: ""), expectCheckpoints: true, everyChunk: false)
        #expect(LineCheckpoints().last(before: 100) == nil)
    }

    @Test("line feeds the parser does not count (in a comment, raw in a string) leave no checkpoints")
    func uncounted() throws {
        try positionsAgree(Self.story(1_500, extra: " /* a comment\nof two lines */"), lenient: true, expectCheckpoints: false)
        try positionsAgree(Self.story(1_500, extra: " \"note\": \"a raw\tline\nbreak\","), lenient: true, expectCheckpoints: false)
        // A line comment ends at its line feed, which is white space: counted.
        try positionsAgree(Self.story(1_500, extra: " // a comment\n"), lenient: true, expectCheckpoints: true)
    }
}
