import StoryFormat
import Testing

@testable import StoryInterchange

/// The export writes each chapter as a passage and reads it back to learn what the metadata must
/// carry; a chapter with nothing in it that reading could change skips that reading. The skip
/// must never be taken where reading back would have found a difference.
@Suite("Passages read back")
struct ReadBackTests {
    /// Pieces of text and of choices that reading a passage back treats specially, and plain ones.
    static let pieces = [
        "plain words", " ", "\t", "\n", "\r\n", "\r", "[", "]", "[[", "]]", "][", "->", "<-", "-", ">", "|", "$name", "$oil", "{name}", "{x}",
        "::", ":", "(set: $a to 1)", "<<if>>", "é", "🦊", "[[name]]", "a->b", "x|y",
    ]

    static func random(_ random: inout some RandomNumberGenerator, parts: Int) -> String {
        (0..<Int.random(in: 0...parts, using: &random)).map { _ in pieces[Int.random(in: 0..<pieces.count, using: &random)] }.joined()
    }

    @Test("a chapter said to read back whole does, in every format: its written passage is as read back, and gives its text and choices")
    func skippedOnlyWhereReadingChangesNothing() {
        var generator = SplitMix64(state: 20_261_129)  // a seed: a failure is found again
        var whole = 0
        for round in 0..<4000 {
            // Mostly plain pieces, so that both answers are met often.
            let text = round % 2 == 0 ? Self.random(&generator, parts: 4) : "The tide " + String(round) + (round % 3 == 0 ? Self.random(&generator, parts: 2) : "")
            let choices = (0..<Int.random(in: 0...3, using: &generator)).map { n in
                Choice(chapterID: n % 2 == 0 ? "room\(n)" : Self.random(&generator, parts: 2), text: n % 3 == 0 ? "Go on" : Self.random(&generator, parts: 3))
            }
            let chapter = Chapter(id: "c\(round)", name: "c\(round)", text: text, choices: choices)
            guard TweeStory.readsBackWhole(chapter) else { continue }
            whole += 1
            for format in TweeStory.Format.allCases {
                let written = TweeStory.content(of: chapter, format: format)
                #expect(TweeStory.readBack(written) == written, "\(chapter)")
                // The export writes such a passage straight from the chapter, without `passageSafe`,
                // into a piece of the file that holds the passages before it.
                let before = Array(":: earlier\nits text\n\n:: c {}\n".utf8)
                var straight = before
                TweeStory.appendContent(of: chapter, format: format, to: &straight)
                #expect(String(decoding: straight[before.count...], as: UTF8.self) == written, "\(format): \(chapter)")
                var findings: [TweeFinding] = []
                var map: TweeSourceMap?
                let back = TweeStory.derive(content: written, name: chapter.id, firstLine: 0, format: format, findings: &findings, map: &map)
                #expect(back.text == chapter.text && back.choices == chapter.choices, "\(format): \(chapter)")
            }
        }
        #expect(whole > 1000, "plain chapters skip the reading: \(whole) of 4000")
    }

    /// The export writes a chapter that reads back whole from its fields as the file is made,
    /// and any other from the content it checked: in the file, each chapter's passage is its
    /// content as read back, under its id and its place on the map, in the story's order.
    @Test("in an exported file each chapter's passage is its content as read back, whether written from its fields or as checked")
    func passagesInTheFile() throws {
        var generator = SplitMix64(state: 20_261_130)
        let chapters = (0..<1500).map { n in
            let text = n % 2 == 0 ? Self.random(&generator, parts: 4) : "The tide " + String(n)
            let choices = (0..<Int.random(in: 0...2, using: &generator)).map { c in
                Choice(chapterID: "c\((n + c + 1) % 1500)", text: c == 0 ? "Go on" : Self.random(&generator, parts: 3))
            }
            return Chapter(id: "c\(n)", name: "c\(n)", text: text, isFirstChapter: n == 0, choices: choices)
        }
        let story = Story(id: "s", name: "S", rating: "G", summary: "x", chapters: chapters)
        #expect(chapters.contains(where: TweeStory.readsBackWhole) && chapters.contains(where: { !TweeStory.readsBackWhole($0) }))
        for format in TweeStory.Format.allCases {
            let document = TweeDocument.parse(try TweeStory.tweeBytes(story, format: format))
            #expect(document.passages.count == 3 + chapters.count)
            let places = TweeLayout.positions(of: story)
            for (index, chapter) in chapters.enumerated() {
                let passage = document.passages[3 + index]
                #expect(passage.name == chapter.id && passage.tags.isEmpty)
                // What was checked, as the file's reader reads it (once more: a checked "\r\r\n"
                // is written "\r\n" and read "\n"; the metadata then keeps the exact text).
                let checked = TweeStory.readBack(TweeStory.content(of: chapter, format: format))
                #expect(passage.content == TweeStory.readBack(checked), "\(format): \(chapter)")
                #expect(passage.metadata == #"{"position":""# + TwineData.laidOut(places[index]) + #"","size":"100,100"}"#)
            }
            #expect(TweeStory.story(from: try TweeStory.tweeBytes(story, format: format)).story == story)
        }
    }

    @Test("a plain chapter skips the reading; each thing reading changes or takes for a link or code stops the skip")
    func whatStopsTheSkip() {
        let plain = Chapter(id: "a", name: "A", text: "Fog on the water.\n\nThe lamp is lit.", choices: [Choice(chapterID: "b-2", text: "Climb - up")])
        #expect(TweeStory.readsBackWhole(plain))
        #expect(TweeStory.readsBackWhole(Chapter(id: "e", name: "E", text: "")), "an empty ending")
        for text in ["a [b", "$name waits", "{name}", "line\r\nbreak", ":: Start", "ends with a blank line\n", "  \n\t"] {
            #expect(!TweeStory.readsBackWhole(Chapter(id: "a", name: "A", text: text)), "\(text.debugDescription)")
        }
        for (text, target) in [("a]", "b"), ("a", "b->c"), ("two\nlines", "b"), ("a", "b\r"), ("[x", "b")] {
            #expect(!TweeStory.readsBackWhole(Chapter(id: "a", name: "A", text: "t", choices: [Choice(chapterID: target, text: text)])), "\(text) -> \(target)")
        }
    }
}
