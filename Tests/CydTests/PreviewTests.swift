import Foundation
import TestSupport
import Testing

#if BrowserReader
/// `cyd preview`: the author's live preview, in Chromium (Tests/Support/preview_check.py) and over
/// raw HTTP.
@Suite("cyd preview")
struct PreviewTests {
    let folder = try! TemporaryFolder()

    /// A running preview of `story` (a folder) and the address it printed.
    final class Preview {
        let child: ChildProcess
        let base: String

        init(_ arguments: [String]) throws {
            child = try ChildProcess([Command.cyd.path, "preview"] + arguments, takesInput: false)
            var printed: [String] = []
            var found: String?
            for _ in 0..<10 {
                guard let line = child.readLine() else { break }
                printed.append(line)
                if let range = line.range(of: "http://127.0.0.1:") {
                    found = String(line[range.lowerBound...]).trimmingCharacters(in: .whitespaces)
                    break
                }
            }
            guard let found else { throw TestSupportError("cyd preview printed no address: \(printed) \(child.finish().standardError)") }
            base = found
        }

        func stop() {
            child.signal(SIGINT)
            _ = child.finish()
        }
    }

    func story(_ name: String = "seven-stairs") throws -> String {
        let copy = folder.path(name)
        try FileManager.default.copyItem(atPath: Command.packageRoot.path + "/Stories/" + name, toPath: copy)
        return copy
    }

    @Test("in Chromium: a save moves the page without a reload and keeps the chapter; a finding appears and goes; a broken save is said; a rename is followed; the map; the editor's “Preview this chapter”; keyboard and axe")
    func inChromium() throws {
        let story = try story()
        let preview = try Preview([story])
        defer { preview.stop() }
        let check = try ChildProcess.run(["python3", Command.packageRoot.path + "/Tests/Support/preview_check.py", preview.base, story, Command.cyd.path], in: folder.url.path)
        #expect(check.status == 0, "\(check.standardOutput)\n\(check.standardError)")
        #expect(check.standardOutput.contains("all passed"))
    }

