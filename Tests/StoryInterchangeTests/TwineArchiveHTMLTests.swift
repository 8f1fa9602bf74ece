import Foundation
import StoryFormat
@testable import StoryInterchange
import TestSupport
import Testing

/// A Twine archive or published story read as HTML: scripts, styles, comments and attribute
/// values hold no story; an archive without one, or a story without passages, is said as such;
/// the story's own code is left out with a word.
@Suite("Twine archives read as HTML")
struct TwineArchiveHTMLTests {
    static func read(_ text: String) -> TweeStory.Imported { TwineArchive.story(from: Array(text.utf8)) }

    /// `count` chapters in a ring (each leads to the next), each text a few hundred bytes.
    static func ring(_ count: Int) -> Story {
        let ids = (0..<count).map { "c\($0)" }
        return Story(
            id: "big", name: "Big", rating: "G", summary: "s",
            chapters: ids.enumerated().map { index, id in
                Chapter(
                    id: id, name: id, text: String(repeating: "Waves on the rocks. ", count: 20), isFirstChapter: index == 0,
                    choices: [Choice(chapterID: ids[(index + 1) % ids.count], text: "On")])
            })
    }

    static let real = """
        <tw-storydata name="Real" startnode="1" format="Harlowe" format-version="3.3.9" ifid="11111111-2222-4333-8444-555555555555" zoom="1"><tw-passagedata pid="1" name="Door" tags="" position="100,100" size="100,100">Knock.</tw-passagedata></tw-storydata>
        """

    @Test("a <tw-storydata> in a script's string, a style, a comment, an attribute value or a <title> is not the story: the element after them is")
    func storyOnlyWhereItIsATag() throws {
        let decoys = [
            #"<script>var template = "<tw-storydata name=\"Fake\" startnode=\"1\"><tw-passagedata pid=\"1\" name=\"Trap\">x</tw-passagedata></tw-storydata>";</script>"#,
            #"<SCRIPT type="text/javascript">if (a < b && "</tw-storydata>") { document.querySelector('<tw-storydata name=Fake>'); }</SCRIPT >"#,
            "<style>tw-storydata::after { content: \"<tw-storydata name='Fake'>\"; }</style>",
            "<!-- <tw-storydata name=\"Fake\"><tw-passagedata pid=\"1\" name=\"Trap\">x</tw-passagedata></tw-storydata> -->",
            "<!--> <!---> <!-- -- --!> <div title=\"<tw-storydata name='Fake'>\" data-x='>'>text</div>",
            "<title><tw-storydata name=\"Fake\"></title><textarea><tw-storydata name=\"Fake\"></textarea>",
            "<!DOCTYPE html><?xml version=\"1.0\"?><p>1 < 2 and a <b>bold</b> word</p>",
        ]
        for decoy in decoys {
            let imported = Self.read("<html><head>" + decoy + "</head><body>\n" + Self.real + "\n</body></html>\n")
            #expect(imported.story?.name == "Real", "after \(decoy)")
            #expect(imported.story?.chapters.map(\.id) == ["Door"], "after \(decoy)")
            #expect(imported.findings.isEmpty, "after \(decoy): \(imported.findings)")
        }
        // A published story's format code mentions the element in its strings, after the story too.
        let published = "<html><body>" + Self.real + "<script>var s = '<tw-storydata name=\"Fake\">';</script></body></html>"
        #expect(Self.read(published).findings.isEmpty, "no word of a second story in a script")
    }

