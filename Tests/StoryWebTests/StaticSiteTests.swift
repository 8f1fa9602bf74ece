import Foundation
import StoryFormat
import StoryWeb
import TestSupport
import Testing

/// The static site: every story string is escaped in one place, names in the site are safe and
/// unique, and every link leads to a page the site has.
@Suite("The static site of stories")
struct StaticSiteTests {
    /// A story written to break a page: markup, a closing textarea, quotes that would end an
    /// attribute, a bidi override, a terminal escape, a javascript: picture, ids that are paths.
    static let hostile = Story(
        id: "../<script>", name: "<script>alert('title')</script>", rating: "\"><img src=x onerror=alert(1)>",
        summary: "</textarea><script>alert(\"summary\")</script> \u{202E}reversed\u{202C}",
        picPath: "javascript:alert(1)",
        chapters: [
            Chapter(
                id: "index", name: "<b onmouseover=alert(1)>Start</b>", text: "Hello [[name]] <script>alert(2)</script>\n\nA \u{1B}[31mred\u{1B}[0m line & more.",
                isFirstChapter: true, picPath: "https://example.invalid/\"onerror=\"alert(3)",
                choices: [Choice(chapterID: "../../etc/passwd", text: "<i>Go</i> \"on\""), Choice(chapterID: "nowhere", text: "Away")]),
            Chapter(id: "../../etc/passwd", name: "Passwd", text: "'single' quotes", isEnding: true, choices: []),
        ])

    static func site(_ story: Story = hostile, pictures: [String: SitePicture] = [:]) -> [(path: String, text: String)] {
        StaticSite.files(StaticSite.plan([(story, pictures)])).map { ($0.path, String(decoding: $0.bytes, as: UTF8.self)) }
    }

    @Test("no story string is markup on any page: scripts, tags, quotes and </textarea> are shown as text")
    func escapedEverywhere() {
        let pages = Self.site(pictures: ["https://example.invalid/\"onerror=\"alert(3)": .link("https://example.invalid/\"onerror=\"alert(3)")])
            .filter { $0.path.hasSuffix(".html") }
        #expect(pages.count == 5, "the library, the offline page, the story, and two chapters: \(pages.map(\.path))")
        for page in pages {
            // The only script element is the site's own, from its own file.
            let scripts = page.text.components(separatedBy: "<script").count - 1
            #expect(scripts == 1, "\(page.path) has \(scripts) script elements")
            #expect(page.text.contains(#"<script src=""#))
            for raw in ["<script>alert", "</textarea>", "<b onmouseover", "<img src=x", "<i>Go</i>", "\"onerror=\""] {
                #expect(!page.text.contains(raw), "\(page.path) carries \(raw) unescaped")
            }
            #expect(!page.text.contains("\u{202E}") && !page.text.contains("\u{1B}"), "\(page.path) passes a control character on")
            #expect(!page.text.contains("javascript:"), "\(page.path) links to javascript:")
        }
        let story = pages.first { $0.path.hasSuffix("/index.html") }!.text
        #expect(story.contains("&lt;/textarea&gt;&lt;script&gt;alert(&quot;summary&quot;)&lt;/script&gt;"))
        #expect(story.contains(#"\u{202E}reversed"#), "a bidi override is shown, not obeyed")
        let start = pages.first { $0.text.contains("<h1>&lt;b onmouseover") }!.text
        #expect(start.contains("Hello <span class=\"reader-name\">Reader</span> &lt;script&gt;alert(2)&lt;/script&gt;"))
        #expect(start.contains("^[[31mred"), "a terminal escape is shown in caret notation")
        #expect(start.contains(#"src="https://example.invalid/&quot;onerror=&quot;alert(3)""#))
        #expect(start.contains("<span>Away</span> (this way is not written yet)"), "a choice to a missing chapter is shown, not linked")
    }

