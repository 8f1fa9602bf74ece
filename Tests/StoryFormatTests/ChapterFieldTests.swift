import Foundation
import TestSupport
import Testing

@testable import StoryFormat

/// `ChapterField` is the one declaration of a chapter's keys: the decoder, the writer and (in
/// their modules) Twee and the library are made from it, so these hold it to the model.
@Suite("A chapter's keys, declared once")
struct ChapterFieldTests {
    /// A chapter with every key set (a key added later is in it).
    static let full = Chapter.withEveryKey()

    @Test("every stored property of Chapter is a field, and every field one of its properties")
    func everyPropertyIsAField() {
        let properties = Mirror(reflecting: Self.full).children.compactMap(\.label)
        #expect(Set(properties) == Set(ChapterField.allCases.map { "\($0)" }))
    }

    @Test("each field's ordinal is its place in the declaration")
    func ordinals() {
        #expect(ChapterField.allCases.map(\.ordinal) == Array(ChapterField.allCases.indices))
        #expect(ChapterField.all == ChapterField.allCases)
    }

    @Test("setting each field's value on an empty chapter makes the chapter again")
    func valuesRoundTrip() {
        var chapter = Chapter(id: "", name: "", text: "")
        for field in ChapterField.allCases { field.set(field.value(in: Self.full), in: &chapter) }
        #expect(chapter == Self.full)
        for field in ChapterField.allCases where !field.isRequired {
            var cleared = Self.full
            field.set(nil, in: &cleared)
            #expect(field.value(in: cleared) == nil, "\(field.key) is left out once cleared")
        }
    }

    @Test("the decoder knows exactly the fields' keys, and reads each into the model")
    func decoderTable() throws {
        #expect(StoryDecoder.knownStoryKeys["chapter"] == ChapterField.allCases.map(\.key))
        let text = StoryJSON.text(Story(id: "s", name: "S", rating: "G", summary: "x", chapters: [Self.full, Chapter(id: "b", name: "B", text: "")]))
        let file = LoadedFile.load(Array(text.utf8))
        #expect(file.diagnostics.isEmpty)
        #expect(try #require(file.story?.model()).chapters[0] == Self.full)
    }

    /// An import writes story.json in pieces made as they are written, never joined into one
    /// array: the pieces, one after the other, are the file `bytes` makes.
    @Test("story.json written in pieces made ahead is byte for byte the story.json written whole, empty, small or of several megabytes")
    func chunks() throws {
        for count in [0, 1, 999, 1_000, 2_501, 30_000] {
            let chapters = (0..<count).map { n in
                n == 0 ? Self.full : Chapter(id: "c\(n)", name: "C \(n)", text: n % 7 == 0 ? "" : "Text \(n) “quoted”\n" + String(repeating: "and on ", count: n % 20), choices: [Choice(chapterID: "c\(n + 1)", text: "On")])
            }
            let story = Story(id: "s", name: "S", rating: "G", summary: "x", chapters: chapters)
            let pieces = Array(StoryJSON.chunks(story))
            #expect(pieces.count >= 1 && (count < 30_000 || pieces.count > 1), "\(count) chapters: \(pieces.count) pieces")
            let same = Array(pieces.joined()) == StoryJSON.bytes(story)
            #expect(same, "\(count) chapters")
        }
    }

    @Test("the writer puts a chapter's keys in the fields' order, each once, and lays them out as a tree of values would")
    func writerOrder() throws {
        let bytes = StoryJSON.bytes(Story(id: "s", name: "S", rating: "G", summary: "x", chapters: [Self.full]))
        let value = try #require(JSONValue.parse(bytes))
        guard case .object(let chapter)? = value["story"]?["chapters"]?.array?.first else {
            Issue.record("no chapter object")
            return
        }
        #expect(chapter.map(\.0) == ChapterField.allCases.map(\.key))
        #expect(String(decoding: bytes, as: UTF8.self) == value.pretty() + "\n")
    }
}

/// The schema editors use and the format's page say what the declaration says.
@Suite("A chapter's keys in the schema and the docs")
struct ChapterFieldDocumentsTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    @Test("Schemas/story.schema.json describes exactly the chapter's keys, the required ones required")
    func schema() throws {
        let bytes = try Array(Data(contentsOf: Self.root.appendingPathComponent("Schemas/story.schema.json")))
        let chapter = try #require(JSONValue.parse(bytes)?["$defs"]?["chapter"])
        guard case .object(let properties)? = chapter["properties"] else {
            Issue.record("the schema's chapter has no properties")
            return
        }
        #expect(Set(properties.map(\.0)) == Set(ChapterField.allCases.map(\.key)))
        #expect(Set(chapter["required"]?.array?.compactMap(\.string) ?? []) == Set(ChapterField.allCases.filter(\.isRequired).map(\.key)))
    }

    @Test("docs/format.md names every chapter key")
    func formatPage() throws {
        let page = try String(contentsOf: Self.root.appendingPathComponent("docs/format.md"), encoding: .utf8)
        for field in ChapterField.allCases {
            #expect(page.contains("\"\(field.key)\""), "docs/format.md does not name \(field.key)")
        }
    }
}