    /// HTML reads a tag's and an attribute's name with ASCII capitals in lower case and leaves
    /// every other letter as it is ("ASCII upper alpha" in the tokenizer): `NAME` is `name`, but a
    /// name with a capital beyond ASCII is not another spelling of a lower-case one.
    @Test("tag and attribute names are read with ASCII capitals in lower case, and no other letter folded")
    func namesInASCIILowerCase() throws {
        let upper = Self.read("""
            <TW-STORYDATA NAME="Loud" StartNode="1" FORMAT="Harlowe"><TW-PassageData PID="1" Name="Door" TAGS="a b">Knock.</TW-PASSAGEDATA></TW-STORYDATA>
            """)
        let story = try #require(upper.story)
        #expect(story.name == "Loud" && story.chapters.map(\.id) == ["Door"] && story.chapters[0].text == "Knock.")
        #expect(story.chapters[0].twine?["tags"] == .array([.string("a"), .string("b")]))
        // Only ASCII capitals are lowered: `NAMÉ` reads as `namÉ`, not `namé`, and `nÁme` is not `name`.
        let p = Array(#"<tw-passagedata NAMÉ="x" nÁme="y" name="Door">"#.utf8)
        let names = p.withUnsafeBufferPointer { TwineArchive.element($0, from: 15, to: $0.count).0.pairs.map(\.name) }
        #expect(names == ["namÉ", "nÁme", "name"])
    }

    @Test("an HTML file with no story, and an archive whose story has no passages, are errors that say so; nothing is written")
    func noStoryNoPassages() throws {
        let none = Self.read("<html><body><p>A page about Twine.</p></body></html>\n")
        #expect(none.story == nil)
        #expect(none.findings.map(\.kind) == [.noStory])
        #expect(none.findings.allSatisfy { $0.isError })
        let empty = Self.read("<!DOCTYPE html>\n<tw-storydata name=\"Empty\" startnode=\"\" ifid=\"X\"></tw-storydata>\n")
        #expect(empty.story == nil)
        #expect(empty.findings == [TweeFinding(kind: .noArchivePassages(story: "Empty"), line: 2, column: 1)])
        #expect(empty.findings.allSatisfy { $0.isError })
    }

    @Test("an archive cut short (no </tw-storydata>) is an error said at the file's end, wherever the cut falls; no story is read from it")
    func archiveCutShort() throws {
        let whole = Self.real + "\n"
        let closing = try #require(whole.range(of: "</tw-storydata>")).lowerBound
        // Every cut from inside the passage's start tag to just before the story's end tag.
        let passageStart = try #require(whole.range(of: "<tw-passagedata")).lowerBound
        var cuts = 0
        var at = whole.index(after: passageStart)
        while at < closing {
            let cut = String(whole[..<at])
            let read = Self.read(cut)
            let lastLine = cut.split(separator: "\n", omittingEmptySubsequences: false)
            let place = (lastLine.count, lastLine.last!.unicodeScalars.count + 1)
            #expect(read.story == nil, "cut after \(cut.suffix(20))")
            let said = read.findings.filter { if case .archiveCutShort = $0.kind { true } else { false } }
            #expect(said.count == 1 && said.allSatisfy { $0.isError && ($0.line, $0.column) == place }, "cut after \(cut.suffix(20)): \(read.findings)")
            cuts += 1
            at = whole.index(after: at)
        }
        #expect(cuts > 50, "every place a cut can fall")
        // Inside the passage's text, the passage is named; after its end tag, it is not.
        let inText = Self.read(String(whole[..<whole.range(of: "Knock")!.upperBound]))
        #expect(inText.findings.map(\.kind) == [.archiveCutShort(story: "Real", passage: "Door")])
        let afterPassage = Self.read(String(whole[..<closing]))
        #expect(afterPassage.findings.map(\.kind) == [.archiveCutShort(story: "Real", passage: nil)])
        // Cut before any passage: said once, as cut short, not as a story without passages.
        let early = Self.read(String(whole[..<passageStart]))
        #expect(early.findings.map(\.kind) == [.archiveCutShort(story: "Real", passage: nil)])
        // The whole file, and one whose last passage is unclosed but whose story is, are read.
        #expect(Self.read(whole).story != nil)
        #expect(Self.read(whole.replacingOccurrences(of: "</tw-passagedata>", with: "")).story?.chapters.map(\.text) == ["Knock."])
    }

    @Test("a large archive cut short, read in two halves, is said the same: the second half's end is not lost")
    func largeArchiveCutShort() throws {
        let html = Array(try TwineArchive.html(Self.ring(3000)).utf8)
        #expect(html.count >= 1 << 20, "large enough to be read in halves")
        for keep in [html.count - 20, html.count * 3 / 4, html.count / 2 + 10] {
            let read = TwineArchive.story(from: Array(html[..<keep]))
            let cut = read.findings.filter(\.isError)
            #expect(read.story == nil, "cut at \(keep) of \(html.count)")
            #expect(cut.count == 1, "cut at \(keep): \(cut)")
            #expect(cut.first?.line == html[..<keep].reduce(1) { $0 + ($1 == 0x0A ? 1 : 0) }, "at the file's last line")
        }
    }

    /// A Twee file over 1 MB is checked in two halves, each on its own core as it is read.
    @Test("a large Twee file with bytes that are not UTF-8, in either half, both, or about the line where the halves meet: the error is at the file's first bad byte")
    func notUTF8InHalves() throws {
        var text = ":: StoryTitle\nLamp\n"
        var number = 0
        while text.utf8.count < 1 << 21 {
            text += "\n:: p\(number)\nCaf\u{E9} text, line \(number). [[On->p\(number + 1)]]\n"
            number += 1
        }
        text += "\n:: p\(number)\nEnd.\n"
        let bytes = Array(text.utf8)
        let fine = TweeStory.story(from: bytes)
        #expect(fine.story?.chapters.count == number + 1 && !fine.findings.contains { $0.isError })
        // The halves meet at the first passage after the middle.
        let middle = try #require((bytes.count / 2..<bytes.count).first { bytes[$0] == 0x0A && bytes[$0 + 1] == 0x3A && bytes[$0 + 2] == 0x3A })
        func place(_ at: Int) -> (line: Int, column: Int) {
            let line = bytes[..<at].reduce(1) { $0 + ($1 == 0x0A ? 1 : 0) }
            let start = (bytes[..<at].lastIndex(of: 0x0A) ?? -1) + 1
            return (line, String(decoding: bytes[start..<at], as: UTF8.self).unicodeScalars.count + 1)
        }
        // An é's first byte (0xC3) is replaced with Latin-1's 0xE9 at these places.
        let accents = bytes.indices.filter { bytes[$0] == 0xC3 }
        let early = accents[10], late = accents[accents.count - 10]
        let beforeMiddle = try #require(accents.last { $0 < middle }), afterMiddle = try #require(accents.first { $0 > middle })
        for places in [[early], [late], [early, late], [beforeMiddle], [afterMiddle], [beforeMiddle, afterMiddle], [late, afterMiddle]] {
            var broken = bytes
            for at in places { broken[at] = 0xE9 }
            let first = places.min()!
            let imported = TweeStory.story(from: broken)
            #expect(imported.story == nil, "\(places)")
            #expect(imported.findings == [TweeFinding(kind: .notUTF8(byte: 0xE9), line: place(first).line, column: place(first).column)], "\(places) of \(bytes.count), halves at \(middle)")
        }
        // A lone byte on the line feed that ends the first half: a line feed never continues a character.
        var cut = bytes
        cut.insert(0xE2, at: middle)
        #expect(TweeStory.story(from: cut).findings == [TweeFinding(kind: .notUTF8(byte: 0xE2), line: place(middle).line, column: place(middle).column)])
    }

    @Test("a Twee file or an archive that is not UTF-8 (Windows-1252, Latin-1, a broken sequence, UTF-16) is an error at its first bad byte; its text is never changed to U+FFFD")
    func notUTF8() throws {
        let twee = ":: StoryTitle\nLamp\n\n:: Start\nCaf"
        let html = "<tw-storydata name=\"T\" startnode=\"1\">\n<tw-passagedata pid=\"1\" name=\"A\">Caf"
        let reads: [(String, ([UInt8]) -> TweeStory.Imported, Int)] = [(twee, { TweeStory.story(from: $0) }, 5), (html, { TwineArchive.story(from: $0) }, 2)]
        for (start, read, line) in reads {
            let column = start.split(separator: "\n").last!.count + 1
            // é in Windows-1252, a lone continuation byte, an overlong '/', a surrogate, past U+10FFFF, a cut sequence.
            for bad: [UInt8] in [[0xE9, 0x20], [0x80], [0xC0, 0xAF], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xE2, 0x82]] {
                let bytes = Array(start.utf8) + bad + Array(" and more.".utf8)
                let imported = read(bytes)
                #expect(imported.story == nil, "\(bad)")
                #expect(imported.findings == [TweeFinding(kind: .notUTF8(byte: bad[0]), line: line, column: column)], "\(bad)")
                #expect(imported.findings.allSatisfy { $0.isError })
            }
            // Valid UTF-8 of every length, up to U+10FFFF, reads.
            let fine = read(Array((start + "é € 🦊 \u{10FFFF} end." + (line == 2 ? "</tw-passagedata></tw-storydata>" : "")).utf8))
            #expect(fine.story != nil)
            #expect(!fine.findings.contains { $0.isError }, "\(fine.findings)")
        }
        let sixteen = Array(":: Start\nHello.\n".utf16).flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
        for bytes in [[0xFF, 0xFE] + sixteen, sixteen, [0xFE, 0xFF] + sixteen] {
            let imported = TweeStory.story(from: bytes)
            #expect(imported.story == nil)
            #expect(imported.findings == [TweeFinding(kind: .utf16, line: 1, column: 1)], "one word, not a finding a line")
            #expect(TwineArchive.story(from: bytes).findings == [TweeFinding(kind: .utf16, line: 1, column: 1)])
        }
        // A UTF-8 byte order mark is UTF-8.
        #expect(TweeStory.story(from: [0xEF, 0xBB, 0xBF] + Array(":: Start\nHello.\n".utf8)).story?.chapters.map(\.text) == ["Hello."])
    }

