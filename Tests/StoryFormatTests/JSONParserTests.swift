import Testing

@testable import StoryFormat

@Suite("Reading JSON with positions")
struct JSONParserTests {
    func parse(_ text: String, lenient: Bool = false) -> JSONParser.Result {
        JSONParser(options: .init(lenient: lenient)).parse(Array(text.utf8))
    }

    func position(_ text: String, of offset: Int) -> SourcePosition { LineIndex(Array(text.utf8)).position(of: offset) }

    @Test("every value keeps its byte range")
    func ranges() throws {
        let text = #"{"a": [1, "two", true, null], "b": {"c": -1.5e3}}"#
        let document = try #require(parse(text).document)
        let a = try #require(document.member(0, "a"))
        #expect(document.sourceText(a) == #"[1, "two", true, null]"#)
        #expect(Array(document.elements(of: a)).map(document.sourceText) == ["1", #""two""#, "true", "null"])
        let c = try #require(document.member(document.member(0, "b")!, "c"))
        #expect(document.number(c) == -1500)
        #expect(document.count(of: 0) == 2)
    }

    @Test("columns count Unicode scalars, not bytes")
    func multiByteColumns() throws {
        let text = "{\"é🦊\": \"x\", \"k\": 1}"
        let document = try #require(parse(text).document)
        let k = try #require(document.members(of: 0).first { document.keyEquals($0.key, "k") })
        // {"é🦊": "x", "k": twelve scalars (but sixteen bytes) come before the key
        #expect(document.range(k.key).lowerBound == 16)
        #expect(position(text, of: 16) == SourcePosition(line: 1, column: 13))
    }

    @Test("CR LF line endings and a byte-order mark do not shift positions")
    func crlfAndBOM() throws {
        let text = "\u{FEFF}{\r\n  \"a\": 1,\r\n  \"b\": x\r\n}"
        let result = parse(text)
        let error = try #require(result.diagnostics.first)
        #expect(error.code == .invalidJSON)
        #expect(position(text, of: error.range.lowerBound) == SourcePosition(line: 3, column: 8))
        let withBOM = "\u{FEFF}{}"
        #expect(parse(withBOM).document != nil)
        #expect(position("\u{FEFF}[x]", of: 4) == SourcePosition(line: 1, column: 2))
    }

    @Test("escapes decode, surrogate pairs included, and keep their source ranges")
    func escapes() throws {
        let text = #"["a\"b\\c\/d\n\t\u00e9\uD83E\uDD8A"]"#
        let document = try #require(parse(text).document)
        let string = try #require(document.elements(of: 0).first(where: { _ in true }))
        #expect(document.string(string) == "a\"b\\c/d\n\té🦊")
        let pieces = Array(document.scalars(string))
        #expect(pieces.last?.scalar == "🦊")
        #expect(pieces.last?.source.count == 12)
    }

