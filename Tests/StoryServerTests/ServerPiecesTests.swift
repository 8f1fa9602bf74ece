// The browser reader is built with the package trait BrowserReader only.
#if BrowserReader
@testable import StoryReader
import Testing

@testable import StoryStore
@testable import StoryServer

/// The pieces of `cyd serve` that decide alone: what a browser's form and cookies say, which Host
/// headers name this server, and that every page shows a story's strings as text.
@Suite("The served reader's pieces")
struct ServerPiecesTests {
    @Test("forms: percent-decoding, + as a space, the first of a repeated name, invalid UTF-8 as U+FFFD, at most 64 fields")
    func forms() {
        let fields = Forms.fields(Array("token=ab&text=two+words%21&from=%E2%80%9Cq%E2%80%9D&text=again&bad=%FF%&empty".utf8))
        #expect(fields["token"] == "ab")
        #expect(fields["text"] == "two words!")
        #expect(fields["from"] == "“q”")
        #expect(fields["bad"] == "\u{FFFD}%")
        #expect(fields["empty"] == "")
        let many = (0..<500).map { "f\($0)=x" }.joined(separator: "&")
        #expect(Forms.fields(Array(many.utf8)).count == Forms.fieldLimit)
        #expect(Forms.decode(Array("a+b%2Fc".utf8), plusIsSpace: false) == "a+b/c")
    }

    @Test("cookies and secrets: pairs split, quotes dropped; a secret is 64 hex digits, new each time; comparison needs equal lengths")
    func cookiesAndSecrets() {
        #expect(Forms.cookies("cyd_access=abc; cyd_profile=\"Ana\";junk") == ["cyd_access": "abc", "cyd_profile": "Ana"])
        let a = Forms.secret(), b = Forms.secret()
        #expect(a.count == 64 && a.allSatisfy(\.isHexDigit) && a != b)
        #expect(Forms.sameSecret(a, a))
        #expect(!Forms.sameSecret(String(a.dropLast()), a))
        #expect(!Forms.sameSecret(nil, a))
        #expect(!Forms.sameSecret("", ""))
    }

    @Test("the Host header: IP literals and localhost on our port are ours; a DNS name (rebinding) or another port is not")
    func hosts() {
        for ours in ["127.0.0.1:8080", "localhost:8080", "LOCALHOST:8080", "192.168.1.5:8080", "[::1]:8080", "[fe80::1]:8080"] {
            #expect(Guards.isOurHost(ours, port: 8080), "\(ours)")
        }
        for other in ["evil.example:8080", "127.0.0.1:8081", "127.0.0.1", "1.2.3.4.5:8080", "127.0.0.1.nip.io:8080", "[::1]", "[evil]:8080", ":8080", "999.1.1.1:8080"] {
            #expect(!Guards.isOurHost(other, port: 8080), "\(other)")
        }
        #expect(Guards.isOurHost("127.0.0.1", port: 80))
    }

    @Test("the language switch's way back is only ever a path of this server's, as a request carries it")
    func ownPaths() {
        for path in ["/", "/stories/1/landing", "/search?q=cat", "/stories/1/%C3%A9t%C3%A9"] { #expect(ReaderServer.isOwnPath(path), "\(path)") }
        for path in ["", "//evil.example/", "/\\evil.example", "http://evil.example/", "/a b", "/été", "/a\u{7F}", String(repeating: "/a", count: 1100)] {
            #expect(!ReaderServer.isOwnPath(path), "\(path)")
        }
    }

    static let hostile = "<script>alert(1)</script> \"quoted\" 'single' </textarea> & \u{202E}reversed\u{1B}[31m"

    @Test("every page shows a hostile string as text: no tag, no raw quote in an attribute, bidi and escape characters visible")
    func escaping() throws {
        let story = StoryRecord(
            id: 1, source: StorySource(kind: .folder, location: "/tmp/x"), storyKey: "x", title: Self.hostile, rating: Self.hostile, summary: Self.hostile,
            author: nil, picPath: nil, version: "1", firstChapter: Self.hostile, chapterCount: 1, endingCount: 1, addedAt: 0, updatedAt: 0)
        let chapter = ChapterRecord(
            key: Self.hostile, position: 0, name: Self.hostile, body: Self.hostile, picPath: "javascript:alert(1)", picAlt: Self.hostile, vidPath: nil,
            isMarkedEnding: false, choices: [ChoiceRecord(position: 0, target: "x", label: Self.hostile, isAvailable: true)])
        let reader = Pages.Reader(profile: Self.hostile, canChangeProfile: true, formToken: "t")
        let view = ChapterView(record: chapter, paragraphs: [Self.hostile])
        let pages = [
            Pages.library([Pages.Shelf(story: story, place: Self.hostile, endingsFound: 0)], reader: reader, query: Self.hostile, found: []),
            Pages.library(
                [Pages.Shelf(story: story, place: Self.hostile, endingsFound: 0)], reader: reader, query: Self.hostile,
                found: [
                    Pages.Found(hit: SearchHit(story: story, chapterKey: Self.hostile, chapterTitle: Self.hostile, excerpt: [.init(text: Self.hostile, isMatch: true), .init(text: Self.hostile, isMatch: false)])),
                    Pages.Found(hit: SearchHit(story: story, chapterKey: Self.hostile, chapterTitle: Self.hostile, excerpt: []), isUnreachedEnding: true),
                ]),
            Pages.restart(story, place: chapter, steps: 3, reader: reader),
            Pages.profiles([Self.hostile], current: Self.hostile, option: Self.hostile, reader: reader),
            Pages.catalogue([], inLibrary: [:], fetchedBy: Self.hostile, reader: reader, notice: Self.hostile),
            Pages.story(story, place: chapter, endings: 0, firstName: Self.hostile, reader: reader, notice: Self.hostile),
            Pages.chapter(view, of: story, isPlace: false, place: chapter, endings: (0, 1), reader: reader, notice: Self.hostile),
            Pages.marks(story, bookmarks: [Bookmark(name: Self.hostile, chapterKey: Self.hostile, createdAt: 0)],
                notes: [Note(id: 1, chapterKey: Self.hostile, body: Self.hostile, createdAt: 0)], titles: [:], reader: reader, notice: nil),
            Pages.path(story, steps: [(Self.hostile, Self.hostile)], reader: reader),
            Pages.message(title: Self.hostile, [Self.hostile], links: [(Self.hostile, Self.hostile)], reader: reader),
        ]
        for page in pages {
            #expect(!page.contains("<script>alert"), "\(page)")
            #expect(!page.contains("</textarea> &"), "\(page)")
            #expect(!page.contains("\u{202E}") && !page.contains("\u{1B}"), "\(page)")
            #expect(!page.contains("javascript:"), "\(page)")
            #expect(page.contains("&lt;script&gt;alert(1)&lt;/script&gt;"), "\(page)")
            #expect(page.contains("<script src=\"/assets/serve.js\" defer></script>"), "the one script is the server's own")
        }
    }
}
#endif
