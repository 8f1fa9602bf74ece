import Foundation
import TestSupport
import Testing

#if BrowserReader
/// `cyd serve`: the browser reader served from the library, checked in Chromium (Playwright and
/// axe-core) and over raw HTTP by Tests/Support/serve_check.py, with the library shared with
/// `cyd read`.
@Suite("cyd serve")
struct ServeTests {
    /// A running `cyd serve` and the address it printed.
    final class Server {
        let child: ChildProcess
        let base: String
        var printed: [String] = []

        init(_ arguments: [String]) throws {
            child = try ChildProcess([Command.cyd.path, "serve", "--listen", "127.0.0.1:0"] + arguments, takesInput: false)
            var base: String?
            for _ in 0..<20 {
                guard let line = child.readLine() else { break }
                printed.append(line)
                if let range = line.range(of: "http://127.0.0.1:") {
                    base = String(line[range.lowerBound...]).trimmingCharacters(in: .whitespaces)
                    break
                }
            }
            guard let base else {
                let rest = child.finish()
                throw TestSupportError("cyd serve printed no address: \(printed) \(rest.standardError)")
            }
            self.base = base
        }

        /// The address without the key (`?token=...`).
        var root: String { base.components(separatedBy: "?")[0] }

        func stop() -> CommandResult {
            child.signal(SIGINT)
            return child.finish()
        }
    }

    /// A library with the bundled stories and the hostile story of the static site's test.
    static func library(_ folder: TemporaryFolder) throws -> (library: String, hostile: String) {
        let library = folder.path("library")
        let hostile = folder.path("hostile")
        try FileManager.default.createDirectory(atPath: hostile, withIntermediateDirectories: true)
        try Data(WebSiteTests.hostileStory.utf8).write(to: URL(fileURLWithPath: hostile + "/story.json"))
        for story in ["seven-stairs", "the-keeper-of-gull-rock", "the-night-market"] {
            let added = try Command.cyd(["add", "--library", library, Command.packageRoot.path + "/Stories/" + story])
            #expect(added.status == 0, "\(added.standardError)")
        }
        let added = try Command.cyd(["add", "--library", library, hostile])
        #expect(added.status == 0, "\(added.standardError)")
        return (library, hostile)
    }

    @Test("in Chromium: keyboard playthroughs with scripts on and off, axe-clean pages, a phone's width, pictures with alt text, a hostile story that runs nothing, and the place shared with cyd read both ways")
    func browser() throws {
        let folder = try TemporaryFolder()
        let (library, _) = try Self.library(folder)
        let server = try Server(["--library", library])
        defer { _ = server.stop() }
        let check = try ChildProcess.run(
            [
                "python3", Command.packageRoot.path + "/Tests/Support/serve_check.py", "browser", server.root, "2", "4",
                "A red and white lighthouse throwing its beam over the night sea", Command.cyd.path, library,
            ], in: folder.url.path)
        #expect(check.status == 0, "\(check.standardOutput)\n\(check.standardError)")
        #expect(check.standardOutput.contains("all passed"))
    }

    @Test("with a key: refused without it, kept in an HttpOnly SameSite=Lax cookie; POSTs need the anti-forgery token; the Host is checked; headers, bodies and slow clients are bounded; 400 POSTs at once all land")
    func guarded() throws {
        let folder = try TemporaryFolder()
        let (library, _) = try Self.library(folder)
        let server = try Server(["--library", library, "--key", "--request-timeout", "2", "--no-qr"])
        defer { _ = server.stop() }
        let token = try #require(server.base.components(separatedBy: "token=").last)
        #expect(server.printed.contains { $0.contains("with a key") }, "\(server.printed)")
        let kept = try String(contentsOfFile: library + "/serve-token", encoding: .utf8)
        #expect(kept.trimmingCharacters(in: .whitespacesAndNewlines) == token, "the key is the one kept in the library folder")
        let mode = try FileManager.default.attributesOfItem(atPath: library + "/serve-token")[.posixPermissions] as? Int
        #expect(mode == 0o600, "only its owner can read the key file")
        let check = try ChildProcess.run(
            ["python3", Command.packageRoot.path + "/Tests/Support/serve_check.py", "guard", server.root, token, "2", "2"], in: folder.url.path)
        #expect(check.status == 0, "\(check.standardOutput)\n\(check.standardError)")
        #expect(check.standardOutput.contains("all passed"))
        // The terminal reader and the server wrote the same library all along: it is whole.
        let read = try Command.cyd(["read", "--json", "--library", library, "2"], input: "q\n")
        #expect(read.status == 0, "\(read.standardError)")
    }