    @Test("a lone surrogate and a bad escape are errors at their place, and reading goes on")
    func badEscapes() {
        let result = parse(#"["\uD800x", "\q", "ok"]"#)
        #expect(result.document != nil)
        #expect(result.diagnostics.map(\.code) == [.invalidJSON, .invalidJSON])
        #expect(result.diagnostics.map(\.range.lowerBound) == [2, 13])
    }

    @Test("invalid UTF-8 is reported at the byte")
    func invalidUTF8() throws {
        var bytes = Array(#"{"name": "Caf"#.utf8)
        bytes.append(0xE9)
        bytes += Array(#"", "ok": "\#u{00E9}"}"#.utf8)
        let result = JSONParser().parse(bytes)
        let error = try #require(result.diagnostics.first)
        #expect(error.code == .invalidUTF8)
        #expect(error.range == 13..<14)
        #expect(error.message == "invalid UTF-8 byte 0xE9")
        #expect(result.diagnostics.count == 1)
    }

    @Test("overlong forms and encoded surrogates are invalid UTF-8")
    func strictUTF8() {
        for bad: [UInt8] in [[0xC0, 0xAF], [0xE0, 0x80, 0xAF], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xFF]] {
            let result = JSONParser().parse(Array("[\"".utf8) + bad + Array("\"]".utf8))
            #expect(result.diagnostics.first?.code == .invalidUTF8, "\(bad)")
        }
    }

    @Test("numbers follow the JSON grammar")
    func numbers() {
        for good in ["0", "-0", "12", "0.5", "-1.25e-3", "1E+9"] {
            #expect(parse("[\(good)]").diagnostics.isEmpty, "\(good)")
        }
        for bad in ["01", "1.", ".5", "+1", "1e", "--1", "1.2.3"] {
            #expect(parse("[\(bad)]").diagnostics.first?.code == .invalidJSON, "\(bad)")
        }
    }

    @Test("trailing commas and comments: errors when strict, warnings when lenient, never fatal")
    func relaxedSyntax() throws {
        let text = "{ // note\n \"a\": [1, 2,], /* x */ \"b\": 3, }"
        let strict = parse(text)
        #expect(strict.document != nil)
        #expect(strict.diagnostics.map(\.code) == [.comment, .trailingComma, .comment, .trailingComma])
        #expect(strict.diagnostics.allSatisfy { $0.severity == .error })
        let lenient = parse(text, lenient: true)
        #expect(lenient.diagnostics.allSatisfy { $0.severity == .warning })
        #expect(position(text, of: strict.diagnostics[1].range.lowerBound) == SourcePosition(line: 2, column: 12))
    }

    @Test("duplicate keys are warned about, pointing at both, and the last one wins; the first is there to be asked for")
    func duplicateKeys() throws {
        let result = parse(#"{"a": 1, "b": 2, "a": 3}"#)
        let warning = try #require(result.diagnostics.first)
        #expect(warning.code == .duplicateKey && warning.severity == .warning)
        #expect(warning.range.lowerBound == 17)
        #expect(warning.related.first?.range.lowerBound == 1)
        let document = try #require(result.document)
        #expect(document.sourceText(document.member(0, "a")!) == "3")
        #expect(document.sourceText(document.firstMember(0, "a")!) == "1")
        #expect(document.firstMember(0, "c") == nil && document.sourceText(document.firstMember(0, "b")!) == "2")
    }

    @Test("deep nesting stops at the limit with an error, never a crash")
    func deepNesting() {
        let text = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        let result = parse(text)
        #expect(result.document == nil)
        #expect(result.diagnostics.map(\.code) == [.nestingTooDeep])
        #expect(result.diagnostics[0].range.lowerBound == 128)
    }

    @Test("empty and white-space-only files")
    func emptyFiles() {
        #expect(parse("").diagnostics.map(\.code) == [.emptyFile])
        #expect(parse(" \r\n\t").diagnostics.map(\.code) == [.emptyFile])
        #expect(JSONParser().parse([0xEF, 0xBB, 0xBF]).diagnostics.map(\.code) == [.emptyFile])
    }

    @Test("a file over the size limit is refused before reading")
    func sizeLimit() {
        let result = JSONParser(options: .init(maximumSize: 10)).parse(Array("[1,2,3,4,5,6]".utf8))
        #expect(result.document == nil)
        #expect(result.diagnostics.map(\.code) == [.fileTooLarge])
    }

    @Test("common slips get specific help", arguments: [
        (#"{"a": 'x'}"#, "double quotes"),
        (#"{a: 1}"#, "put the key in double quotes"),
        (#"[True]"#, "lowercase"),
        (#"[None]"#, "null"),
        (#"{"a": 1 "b": 2}"#, "add a comma"),
        (#"["abc]"#, "closing"),
    ])
    func helpfulErrors(text: String, hint: String) throws {
        let error = try #require(parse(text).diagnostics.first)
        #expect(error.code == .invalidJSON)
        #expect(error.help?.contains(hint) == true, "\(error.help ?? "no help")")
    }

    @Test("raw control characters in strings are reported; their names never print raw")
    func rawControls() throws {
        let result = parse("[\"a\u{1B}[2Jb\"]")
        let finding = try #require(result.diagnostics.first)
        #expect(finding.code == .unescapedControlCharacter)
        #expect(!finding.message.contains("\u{1B}"))
        #expect(result.document != nil)
    }

    @Test("RFC 6901 pointers, with ~ and / escaped")
    func pointers() throws {
        let document = try #require(parse(#"{"a/b": {"m~n": [0, {"x": true}]}}"#).document)
        let inner = try #require(document.member(document.member(0, "a/b")!, "m~n"))
        let object = Array(document.elements(of: inner))[1]
        let x = try #require(document.member(object, "x"))
        #expect(document.pointer(to: x) == "/a~1b/m~0n/1/x")
        #expect(document.pointer(to: 0) == "")
        let key = try #require(document.members(of: object).first(where: { _ in true })?.key)
        #expect(document.pointer(to: key) == "/a~1b/m~0n/1/x")
    }
}