    @Test("polling where inotify is not asked: a save is seen; only this machine's own address is answered; a picture path outside the folder is refused; story text is only text")
    func edges() throws {
        let story = try story()
        var hostile = try String(contentsOfFile: story + "/story.json", encoding: .utf8)
        hostile = hostile.replacingOccurrences(of: "\"The First Landing\"", with: "\"<script>alert(1)</script>\"")
        try Data(hostile.utf8).write(to: URL(fileURLWithPath: story + "/story.json"))
        let preview = try Preview([story, "--poll", "--chapter", "second"])
        defer { preview.stop() }
        func get(_ path: String, host: String? = nil) throws -> (status: Int, body: String) {
            var arguments = ["curl", "-s", "-o", "-", "-w", "\n%{http_code}", "--max-time", "30"]
            if let host { arguments += ["-H", "Host: \(host)"] }
            let run = try ChildProcess.run(arguments + [preview.base + path])
            let lines = run.standardOutput.split(separator: "\n", omittingEmptySubsequences: false)
            return (Int(lines.last ?? "") ?? 0, lines.dropLast().joined(separator: "\n"))
        }
        #expect(try get("").body.isEmpty && (try get("")).status == 303)
        let landing = try get("chapter/landing")
        #expect(landing.body.contains("&lt;script&gt;alert(1)&lt;/script&gt;") && !landing.body.contains("<script>alert"), "\(landing.body.prefix(500))")
        let version = try #require(landing.body.firstMatch(of: /data-version="([0-9]+)"/).map { Int($0.1)! })
        #expect(try get("chapter/landing", host: "evil.example:80").status == 421, "a rebound name is refused")
        #expect(try get("picture?path=../../../etc/passwd").status == 404)
        #expect(try get("picture?path=resources/cat.png").status == 200)

        let started = Date()
        try Data(hostile.replacingOccurrences(of: "alert(1)", with: "alert(2)").utf8).write(to: URL(fileURLWithPath: story + "/story.json"))
        var seen = version
        var shown = false
        while !shown, Date().timeIntervalSince(started) < 5 {
            let change = try get("changes?since=\(seen)&asked=0")
            seen = change.body.firstMatch(of: /"version":([0-9]+)/).map { Int($0.1)! } ?? seen
            shown = try get("chapter/landing").body.contains("alert(2)")
        }
        #expect(shown, "polling sees a save within its interval")

        // A chapter renamed to an id a browser would rewrite: the address the page is sent to
        // is made as the pages make theirs.
        let now = try get("chapter/landing").body.firstMatch(of: /data-version="([0-9]+)"/).map { Int($0.1)! } ?? seen
        let renamed = hostile.replacingOccurrences(of: "alert(1)", with: "alert(2)").replacingOccurrences(of: "\"second\"", with: "\"-\"")
        try Data(renamed.utf8).write(to: URL(fileURLWithPath: story + "/story.json"))
        var followed = false
        var answer = ""
        while !followed, Date().timeIntervalSince(started) < 15 {
            answer = try get("changes?since=\(now)&asked=0").body
            followed = answer.contains(#""second":"\/chapter\/~-""#) || answer.contains(#""second":"/chapter/~-""#)
        }
        #expect(followed, "\(answer)")
        #expect(try get("chapter/~-").status == 200)
    }

    @Test("--lang previews a translation, its text marked lang; a language the folder lacks is said on the page, the story shown as written")
    func languages() throws {
        let story = try story()
        for (language, expected) in [("fr", "lang=\"fr\">Le premier palier</h1>"), ("de", "no translation into <span lang=\"de\">de</span>")] {
            let preview = try Preview([story, "--lang", language])
            defer { preview.stop() }
            let page = try ChildProcess.run(["curl", "-s", "--max-time", "20", preview.base + "chapter/landing"]).standardOutput
            #expect(page.contains(expected), "\(language): \(page.prefix(800))")
        }
    }

    @Test("a translations folder made after the preview started is watched: the translation shows when its file is written, and again after the folder is deleted or moved away and made anew")
    func foldersMadeLater() throws {
        for watching in [[], ["--poll"]] {
            try foldersMadeLater(watching)
        }
    }

    func foldersMadeLater(_ watching: [String]) throws {
        let story = folder.path("stairs-\(watching.count)")
        try FileManager.default.copyItem(atPath: Command.packageRoot.path + "/Stories/seven-stairs", toPath: story)
        let held = folder.path("held-\(watching.count)")
        try FileManager.default.moveItem(atPath: story + "/translations", toPath: held)
        let preview = try Preview([story, "--lang", "fr"] + watching)
        defer { preview.stop() }
        func page() throws -> String { try ChildProcess.run(["curl", "-s", "--max-time", "20", preview.base + "chapter/landing"]).standardOutput }
        func waitFor(_ text: String, _ what: String) throws {
            let started = Date()
            var shown = false
            var last = ""
            while !shown, Date().timeIntervalSince(started) < 10 {
                last = try page()
                shown = last.contains(text)
                if !shown { Thread.sleep(forTimeInterval: 0.1) }
            }
            #expect(shown, "\(watching) \(what): \(last.prefix(600))")
        }
        try waitFor("no translation into", "the folder lacks French at the start")
        for round in 1...3 {
            // An author's way: make the folder, then write the files into it.
            try FileManager.default.createDirectory(atPath: story + "/translations", withIntermediateDirectories: false)
            for name in ["LINGUAS", "fr.po"] {
                try Data(contentsOf: URL(fileURLWithPath: held + "/" + name)).write(to: URL(fileURLWithPath: story + "/translations/" + name))
            }
            try waitFor("lang=\"fr\">Le premier palier</h1>", "round \(round): the translation written into a new folder is read")
            // Deleted the first time, moved away the second (a watch would follow the moved folder).
            if round == 1 {
                try FileManager.default.removeItem(atPath: story + "/translations")
            } else {
                try FileManager.default.moveItem(atPath: story + "/translations", toPath: folder.path("moved-away-\(round)\(watching.count)"))
            }
            try waitFor("no translation into", "round \(round): the folder deleted or moved away")
        }
    }

    @Test("Ctrl-C stops the preview at once, even while a page waits for the next reading")
    func stopsAtOnce() throws {
        let story = try story()
        let preview = try Preview([story])
        let waiting = try ChildProcess(["curl", "-s", "--max-time", "60", preview.base + "changes?since=999999&asked=999999"], takesInput: false)
        Thread.sleep(forTimeInterval: 0.5)
        let began = Date()
        preview.stop()
        #expect(Date().timeIntervalSince(began) < 5, "it waited \(Date().timeIntervalSince(began)) s")
        _ = waiting.finish()
    }

    @Test("a folder without story.json is said; --lang takes a language tag")
    func refusals() throws {
        let empty = folder.path("empty")
        try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: true)
        let none = try Command.cyd(["preview", empty])
        #expect(none.status == 2 && none.standardError.contains("holds no story.json to preview"), "\(none.standardError)")
        let tag = try Command.cyd(["preview", empty, "--lang", "not a tag"])
        #expect(tag.status == 2 && tag.standardError.contains("--lang takes a language tag"), "\(tag.standardError)")
    }
}
#endif