    @Test("in Chromium: the keyed link opened from another site (a web chat) lets the reader in, and a reload, the link again or the bare address keep them in; a form posted from that site still changes nothing")
    func keyedLinkFromAnotherSite() throws {
        let folder = try TemporaryFolder()
        let (library, _) = try Self.library(folder)
        let server = try Server(["--library", library, "--key", "--no-qr"])
        defer { _ = server.stop() }
        #expect(server.base.contains("?token="), "\(server.base)")
        let check = try ChildProcess.run(["python3", Command.packageRoot.path + "/Tests/Support/serve_check.py", "crosssite", server.base], in: folder.url.path)
        #expect(check.status == 0, "\(check.standardOutput)\n\(check.standardError)")
        #expect(check.standardOutput.contains("all passed"))
    }

    @Test("in Chromium, a phone reader's day: search says “no results” and hides unreached endings, bookmarks and notes leave the history alone, the browser's Back is marked as not the place with “Go on from here”, a place moved in the terminal is said, Start again asks first, pictures open full size")
    func phoneReadersDay() throws {
        let folder = try TemporaryFolder()
        let (library, _) = try Self.library(folder)
        let server = try Server(["--library", library])
        defer { _ = server.stop() }
        let check = try ChildProcess.run(
            [
                "python3", Command.packageRoot.path + "/Tests/Support/serve_day.py", "day", server.root, "2",
                Command.packageRoot.path + "/Stories/the-keeper-of-gull-rock/story.json", Command.cyd.path, library,
            ], in: folder.url.path)
        #expect(check.status == 0, "\(check.standardOutput)\n\(check.standardError)")
        #expect(check.standardOutput.contains("all passed"))
    }

    @Test("with a key, a browser without it gets a styled page with no link that would be refused too; the printed link says anyone with it can read as any profile")
    func lockedOut() throws {
        let folder = try TemporaryFolder()
        let (library, _) = try Self.library(folder)
        let server = try Server(["--library", library, "--key", "--no-qr"])
        defer { _ = server.stop() }
        let check = try ChildProcess.run(["python3", Command.packageRoot.path + "/Tests/Support/serve_day.py", "locked", server.root], in: folder.url.path)
        #expect(check.status == 0, "\(check.standardOutput)\n\(check.standardError)")
        #expect(check.standardOutput.contains("all passed"))
        let said = server.stop().standardOutput + server.printed.joined(separator: "\n")
        #expect(said.contains("Anyone with the link can read as any profile"), "\(said)")
    }

    @Test("a story removed while a browser shows it: the next page and the next choice say so in words")
    func removedWhileShown() throws {
        let folder = try TemporaryFolder()
        let (library, _) = try Self.library(folder)
        let server = try Server(["--library", library])
        defer { _ = server.stop() }
        let story = try fetch(server.root + "stories/1")
        let token = try #require(story.body.firstMatch(of: /name="token" value="([0-9a-f]+)"/)?.1)
        let begun = try fetch(server.root + "stories/1/-/restart", post: "token=\(token)")
        #expect(begun.status == 200 && begun.body.contains("<ol class=\"choices\">"), "\(begun.status)")
        let removed = try Command.cyd(["remove", "--yes", "--library", library, "1"])
        #expect(removed.status == 0, "\(removed.standardError)")
        let choice = try fetch(server.root + "stories/1/-/choose", post: "token=\(token)&from=start&choice=1")
        #expect(choice.status == 404 && choice.body.contains("not in the library: it may have been removed"), "\(choice.status) \(choice.body)")
        let page = try fetch(server.root + "stories/1")
        #expect(page.status == 404 && page.body.contains("Story not found"))
    }

