import StoryFormat
import Testing

@testable import StoryLanguageServer

/// LSP positions count UTF-16 code units; the server keeps UTF-8 bytes. These pin the conversion
/// both ways on accented text, emoji (surrogate pairs), CRLF lines and out-of-range positions.
@Suite struct PositionTests {
    let document = TextDocument(uri: "file:///s/story.json", version: 1, text: "{\n  \"é\": \"🐱x\",\r\n  \"a\": 1\n}")

    @Test func anAccentedLetterIsOneUnitAndTwoBytes() {
        // Line 1 is `  "é": "🐱x",\r`; é is at character 3, bytes 5..<7 of the text.
        #expect(document.position(of: 5) == Position(line: 1, character: 3))
        #expect(document.position(of: 7) == Position(line: 1, character: 4))
        #expect(document.offset(of: Position(line: 1, character: 4)) == 7)
    }

    @Test func anEmojiIsTwoUnitsAndFourBytes() {
        // `"🐱x"` opens at character 7 (byte 10); the emoji spans bytes 11..<15, x is byte 15.
        #expect(document.position(of: 11) == Position(line: 1, character: 8))
        #expect(document.position(of: 15) == Position(line: 1, character: 10))
        #expect(document.offset(of: Position(line: 1, character: 10)) == 15)
        // A position between the two halves of the pair is the scalar's start, never mid-scalar.
        #expect(document.offset(of: Position(line: 1, character: 9)) == 11)
    }

    @Test func carriageReturnEndsItsLineAsACharacter() {
        let crlfLine = document.offset(of: Position(line: 2, character: 0))
        #expect(document.bytes[crlfLine - 1] == UInt8(ascii: "\n"))
        #expect(document.bytes[crlfLine - 2] == UInt8(ascii: "\r"))
        #expect(document.position(of: crlfLine) == Position(line: 2, character: 0))
    }

    @Test func positionsPastTheEndAreClamped() {
        #expect(document.offset(of: Position(line: 99, character: 0)) == document.bytes.count)
        #expect(document.offset(of: Position(line: 0, character: 99)) == 1)  // the end of "{"
        #expect(document.position(of: 10_000) == Position(line: 3, character: 1))
    }

    @Test func incrementalEditsReplaceTheRangeAndReindexLines() {
        var edited = document
        edited.apply(range: (Position(line: 1, character: 8), Position(line: 1, character: 10)), text: "🐶\n🐭", version: 2)
        #expect(String(decoding: edited.bytes, as: UTF8.self) == "{\n  \"é\": \"🐶\n🐭x\",\r\n  \"a\": 1\n}")
        #expect(edited.version == 2)
        #expect(edited.position(of: edited.bytes.count) == Position(line: 4, character: 1))
        #expect(edited.offset(of: Position(line: 2, character: 2)) == Array("{\n  \"é\": \"🐶\n🐭".utf8).count)
    }
}

@Suite struct ChapterIDContextTests {
    func start(_ text: String) -> Int? {
        let cursor = text.utf8.firstIndex(of: UInt8(ascii: "|")).map { text.utf8.distance(from: text.utf8.startIndex, to: $0) }!
        var bytes = Array(text.utf8)
        bytes.remove(at: cursor)
        return chapterIDValueStart(in: bytes, at: cursor)
    }

    @Test func insideAChapterIDValueCompletionStartsAfterTheQuote() {
        #expect(start(#"{"chapter_id": "ce|"#) == 16)
        #expect(start(#"{"chapter_id":"|""#) == 15)
        #expect(start("{\"chapter_id\" :\n  \"ab|\"") == 19)
    }

    @Test func elsewhereThereIsNoChapterIDContext() {
        #expect(start(#"{"text": "ce|"#) == nil)
        #expect(start(#"{"chapter_id": "cellar"|"#) == nil)
        #expect(start(#"{"text": "say \"chapter_id\": \"x|"#) == nil)
        #expect(start(#"|"#) == nil)
    }
}

@Suite struct JSONValueTests {
    @Test func messagesRoundTripThroughTheProjectsReader() throws {
        let text = #"{"jsonrpc":"2.0","id":7,"params":{"text":"é🐱\n\"q\"","list":[true,false,null,1.5,-3]}}"#
        let value = try #require(JSONValue.parse(Array(text.utf8)))
        #expect(value["id"]?.int == 7)
        #expect(value["params"]?["text"]?.string == "é🐱\n\"q\"")
        #expect(JSONValue.parse(value.bytes) == value)
        #expect(JSONValue.parse(Array("{oops".utf8)) == nil)
    }
}
