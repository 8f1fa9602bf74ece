import Foundation
import Testing

@testable import StoryFormat

/// A large file is read on two cores: another thread reads the second half's large array from a
/// guessed element on, and the first part takes what it read when it meets that element. The
/// result must be the one-pass parse's, node for node, finding for finding, with the same line
/// checkpoints, whatever the file holds where the guess falls, and the file must be read in one
/// pass whenever the guess cannot be taken.
@Suite("Two-part parse")
struct TwoPartParseTests {
    /// Parses `bytes` in one pass and in two parts (the other thread committing after
    /// `commitAfter` bytes), expects the same results, and returns where the second part began.
    @discardableResult
    func sameParse(_ bytes: [UInt8], options: JSONParser.Options = .init(), commitAfter: Int = 0, sourceLocation: SourceLocation = #_sourceLocation) -> Int? {
        var one = options
        one.twoPartsFrom = .max
        var two = options
        two.twoPartsFrom = 0
        two.twoPartsCommitAfter = commitAfter
        let a = SourceBytes(bytes), b = SourceBytes(bytes)
        let ra = JSONParser(options: one).parse(a), rb = JSONParser(options: two).parse(b)
        #expect(ra.secondPartFrom == nil, sourceLocation: sourceLocation)
        #expect(ra.diagnostics == rb.diagnostics, sourceLocation: sourceLocation)
        #expect((ra.document == nil) == (rb.document == nil), sourceLocation: sourceLocation)
        if let da = ra.document, let db = rb.document {
            #expect(da.nodes.count == db.nodes.count, sourceLocation: sourceLocation)
            #expect(da.nodes.map { [$0.startAndFlags, $0.end, $0.kindAndNext] } == db.nodes.map { [$0.startAndFlags, $0.end, $0.kindAndNext] }, sourceLocation: sourceLocation)
            // The parser's counts of large arrays are the elements there are.
            #expect(da.largeArrays == db.largeArrays, sourceLocation: sourceLocation)
            for node in db.nodes.indices where db.kind(node) == .array {
                let walked = db.elements(of: node).reduce(0) { n, _ in n + 1 }
                #expect(db.count(of: node) == walked, sourceLocation: sourceLocation)
                #expect((db.largeArrays[node] != nil) == (walked >= JSONDocument.largeArray), sourceLocation: sourceLocation)
            }
        }
        #expect(a.lineCheckpoints == b.lineCheckpoints, sourceLocation: sourceLocation)
        if let from = rb.secondPartFrom { #expect(from >= bytes.count / 2, sourceLocation: sourceLocation) }
        return rb.secondPartFrom
    }

    /// `sameParse` until the second part is taken, ten times at most: whether the other thread
    /// commits before the first part reaches its element depends on the scheduler (on a loaded
    /// machine, the full suite running beside it, the other thread may not have run yet, and the
    /// file is rightly read in one pass). Each try checks the parses alike all the same.
    func takenParse(_ bytes: [UInt8], options: JSONParser.Options = .init(), commitAfter: Int = 0, sourceLocation: SourceLocation = #_sourceLocation) -> Int? {
        for attempt in 0..<10 {
            if attempt > 0 { usleep(20_000) }  // the other cores' work a moment to move on
            if let from = sameParse(bytes, options: options, commitAfter: commitAfter, sourceLocation: sourceLocation) { return from }
        }
        return nil
    }

    static func story(_ chapters: Int, newline: String = "\n", text: (Int) -> String = { _ in "Line one.\\nLine two with [[name]] and naïve words." }) -> [UInt8] {
        var body = "{" + newline + "  \"story\": {" + newline + "    \"chapters\": [" + newline
        for n in 0..<chapters {
            body += "      { \"id\": \"c\(n)\", \"name\": \"Chapter \(n) — “é”\", \"text\": \"\(text(n))\"," + newline
            body += "        \"choices\": [ { \"chapter_id\": \"c\(n + 1)\", \"text\": \"On\" }, { \"chapter_id\": \"c0\", \"text\": \"Back\" } ] }"
            body += (n + 1 < chapters ? "," : "") + newline
        }
        body += "    ]" + newline + "  }" + newline + "}" + newline
        return Array(body.utf8)
    }

    /// `story` with `replacement` put in place of the first `target` at or after `fraction` of it.
    static func flawed(_ bytes: [UInt8], at fraction: Double, replacing target: String, with replacement: String) -> [UInt8] {
        let from = Int(Double(bytes.count) * fraction)
        let t = Array(target.utf8)
        let at = (from...(bytes.count - t.count)).first { bytes[$0..<($0 + t.count)].elementsEqual(t) }!
        return Array(bytes[..<at]) + Array(replacement.utf8) + Array(bytes[(at + t.count)...])
    }

    @Test("a story read in two parts is the one-pass parse: LF, CRLF, minified, with a byte-order mark")
    func cleanStories() {
        let pretty = Self.story(3000)
        #expect(takenParse(pretty) != nil, "the second part must be taken")
        #expect(takenParse(Self.story(3000, newline: "\r\n")) != nil)
        #expect(takenParse(Self.story(3000, newline: "")) != nil)
        #expect(takenParse(Array("\u{FEFF}".utf8) + pretty) != nil)
        // The default commitment: small arrays (choices) are passed over for the chapters.
        let from = takenParse(pretty, commitAfter: 64 << 10)
        #expect(from != nil)
        if let from { #expect(String(decoding: pretty[from..<(from + 8)], as: UTF8.self) == "{ \"id\": ", "the chapters' array, not a choices array") }
    }

    @Test("findings in the second part come in file order with the same places: trailing comma, comment, duplicate key, control character, escapes, UTF-8")
    func findingsInTheSecondPart() {
        let story = Self.story(3000)
        let lenient = JSONParser.Options(lenient: true)
        #expect(takenParse(Self.flawed(story, at: 0.7, replacing: "\"text\": \"On\"", with: "\"text\": \"On\", \"text\": \"Twice\""), options: lenient) != nil)
        #expect(takenParse(Self.flawed(story, at: 0.7, replacing: "\"id\"", with: "/* a comment\n */ \"id\""), options: lenient) != nil)
        #expect(takenParse(Self.flawed(story, at: 0.7, replacing: "\"id\"", with: "// a line comment\n\"id\""), options: lenient) != nil)
        #expect(takenParse(Self.flawed(story, at: 0.7, replacing: "Line one.", with: "Line\tone.")) != nil)
        #expect(takenParse(Self.flawed(story, at: 0.7, replacing: "Line one.", with: "Line \\x one \\uD800 \\u12")) != nil)
        #expect(takenParse(Self.flawed(story, at: 0.7, replacing: "Line one.", with: "Line \u{FFFD}one.").map { $0 == 0xBD ? 0xFF : $0 }) != nil)
        // The chapters' array ends in a trailing comma: reported by the second part.
        let trailing = Self.flawed(story, at: 0.99, replacing: "} ] }\n    ]", with: "} ] },\n    ]")
        #expect(takenParse(trailing, options: lenient) != nil)
        #expect(takenParse(trailing) != nil)
        // Numbers, literals and nesting in the second half.
        #expect(takenParse(Self.flawed(story, at: 0.7, replacing: "\"id\"", with: "\"x\": [1, -2.5e3, true, false, null, {\"a\": [[]]}, 01], \"id\"")) != nil)
    }

    @Test("a syntax error in the second part stops the reading where one pass stops it")
    func errorsInTheSecondPart() {
        let story = Self.story(3000)
        sameParse(Self.flawed(story, at: 0.7, replacing: "} ] },", with: "} ] }"))  // a missing comma
        sameParse(Self.flawed(story, at: 0.7, replacing: "\"On\" }", with: "\"On }"))  // unterminated string
        sameParse(Self.flawed(story, at: 0.7, replacing: "\"id\"", with: "id"))
        sameParse(Self.flawed(story, at: 0.99, replacing: "    ]\n  }", with: "  }"))  // the array never closes
        sameParse(Array(story.dropLast(40)))  // the file ends inside the array
        sameParse(Self.flawed(story, at: 0.2, replacing: "} ] },", with: "} ] }"))  // the error is in the first part
    }

    @Test("nesting is limited over the whole file: the second part's depth counts from where it starts")
    func depthAcrossTheParts() {
        let story = Self.story(3000)
        // The chapters' elements are at depth 4; ten levels more in one of them.
        let deep = String(repeating: "[", count: 10) + String(repeating: "]", count: 10)
        var options = JSONParser.Options()
        options.maximumDepth = 14
        // With the default commitment the part is the chapters' array's rest, which holds it.
        let flawed = Self.flawed(story, at: 0.7, replacing: "\"id\"", with: "\"deep\": \(deep), \"id\"")
        #expect(takenParse(flawed, options: options, commitAfter: 64 << 10) != nil)
        options.maximumDepth = 13
        #expect(sameParse(flawed, options: options, commitAfter: 64 << 10) == nil, "the part is not taken: one pass reports the nesting")
        // Committing at once, the part may be the rest of a chapter's choices: the same result.
        sameParse(flawed, options: options)
    }

    @Test("a guess the first part never meets is dropped: the pattern inside strings, arrays of other values, one huge element")
    func guessesNotMet() {
        // Every text holds "}, {": guesses fall inside strings.
        let texts = Self.story(3000) { n in "a}, {\\\"b\\\": [\(n)}, {" }
        sameParse(texts)
        sameParse(texts, commitAfter: 64 << 10)
        // Arrays of numbers and strings only.
        sameParse(Array(("[" + (0..<50000).map { "\"s\($0)\", \($0)" }.joined(separator: ", ") + "]").utf8))
        // One chapter holds most of the file: the middle is inside its text.
        let huge = Self.story(20) { n in n == 3 ? String(repeating: "a long text. ", count: 40000) : "short" }
        sameParse(huge)
        sameParse(huge, commitAfter: 64 << 10)
        // An array of objects at the top.
        sameParse(Array(("[" + (0..<20000).map { "{\"n\": \($0)}" }.joined(separator: ",\n") + "]").utf8))
        // Too small to commit with the default: read in one pass.
        #expect(sameParse(Self.story(50), commitAfter: 64 << 10) == nil)
    }

    @Test("a mapped file is read in two parts with its pages given back, and validates as it did")
    func mappedFile() throws {
        let bytes = Self.story(60000)
        #expect(bytes.count >= 8 << 20, "large enough for the default size")
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("two-part-\(UUID().uuidString).json").path
        #expect(FileManager.default.createFile(atPath: path, contents: Data(bytes)))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let fd = open(path, O_RDONLY)
        defer { close(fd) }
        let mapped = try #require(SourceBytes(mapping: fd, size: bytes.count))
        #expect(mapped.isMapped)
        let two = JSONParser().parse(mapped)
        #expect(two.secondPartFrom != nil)
        var one = JSONParser.Options()
        one.twoPartsFrom = .max
        let copy = SourceBytes(bytes)
        let single = JSONParser(options: one).parse(copy)
        #expect(two.diagnostics == single.diagnostics)
        #expect(two.document?.nodes.map(\.end) == single.document?.nodes.map(\.end))
        #expect(two.document?.nodes.map(\.next) == single.document?.nodes.map(\.next))
        #expect(mapped.lineCheckpoints == copy.lineCheckpoints)
    }
}