    @Test("the catalogue page lists what cyd sync found; Get downloads the story (git daemon on 127.0.0.1) and opens its page")
    func catalogue() throws {
        let folder = try TemporaryFolder()
        let library = folder.path("library")
        let git = try TestGitServer()
        try git.publish("tide", files: ["story.json": TestStory.twoChapters(title: "Tide").bytes, "README.md": Array("# Tide\n\n#ChooseYourDestiny\n".utf8)])
        let authors = try folder.write("authors.json", "{ \"authors\": [ { \"name\": \"ana\", \"repos\": [\"\(git.gitURL("tide"))\"] } ] }\n").path
        let sync = try Command.cyd(["sync", "--library", library, "--catalogue", authors], environment: ["GITHUB_API_URL": "http://127.0.0.1:9"])
        #expect(sync.status == 0, "\(sync.standardOutput)\(sync.standardError)")
        let server = try Server(["--library", library])
        defer { _ = server.stop() }
        let page = try fetch(server.root + "catalogue")
        #expect(page.status == 200 && page.body.contains("<h2>Tide</h2>") && page.body.contains("Get this story"), "\(page.body)")
        let token = try #require(page.body.firstMatch(of: /name="token" value="([0-9a-f]+)"/)?.1)
        let url = try #require(page.body.firstMatch(of: /name="url" value="([^"]+)"/)?.1)
        let got = try fetch(server.root + "catalogue/get", post: "token=\(token)&url=\(url.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")")
        #expect(got.status == 200 && got.body.contains("<h1>Tide</h1>") && got.body.contains("Begin"), "\(got.status) \(got.body)")
        let again = try fetch(server.root + "catalogue")
        #expect(again.body.contains("In your library: read it"))
    }

    @Test("--qr draws the link as a QR code, black on white, with the link printed above it")
    func qrCode() throws {
        let folder = try TemporaryFolder()
        let (library, _) = try Self.library(folder)
        let server = try Server(["--library", library, "--key", "--qr"])
        var lines: [String] = []
        for _ in 0..<40 {
            guard let line = server.child.readLine() else { break }
            lines.append(line)
            if line.contains("Ctrl-C stops") { break }
        }
        _ = server.stop()
        let code = lines.filter { $0.contains("▀") }
        // A link of about 100 characters is a version 5 or 6 code: 37 or 41 modules and 8 of
        // quiet zone, two rows a line.
        #expect(code.count >= 22 && code.count <= 25, "\(lines)")
        #expect(code.allSatisfy { $0.hasSuffix("\u{1B}[0m") }, "each line gives the terminal its colours back")
        #expect(!code[0].contains("\u{1B}[30;") && !code[0].contains(";40m"), "the first line is quiet zone, light above and below")
        #expect(code.dropFirst(2).dropLast(2).allSatisfy { $0.contains("\u{1B}[30;") || $0.contains(";40m") }, "every line of the code has dark modules")
    }

    @Test("--new-key revokes the key: the old link and a browser's old cookie are refused, the new link lets in; the key lasts across restarts otherwise")
    func newKey() throws {
        let folder = try TemporaryFolder()
        let (library, _) = try Self.library(folder)
        func keyed(_ arguments: [String]) throws -> (link: String, printed: [String]) {
            let server = try Server(["--library", library, "--key"] + arguments)
            defer { _ = server.stop() }
            return (server.base, server.printed)
        }
        let first = try keyed([])
        #expect(try keyed([]).link.components(separatedBy: "token=").last == first.link.components(separatedBy: "token=").last, "the key lasts across restarts")
        let server = try Server(["--library", library, "--key", "--new-key"])
        defer { _ = server.stop() }
        #expect(server.printed.first == "A new key: links and browsers given the old one no longer open this reader.", "\(server.printed)")
        let oldToken = try #require(first.link.components(separatedBy: "token=").last)
        let newToken = try #require(server.base.components(separatedBy: "token=").last)
        #expect(oldToken != newToken && newToken.count >= 32)
        #expect(try fetch(server.root + "?token=" + oldToken).status == 403, "the old link is refused")
        let oldCookie = try ChildProcess.run(["curl", "-s", "-o", "/dev/null", "-w", "%{http_code}", "--max-time", "20", "-H", "Cookie: cyd_access=\(oldToken)", server.root])
        #expect(oldCookie.standardOutput == "403", "a browser keeping the old key is refused: \(oldCookie.standardOutput)")
        let jar = folder.path("cookies")
        let newLink = try ChildProcess.run(["curl", "-s", "-L", "-c", jar, "-b", jar, "-o", "/dev/null", "-w", "%{http_code}", "--max-time", "20", server.base])
        #expect(newLink.standardOutput == "200", "the new link lets in, its cookie kept: \(newLink.standardOutput)")
        var mode = stat()
        #expect(stat(library + "/serve-token", &mode) == 0 && mode.st_mode & 0o777 == 0o600)
    }

