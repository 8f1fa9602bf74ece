import Foundation
import StoryFormat
import StoryInterchange
import TestSupport
import Testing

/// A Twine archive or published story read as HTML: scripts, styles, comments and attribute
/// values hold no story; an archive without one, or a story without passages, is said as such;
/// the story's own code is left out with a word.
@Suite("Twine archives read as HTML")
struct TwineArchiveHTMLTests {
    static func read(_ text: String) -> TweeStory.Imported { TwineArchive.story(from: Array(text.utf8)) }

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
        let ids = (0..<3000).map { "c\($0)" }
        let story = Story(
            id: "big", name: "Big", rating: "G", summary: "s",
            chapters: ids.enumerated().map { index, id in
                Chapter(
                    id: id, name: id, text: String(repeating: "Waves on the rocks. ", count: 20), isFirstChapter: index == 0,
                    choices: [Choice(chapterID: ids[(index + 1) % ids.count], text: "On")])
            })
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
}
