import Foundation
import TestSupport
import Testing

/// `cyd export epub`, checked by tools no one here wrote: EPUBCheck for the book, Chromium for
/// reading it (Tests/Support/epub_check.py).
@Suite("cyd export epub")
struct ExportEPUBTests {
    func check(_ book: String, browser: Bool = true) throws -> CommandResult {
        try ChildProcess.run(["python3", Command.packageRoot.path + "/Tests/Support/epub_check.py", book] + (browser ? [] : ["--no-browser"]))
    }

    @Test("each bundled story: EPUBCheck reports nothing, every 'turn to' leads to its section, Chromium reads from section 1 to an ending with its pictures")
    func bundled() throws {
        let folder = try TemporaryFolder()
        for story in ["seven-stairs", "the-keeper-of-gull-rock", "the-night-market"] {
            let book = folder.path(story + ".epub")
            let made = try Command.cyd(["export", "epub", Command.packageRoot.path + "/Stories/" + story, "-o", book, "--reader-name", "Ana"])
            #expect(made.status == 0, "\(made.standardError)")
            let checked = try check(book)
            #expect(checked.status == 0 && checked.standardOutput.contains("all passed"), "\(story):\n\(checked.standardOutput)\(checked.standardError)")
        }
        // The same seed gives the same book (SOURCE_DATE_EPOCH fixes its date).
        let story = Command.packageRoot.path + "/Stories/seven-stairs"
        let environment = ["SOURCE_DATE_EPOCH": "1700000000"]
        _ = try Command.cyd(["export", "epub", story, "-o", folder.path("a.epub")], environment: environment)
        _ = try Command.cyd(["export", "epub", story, "-o", folder.path("b.epub")], environment: environment)
        _ = try Command.cyd(["export", "epub", story, "-o", folder.path("c.epub"), "--seed", "2"], environment: environment)
        let a = try Data(contentsOf: URL(fileURLWithPath: folder.path("a.epub")))
        #expect(a == (try Data(contentsOf: URL(fileURLWithPath: folder.path("b.epub")))))
        #expect(a != (try Data(contentsOf: URL(fileURLWithPath: folder.path("c.epub")))), "another seed, another order")
    }

    @Test("a generated story of 5,000 chapters: EPUBCheck reports nothing and every link resolves")
    func large() throws {
        let folder = try TemporaryFolder()
        let generated = try ChildProcess.run(["python3", Command.packageRoot.path + "/scripts/generate-story.py", "5000", folder.path("story.json")])
        #expect(generated.status == 0, "\(generated.standardError)")
        let made = try Command.cyd(["export", "epub", folder.path("story.json"), "-o", folder.path("big.epub")])
        #expect(made.status == 0 && made.standardOutput.contains("5000 sections"), "\(made.standardOutput)\(made.standardError)")
        let checked = try check(folder.path("big.epub"), browser: false)
        #expect(checked.status == 0 && checked.standardOutput.contains("all passed"), "\(checked.standardOutput)\(checked.standardError)")
    }

    @Test("any story cyd validates makes a book EPUBCheck passes: one imported from Twee (no summary) and a hostile one (blank title and summary, markup, controls, bidi overrides, noncharacters, odd ids, a picture outside the folder)")
    func importedMinimalHostile() throws {
        let folder = try TemporaryFolder()
        let twee = try folder.write("lamp.twee", Array("""
            :: StoryTitle
            Lamp

            :: StoryData
            {"ifid":"D674C58C-DEFA-4F70-B7A2-27742230C0FC","format":"Harlowe","format-version":"3.3.8","start":"Start"}

            :: Start
            A lamp. [[Light it->End]]

            :: End
            Light.

            """.utf8)).path
        let imported = try Command.cyd(["import", "twee", twee, "-o", folder.path("lamp")])
        #expect(imported.status == 0, "\(imported.standardError)")
        let hostile = #"""
            {"story":{"id":"h","name":"   ","rating":"","summary":" \n\t ","pic_path":"../../../etc/passwd","chapters":[
            {"id":"a b/../c","name":"<script>alert(1)</script> & ]]>","is_first_chapter":true,
             "text":"Bell \u0007, escape \u001b[2J, bidi \u202eevil\u202c, nonchars \ufffe\uffff, a lone \ud800 half, emoji 🦉, ]]> and <b>&amp;</b>.\n\nA second paragraph.",
             "pic_path":"resources/missing.png","pic_alt":"\u0000\"quoted\"",
             "choices":[{"chapter_id":"é","text":"<a href=x>go</a> \u2066on\u2069"}]},
            {"id":"é","name":"\u00a0","text":"[[name]] ends here."}]}}
            """#
        var books: [String] = []
        for (name, json) in [("hostile", hostile)] {
            try FileManager.default.createDirectory(atPath: folder.path(name), withIntermediateDirectories: true)
            _ = try folder.write(name + "/story.json", Array(json.utf8))
        }
        for story in ["lamp", "hostile"] {
            let book = folder.path(story + ".epub")
            let made = try Command.cyd(["export", "epub", folder.path(story), "-o", book])
            #expect(made.status == 0, "\(story): \(made.standardError)")
            books.append(book)
        }
        for book in books {
            let checked = try check(book, browser: false)
            #expect(checked.status == 0 && checked.standardOutput.contains("all passed"), "\(book):\n\(checked.standardOutput)\(checked.standardError)")
        }
    }
}