    @Test("a port in use is said in words, and the server stops cleanly on Ctrl-C")
    func portInUse() throws {
        let folder = try TemporaryFolder()
        let (library, _) = try Self.library(folder)
        let first = try Server(["--library", library])
        let port = try #require(first.root.split(separator: ":").last.map { $0.trimmingCharacters(in: CharacterSet(charactersIn: "/")) })
        let second = try Command.cyd(["serve", "--library", library, "--listen", "127.0.0.1:\(port)"])
        #expect(second.status == 2)
        #expect(second.standardError.contains("cannot listen on 127.0.0.1:\(port): the port is in use"), "\(second.standardError)")
        let stopped = first.stop()
        #expect(stopped.status == 0, "\(stopped.standardError)")
        #expect(stopped.standardOutput.contains("Stopped."))
    }

    @Test("a translated story is shown in the browser's language (Accept-Language, by weight), its text marked lang; pages are kept per language")
    func inTheBrowsersLanguage() throws {
        let folder = try TemporaryFolder()
        let library = folder.path("library")
        let added = try Command.cyd(["add", "--library", library, Command.packageRoot.path + "/Stories/seven-stairs"])
        #expect(added.status == 0, "\(added.standardError)")
        let server = try Server(["--library", library])
        defer { _ = server.stop() }
        func get(_ path: String, languages: String?) throws -> String {
            var arguments = ["curl", "-s", "--max-time", "20"]
            if let languages { arguments += ["-H", "Accept-Language: \(languages)"] }
            return try ChildProcess.run(arguments + [server.root + path]).standardOutput
        }
        let shelf = try get("/", languages: nil)
        #expect(shelf.contains("<p class=\"languages\">Also in <span lang=\"fr\">fr</span> (100%).</p>"), "\(shelf)")
        for _ in 0..<2 {  // the second time from the page cache: each language its own page
            let french = try get("/stories/1/landing", languages: "de-CH, fr-CA;q=0.8, en;q=0.5")
            #expect(french.contains("<h1 tabindex=\"-1\" lang=\"fr\">Le premier palier</h1>"), "\(french)")
            #expect(french.contains("<div class=\"text\" lang=\"fr\">") && french.contains("Monter à la suite de Pilote"))
            #expect(french.contains("<html lang=\"fr\">") && french.contains("<button type=\"submit\">Marquer ce chapitre</button>"), "cyd's own words follow the browser's language too")
            let english = try get("/stories/1/landing", languages: "en-GB, fr;q=0.1")
            #expect(english.contains("<h1 tabindex=\"-1\">The First Landing</h1>"), "\(english)")
            let none = try get("/stories/1/landing", languages: nil)
            #expect(none.contains("The First Landing"))
        }
        let storyPage = try get("/stories/1", languages: "fr")
        #expect(storyPage.contains("<h1 lang=\"fr\">Sept étages</h1>") && storyPage.contains("traduit à 100\u{A0}%"), "\(storyPage)")
        let frenchShelf = try get("/", languages: "fr")
        #expect(frenchShelf.contains("<h3 lang=\"fr\"><a href=\"/stories/1\">Sept étages</a></h3>"), "the library page follows the browser's language too: \(frenchShelf)")
        let picture = try get("/stories/1/landing", languages: "fr")
        #expect(picture.firstMatch(of: /<img class="picture" src="[^"]+" alt="[^"]+" lang="fr">/) != nil, "\(picture)")
    }