    @Test("names in the site are plain, unique without case, and never a path: ids that are paths or reserved names are hashed")
    func safeNames() {
        let story = Story(
            id: "tide", name: "Tide", rating: "G", summary: "s",
            chapters: [
                Chapter(id: "start", name: "A", text: "a", isFirstChapter: true, choices: [Choice(chapterID: "Start", text: "b")]),
                Chapter(id: "Start", name: "B", text: "b", choices: [Choice(chapterID: "../x", text: "c")]),
                Chapter(id: "../x", name: "C", text: "c", choices: [Choice(chapterID: "café", text: "d")]),
                Chapter(id: "café", name: "D", text: "d", choices: [Choice(chapterID: "offline", text: "e")]),
                Chapter(id: "offline", name: "E", text: "e", isEnding: true, choices: []),
                Chapter(id: "start", name: "A again", text: "duplicate: the first wins", choices: []),
            ])
        let other = Story(id: "Tide", name: "Tide again", rating: "G", summary: "s", chapters: [Chapter(id: "a", name: "A", text: "a", isFirstChapter: true, choices: [])])
        let plan = StaticSite.plan([(story, [:]), (other, [:])])
        #expect(plan.map(\.folder) == ["tide", "Tide-2"])
        let pages = plan[0].pages
        #expect(pages["start"] == "start.html")
        #expect(pages["Start"] == "Start-2.html")
        #expect(pages["../x"]!.hasPrefix("x-") && pages["café"]!.hasPrefix("x-"))
        #expect(pages["offline"]!.hasPrefix("offline-"), "offline.json is the site's own")
        #expect(Set(pages.values.map { $0.lowercased() }).count == pages.count)
        for name in pages.values { #expect(name.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "-_.".contains($0)) }) }
        let files = StaticSite.files(plan).map(\.path)
        #expect(files.filter { $0.hasPrefix("tide/") && $0.hasSuffix(".html") }.count == 6, "five chapters (one id twice) and the story page")
    }

    @Test("every link on every page leads to a file of the site")
    func linksResolve() throws {
        let png = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + [UInt8](repeating: 7, count: 40)
        let story = TestStory.graph([("a", ["b", "c"]), ("b", ["d"]), ("c", ["d"]), ("d", [])], picture: "resources/p.png")
        let model = try #require(LoadedFile.load(story.bytes, options: .init(lenient: true)).story?.model())
        let files = StaticSite.files(StaticSite.plan([(model, ["resources/p.png": .bytes(png)])]))
        let paths = Set(files.map(\.path))
        #expect(paths.contains { $0.hasPrefix("s1/pictures/") && $0.hasSuffix(".png") }, "the picture is copied under its content's hash")
        for file in files where file.path.hasSuffix(".html") {
            let text = String(decoding: file.bytes, as: UTF8.self)
            let folder = file.path.split(separator: "/").dropLast().joined(separator: "/")
            for link in Self.references(in: text) where !link.hasPrefix("#") && !link.hasPrefix("https:") {
                var parts = folder.isEmpty ? [] : folder.split(separator: "/").map(String.init)
                for piece in link.split(separator: "/") {
                    if piece == ".." { parts.removeLast() } else { parts.append(String(piece)) }
                }
                #expect(paths.contains(parts.joined(separator: "/")), "\(file.path) links to \(link), which the site does not have")
            }
        }
        let offline = try #require(files.first { $0.path == "s1/offline.json" })
        let listed = try #require(JSONValue.parse(offline.bytes)?["files"]?.array).compactMap(\.string)
        #expect(listed.count == 6, "the story page, four chapters and the picture: \(listed)")
        for name in listed { #expect(paths.contains("s1/" + name)) }
    }

    @Test("a rebuild removes the pages its last build made and this one does not, and nothing else: not the host's files, not a path the manifest names outside the site")
    func rebuildRemovesStalePages() throws {
        let folder = try TemporaryFolder()
        let site = folder.path("site")
        func build(_ graph: [(String, [String])]) throws -> [String] {
            let model = try #require(LoadedFile.load(TestStory.graph(graph).bytes, options: .init(lenient: true)).story?.model())
            return try StaticSite.write(StaticSite.plan([(model, [:])]), to: site)
        }
        #expect(try build([("a", ["b", "c"]), ("b", []), ("c", [])]).isEmpty)
        #expect(FileManager.default.fileExists(atPath: site + "/s1/c.html"))
        try Data("stories.example.org".utf8).write(to: URL(fileURLWithPath: site + "/CNAME"))
        try Data("keep".utf8).write(to: URL(fileURLWithPath: folder.path("outside.txt")))
        // A manifest edited to name files outside the site is not followed there.
        let manifest = site + "/" + StaticSite.manifestName
        let listed = try String(contentsOfFile: manifest, encoding: .utf8)
        try listed.replacingOccurrences(of: "\"files\":[", with: "\"files\":[\"../outside.txt\",\"/etc/hostname\",")
            .write(toFile: manifest, atomically: true, encoding: .utf8)
        let removed = try build([("a", ["b"]), ("b", [])])
        #expect(removed == ["s1/c.html"], "\(removed)")
        #expect(!FileManager.default.fileExists(atPath: site + "/s1/c.html"))
        #expect(FileManager.default.fileExists(atPath: site + "/s1/b.html"))
        #expect(FileManager.default.fileExists(atPath: site + "/CNAME"), "a file the build did not make is the host's")
        #expect(FileManager.default.fileExists(atPath: folder.path("outside.txt")))
    }

    @Test("a picture's alt text is its pic_alt, else its chapter's title")
    func altText() {
        let story = Story(
            id: "s", name: "S", rating: "G", summary: "s",
            chapters: [
                Chapter(id: "a", name: "Harbour", text: "a", isFirstChapter: true, picPath: "p.png", picAlt: "Boats in a \"grey\" harbour", choices: [Choice(chapterID: "b", text: "On")]),
                Chapter(id: "b", name: "Cliff", text: "b", picPath: "p.png", choices: []),
            ])
        let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 0]
        let pages = Self.site(story, pictures: ["p.png": .bytes(png)])
        let harbour = pages.first { $0.path == "s/a.html" }!.text
        let cliff = pages.first { $0.path == "s/b.html" }!.text
        #expect(harbour.contains(#"alt="Boats in a &quot;grey&quot; harbour""#))
        #expect(cliff.contains(#"alt="Cliff""#))
    }

    static func references(in html: String) -> [String] {
        var found: [String] = []
        for attribute in ["href=\"", "src=\""] {
            var rest = Substring(html)
            while let start = rest.range(of: attribute) {
                rest = rest[start.upperBound...]
                guard let end = rest.firstIndex(of: "\"") else { break }
                found.append(String(rest[..<end]))
                rest = rest[end...]
            }
        }
        return found
    }
}