    @Test("the story's JavaScript and stylesheet are code: left out, each said at its line; empty ones are not said")
    func storyCodeSaid() throws {
        let archive = """
            <tw-storydata name="Coded" startnode="1" ifid="X">
            <style role="stylesheet" id="twine-user-stylesheet" type="text/twine-css">body { color: red; }</style>
            <script role="script" id="twine-user-script" type="text/twine-javascript">State.variables.x = "</tw-passagedata>";</script>
            <tw-passagedata pid="1" name="Only" tags="" position="100,100" size="100,100">Hello.</tw-passagedata></tw-storydata>
            """
        let imported = Self.read(archive)
        #expect(imported.story?.chapters.map(\.text) == ["Hello."])
        #expect(imported.findings == [TweeFinding(kind: .storyCodeLeftOut(isScript: false), line: 2, column: 1), TweeFinding(kind: .storyCodeLeftOut(isScript: true), line: 3, column: 1)])
        // cyd's own archives have empty ones: nothing said.
        let own = try TwineArchive.html(Story(id: "s", name: "S", rating: "G", summary: "x", chapters: [Chapter(id: "a", name: "a", text: "A.", isFirstChapter: true)]))
        #expect(Self.read(own).findings.isEmpty)
    }

    @Test("a passage's text holding markup-like text and references reads as Twine wrote it; an unclosed passage runs to the story's end")
    func passageText() throws {
        let archive = """
            <tw-storydata name="T" startnode="1"><tw-passagedata pid="1" name="A" position="1,1">1 &lt; 2 &amp;&amp; 3 &gt; 2 &#x1F41A;
            [[Next-&gt;B]]</tw-passagedata><tw-passagedata pid="2" name="B" position="2,2">Last</tw-storydata>
            """
        let story = try #require(Self.read(archive).story)
        #expect(story.chapters.map(\.text) == ["1 < 2 && 3 > 2 🐚", "Last"])
        #expect(story.chapters[0].choices == [Choice(chapterID: "B", text: "Next")])
    }