    @Test("the language switch on every page: --lang sets the reader's language, a choice on the page overrides it and the browser's, kept per browser in a cookie, and the way back is only ever a path of this server's")
    func languageSwitch() throws {
        let folder = try TemporaryFolder()
        let library = folder.path("library")
        for story in ["seven-stairs", "the-night-market"] {
            let added = try Command.cyd(["add", "--library", library, Command.packageRoot.path + "/Stories/" + story])
            #expect(added.status == 0, "\(added.standardError)")
        }
        let refused = try Command.cyd(["serve", "--library", library, "--lang", "fr\u{1B}[2J"])
        #expect(refused.status == 64 || refused.status == 2, "\(refused.status)")
        #expect(refused.standardError.contains("--lang takes a language tag") && !refused.standardError.contains("\u{1B}"), "\(refused.standardError)")

        let server = try Server(["--library", library, "--lang", "fr"])
        defer { _ = server.stop() }
        let jar = folder.path("cookies")
        func get(_ path: String, languages: String? = nil) throws -> String {
            var arguments = ["curl", "-s", "--max-time", "20", "-b", jar, "-c", jar]
            if let languages { arguments += ["-H", "Accept-Language: \(languages)"] }
            return try ChildProcess.run(arguments + [server.root + path]).standardOutput
        }
        func choose(_ language: String, back: String) throws -> String {
            let page = try get("/")
            let token = try #require(page.firstMatch(of: /name="token" value="([0-9a-f]+)"/)?.1)
            return try ChildProcess.run(
                ["curl", "-s", "-i", "--max-time", "20", "-b", jar, "-c", jar, "--data", "token=\(token)&lang=\(language)&back=\(back)", server.root + "language"]
            ).standardOutput
        }
        let shelf = try get("/", languages: "en")
        #expect(shelf.contains("<h3 lang=\"fr\"><a href=\"/stories/1\">Sept étages</a></h3>"), "--lang fr wins over the browser's English: \(shelf)")
        #expect(shelf.contains("<h3 lang=\"en\"><a href=\"/stories/2\">The Night Market</a></h3>"), "a story without French is shown as written, marked as English on a French page")
        #expect(shelf.contains("<select id=\"language\" name=\"lang\">") && shelf.contains("<option value=\"\" selected>Celle de ce lecteur\u{A0}: fr</option>"), "\(shelf)")
        for path in ["/stories/1", "/stories/1/landing", "/stories/1/-/marks", "/catalogue", "/search?q=cat"] {
            #expect(try get(path).contains("<label for=\"language\">Histoires en</label>"), "the switch is on \(path), in the reader's language")
        }

        let answer = try choose("original", back: "%2Fstories%2F1%2Flanding")
        #expect(answer.contains("303") && answer.contains("Location: /stories/1/landing"), "\(answer)")
        #expect(answer.contains("cyd_lang=original; Path=/; HttpOnly; SameSite=Lax"), "\(answer)")
        let written = try get("/stories/1/landing", languages: "fr")
        #expect(written.contains("<h1 tabindex=\"-1\" lang=\"en\">The First Landing</h1>"), "the reader's choice wins over --lang and the browser's: \(written)")
        #expect(written.contains("<option value=\"original\" selected>Telle qu&#39;écrite</option>"), "the story as written, cyd's words in the browser's French")
        #expect(written.contains("<html lang=\"fr\">") && written.contains("<div class=\"text\" lang=\"en\">"), "the story's own text is marked as the English it is")

        let offsite = try choose("fr", back: "%2F%2Fevil.example%2F")
        #expect(offsite.contains("Location: /\r\n"), "a way back to another host goes to the library instead: \(offsite)")
        #expect(try get("/stories/1/landing").contains("Le premier palier"))
        let cleared = try choose("", back: "%2F")
        #expect(cleared.contains("cyd_lang=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0"), "\(cleared)")
    }

    /// A GET (or a form POST) that follows redirects, as a browser without scripts would.
    func fetch(_ url: String, post body: String? = nil) throws -> (status: Int, body: String) {
        var arguments = ["curl", "-s", "-L", "-o", "-", "-w", "\n%{http_code}", "--max-time", "20"]
        if let body { arguments += ["--data", body] }
        let result = try ChildProcess.run(arguments + [url])
        let lines = result.standardOutput.split(separator: "\n", omittingEmptySubsequences: false)
        return (Int(lines.last ?? "") ?? 0, lines.dropLast().joined(separator: "\n"))
    }
}
#endif
