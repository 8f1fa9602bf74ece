import Testing

@testable import StoryFormat

/// A large story's chapters are decoded on two cores: this thread takes them from the front while
/// a helper takes stretches of them from the back (`ChapterShare`), a thread of the decoder's own
/// (`StoryDecoder.decodeStory`'s `splittingFrom`) or the caller's once its own work is done. What
/// comes out must be what one pass in order gives, whoever decoded what.
@Suite("Decoding a story's chapters on two threads")
struct SplitDecodeTests {
    /// `count` elements of the chapters array, with something of everything the decoder numbers
    /// or reports spread over both halves: elements that are not objects, pictures and videos,
    /// choices good and bad, unknown keys, missing ids, flags.
    static func story(chapters count: Int) -> String {
        var elements: [String] = []
        for index in 0..<count {
            switch index % 7 {
            case 3: elements.append(index % 2 == 0 ? "7" : "\"a string\"")
            case 5:
                elements.append(#"{ "name": "no id \#(index)", "text": "   ", "pic_path": "p\#(index).png", "colour": "red" }"#)
            default:
                let choices = (0..<(index % 4)).map { choice -> String in
                    choice == 1 ? #"{ "chapterId": "c\#(index + 1)", "text": "" }"# : #"{ "chapter_id": "c\#((index + choice + 1) % count)", "text": "go \#(choice)" }"#
                }
                let flags = index == 0 ? #", "is_first_chapter": true"# : (index % 6 == 0 ? #", "is_ending": true, "vid_path": "v\#(index).mp4""# : "")
                let choiceArray = index % 4 == 3 ? #", "choices": [ 1, "x" ]"# : ", \"choices\": [\(choices.joined(separator: ", "))]"
                elements.append(#"{ "id": "c\#(index)", "name": "Chapter \#(index)", "text": "Text \#(index)\n\tand \u00e9"\#(flags)\#(choiceArray) }"#)
            }
        }
        return #"{ "story": { "id": "s", "name": "S", "rating": "PG", "summary": "x", "pic_path": "cover.png", "chapters": [ "#
            + elements.joined(separator: ",\n") + " ] } }"
    }

    /// Everything the decoder gives, written out so that two decodings compare as text.
    static func fingerprint(_ syntax: StorySyntax, _ findings: [Diagnostic]) -> [String] {
        var lines: [String] = []
        for chapter in syntax.chapters {
            let nodes = ChapterField.allCases.map { chapter.node($0).map(String.init) ?? "-" }.joined(separator: ",")
            lines.append("chapter \(chapter.node) \(chapter.index) \(chapter.ordinal) \(chapter.choiceStart)+\(chapter.numberOfChoices) \(chapter.trueFlags) \(chapter.textIsBlank) '\(chapter.idValue)' [\(nodes)] \(chapter.label)")
        }
        for choice in syntax.choices {
            lines.append("choice \(choice.node) \(choice.index) of \(choice.chapter) -> \(choice.targetNode) text \(choice.textNode.map(String.init) ?? "-")")
        }
        for item in syntax.media {
            lines.append("media \(item.path.value) at \(item.path.node) chapter \(item.chapter.map(String.init) ?? "story") \(item.isPicture)")
        }
        for finding in findings {
            lines.append("finding \(finding.code) \(finding.severity) \(finding.range) \(finding.message) / \(finding.help ?? "-")")
        }
        return lines
    }

    @Test(
        "two threads give the chapters, choices, media and findings of one pass, wherever the stretches fall",
        arguments: [2, 3, 4, 7, 8, 13, 14, 29, 60], [1, 2, 5, 512])
    func sameAsOnePass(count: Int, stretch: Int) throws {
        let parsed = JSONParser().parse(Array(Self.story(chapters: count).utf8))
        let document = try #require(parsed.document)
        let (whole, wholeFindings) = StoryDecoder.decodeStory(document, splittingFrom: .max)
        let (halves, halvesFindings) = StoryDecoder.decodeStory(document, share: ChapterShare(stretch: stretch), splittingFrom: 2)
        let expected = Self.fingerprint(whole, wholeFindings)
        #expect(Self.fingerprint(halves, halvesFindings) == expected)
        // The story has something of each kind in it, so the comparison compares something.
        #expect(whole.chapters.count < count && whole.choices.count > 0 || count < 4)
        #expect(wholeFindings.count > 0 || count < 4)
        #expect(expected.contains { $0.hasPrefix("media cover.png") })
        // And the model of the halves is the model of the whole.
        #expect(halves.model() == whole.model())
    }

    @Test("a story of many chapters is read the same by a reader with or without the split")
    func largeStoryModel() throws {
        let parsed = JSONParser().parse(Array(Self.story(chapters: 5_001).utf8))
        let document = try #require(parsed.document)
        let (whole, wholeFindings) = StoryDecoder.decodeStory(document, splittingFrom: .max)
        let (halves, halvesFindings) = StoryDecoder.decodeStory(document)  // the default splits 5,001 chapters
        #expect(Self.fingerprint(halves, halvesFindings) == Self.fingerprint(whole, wholeFindings))
        #expect(halves.choices.count == whole.choices.count && halves.choices.count > 2_000)
    }

    @Test("a helper that takes every chapter, from the back, gives what one pass gives")
    func helperTakesEverything() throws {
        let parsed = JSONParser().parse(Array(Self.story(chapters: 300).utf8))
        let document = try #require(parsed.document)
        let (whole, wholeFindings) = StoryDecoder.decodeStory(document, splittingFrom: .max)
        let chapters = try #require(whole.chaptersNode)
        let elements = Array(document.elements(of: chapters))
        // The helper (this thread, first) takes every stretch before the front takes any.
        let share = ChapterShare(stretch: 7)
        share.open(document, elements: elements)
        #expect(share.help() == 300)
        var syntax = StorySyntax(document: document)
        var reader = ObjectReader(document: document)
        StoryDecoder.decodeShared(share, elements: elements, into: &syntax, reader: &reader)
        // The story's own picture and findings are decoded before the chapters, not by the share.
        let storyLevel = { (line: String) in line.hasPrefix("media cover.png") }
        #expect(Self.fingerprint(syntax, reader.diagnostics) == Self.fingerprint(whole, wholeFindings).filter { !storyLevel($0) })
        #expect(syntax.chapters.count > 200 && reader.diagnostics.count > 50)
    }

    @Test("a caller's thread that helps is let go whatever the file holds", .timeLimit(.minutes(1)), arguments: [
        #"{ "authors": [] }"#, "[1, 2]", #"{ "story": 3 }"#, #"{ "story": { "id": "s", "chapters": 4 } }"#,
    ])
    func helperLetGo(text: String) {
        var helper: BackgroundWork<Int>?
        let file = LoadedFile.load(SourceBytes(Array(text.utf8)), fileName: "story.json") { _, _, share in
            helper = BackgroundWork { share.help() }
            return true
        }
        #expect(helper?.wait() == 0)
        #expect(file.document != nil)
    }

    @Test("a caller's thread that helps with a large story decodes the story one pass decodes")
    func callerHelps() throws {
        let bytes = Array(Self.story(chapters: 5_001).utf8)
        let document = try #require(JSONParser().parse(bytes).document)
        let (whole, wholeFindings) = StoryDecoder.decodeStory(document, splittingFrom: .max)
        var helper: BackgroundWork<Int>?
        let file = LoadedFile.load(SourceBytes(bytes), fileName: "story.json", resolvingPointers: false) { _, _, share in
            helper = BackgroundWork { share.help() }
            return true
        }
        let helped = try #require(helper).wait()
        #expect(helped >= 0 && helped <= 5_001)
        let story = try #require(file.story)
        #expect(Self.fingerprint(story, file.diagnostics) == Self.fingerprint(whole, wholeFindings))
    }
}