    @Test("a large archive is read in two halves, and the same when its middle falls in a comment full of passage elements: no ghost passage, nothing lost")
    func largeArchiveHalves() throws {
        let story = Self.ring(3000)
        let html = try TwineArchive.html(story)
        #expect(html.utf8.count >= 1 << 20, "large enough to be read in halves")
        #expect(TwineArchive.story(from: Array(html.utf8)).story == story)
        // A comment as long as the archive, in the middle, full of passage elements: the
        // second half's reading starts inside it and must be dropped.
        let decoy = "<tw-passagedata pid=\"9999\" name=\"Ghost\" position=\"1,1\">Boo</tw-passagedata>"
        let comment = "<!-- " + String(repeating: decoy + " ", count: html.utf8.count / decoy.utf8.count) + " -->"
        let middle = html.range(of: "<tw-passagedata pid=\"1500\"")!.lowerBound
        var haunted = html
        haunted.insert(contentsOf: comment, at: middle)
        let read = TwineArchive.story(from: Array(haunted.utf8))
        #expect(read.story == story)
        #expect(read.findings.isEmpty, "\(read.findings.prefix(3))")
        // And a script in the middle, the same way.
        var scripted = html
        scripted.insert(contentsOf: "<script>" + String(repeating: decoy, count: html.utf8.count / decoy.utf8.count) + "</script>", at: middle)
        #expect(TwineArchive.story(from: Array(scripted.utf8)).story == story)
    }

    @Test("the story starts at the first passage whose pid is the startnode, wherever it is and whether the passages are read in one pass or in two halves", arguments: [(3, 1), (4_001, 1), (4_001, 3_000)])
    func startNode(passages count: Int, start: Int) throws {
        // The start's pid is held by that passage and by the last one (pids are the archive's to
        // keep unique; the first of them is the start, as it always was): in a large archive the
        // two are in one half, or one in each.
        var html = "<tw-storydata name=\"S\" startnode=\"p\(start)\">"
        for index in 0..<count {
            let pid = index == count - 1 ? "p\(start)" : "p\(index)"
            html += "<tw-passagedata pid=\"\(pid)\" name=\"n\(index)\">Text \(index). [[n\((index + 1) % count)]]</tw-passagedata>\n"
        }
        html += "</tw-storydata>"
        let story = try #require(Self.read(html).story)
        #expect(story.firstChapter?.id == "n\(start)")
        // A startnode no passage has: the first passage, as for a Twee file without a start.
        let unknown = try #require(Self.read(html.replacingOccurrences(of: "startnode=\"p\(start)\"", with: "startnode=\"none\"")).story)
        #expect(unknown.firstChapter?.id == "n0")
    }
}
