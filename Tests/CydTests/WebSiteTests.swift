import Foundation
import TestSupport
import Testing

/// `cyd build web` makes a site that a real browser reads: Debian's Chromium, driven by
/// Playwright, with axe-core checking every kind of page (Tests/Support/web_reader_check.py).
@Suite("The static site in a browser")
struct WebSiteTests {
    /// A story written to break pages: markup in every string, a javascript: picture, a chapter
    /// id that is a path, words too long for a phone's width.
    static let hostileStory = """
        {"story": {"id": "hostile", "name": "<script>alert('title')</script>", "rating": "\\"><img src=x onerror=alert(1)>",
          "summary": "</textarea><script>alert(\\"summary\\")</script> \\u202Ereversed\\u202C", "pic_path": "javascript:alert(1)",
          "chapters": [
            {"id": "start", "name": "<b onmouseover=alert(1)>Start</b>", "is_first_chapter": true, "pic_path": "javascript:alert(4)",
             "text": "Hello [[name]] <script>alert(2)</script>\\n\\nA long unbroken word \(String(repeating: "W", count: 600)) ends here.",
             "choices": [{"chapter_id": "../../etc/passwd", "text": "<i>Go</i> \\"on\\""}, {"chapter_id": "nowhere", "text": "Away"}]},
            {"id": "../../etc/passwd", "name": "Passwd", "text": "'single' quotes <img src=x onerror=alert(5)>", "is_ending": true}]}}
        """

    @Test("the bundled stories and a hostile one: played by keyboard with scripts on and off, axe-clean, phone-wide, offline after one visit, running nothing of the story's")
    func readInChromium() throws {
        let folder = try TemporaryFolder()
        let hostile = folder.path("hostile")
        try FileManager.default.createDirectory(atPath: hostile, withIntermediateDirectories: true)
        try Data(Self.hostileStory.utf8).write(to: URL(fileURLWithPath: hostile + "/story.json"))
        let stories = try FileManager.default.contentsOfDirectory(atPath: Command.packageRoot.path + "/Stories").sorted()
            .map { Command.packageRoot.path + "/Stories/" + $0 }
        let site = folder.path("site")
        let built = try Command.cyd(["build", "web", site] + stories + [hostile])
        #expect(built.status == 0, "\(built.standardError)")
        #expect(built.standardOutput.contains("of 4 stories to \(site)/"))
        #expect(built.standardError.contains("picture javascript:alert(1) left out"), "a picture that is not a file of the story is said to be left out")

        let check = try ChildProcess.run(
            ["python3", Command.packageRoot.path + "/Tests/Support/web_reader_check.py", site, "gull-rock", "hostile", "A red and white lighthouse throwing its beam over the night sea"], in: folder.url.path)
        #expect(check.status == 0, "\(check.standardOutput)\n\(check.standardError)")
        #expect(check.standardOutput.contains("all passed"))
    }

    @Test("a folder that cannot be made, or a story that cannot be read, is said in words")
    func failures() throws {
        let folder = try TemporaryFolder()
        try Data("not a folder".utf8).write(to: URL(fileURLWithPath: folder.path("file")))
        let intoFile = try Command.cyd(["build", "web", folder.path("file") + "/site", Command.packageRoot.path + "/Stories/seven-stairs"])
        #expect(intoFile.status != 0)
        #expect(intoFile.standardError.contains("cannot make the folder \(folder.path("file"))"), "\(intoFile.standardError)")
        try Data("{\"story\": ".utf8).write(to: URL(fileURLWithPath: folder.path("broken.json")))
        let broken = try Command.cyd(["build", "web", folder.path("site"), folder.path("broken.json")])
        #expect(broken.status != 0)
        #expect(broken.standardError.contains("cannot be read as a story; `cyd validate"), "\(broken.standardError)")
    }

    @Test("a story's translations are built beside it (every language it has, or those --lang names); a language it lacks or a file that cannot be read is said, and the rest is built")
    func translations() throws {
        let folder = try TemporaryFolder()
        let story = Command.packageRoot.path + "/Stories/seven-stairs"
        let all = try Command.cyd(["build", "web", folder.path("all"), story])
        #expect(all.status == 0, "\(all.standardError)")
        #expect(FileManager.default.fileExists(atPath: folder.path("all") + "/seven-stairs-fr/landing.html"), "the French pages are built by default")
        let french = try String(contentsOfFile: folder.path("all") + "/seven-stairs-fr/landing.html", encoding: .utf8)
        #expect(french.contains("<h1 lang=\"fr\">Le premier palier</h1>") && french.contains("<html lang=\"fr\">"), "\(french)")
        #expect(french.contains("data-story=\"seven-stairs\""), "the place is kept under the story as written")
        #expect(french.contains("<a href=\"../seven-stairs/landing.html\">Telle qu&#39;écrite</a>"), "cyd's words on a translation's pages are in its language")
        let library = try String(contentsOfFile: folder.path("all") + "/index.html", encoding: .utf8)
        #expect(library.components(separatedBy: "<li data-story=").count == 2, "the library lists the story once, its translation linked from it")

        let none = try Command.cyd(["build", "web", folder.path("none"), story, "--lang", "original"])
        #expect(none.status == 0 && !FileManager.default.fileExists(atPath: folder.path("none") + "/seven-stairs-fr"), "\(none.standardError)")
        let german = try Command.cyd(["build", "web", folder.path("de"), story, "--lang", "de", "--lang", "fr-CA"])
        #expect(german.status == 0, "\(german.standardError)")
        #expect(german.standardError.contains("has no translation into 'de'"), "\(german.standardError)")
        #expect(FileManager.default.fileExists(atPath: folder.path("de") + "/seven-stairs-fr/landing.html"), "fr-CA is read as fr")

        let copy = folder.path("copy")
        try FileManager.default.copyItem(atPath: story, toPath: copy)
        try Data("msgid \"\"\nmsgstr \"\"\n\nmsgid \"x\u{1B}[2J\" bad\n".utf8).write(to: URL(fileURLWithPath: copy + "/translations/fr.po"))
        let broken = try Command.cyd(["build", "web", folder.path("broken"), copy])
        #expect(broken.status == 0, "\(broken.standardError)")
        #expect(broken.standardError.contains("fr.po' line 4") && broken.standardError.contains("built without that language"), "\(broken.standardError)")
        #expect(!broken.standardError.contains("\u{1B}"), "the file's bytes are made safe")
        #expect(!FileManager.default.fileExists(atPath: folder.path("broken") + "/seven-stairs-fr"))
    }
}
