import Foundation
import TestSupport
import Testing

/// A reader's whole experience in their language: cyd's own words (the terminal reader's, the
/// served and static browser reader's, the EPUB's) come from the interface catalogue, chosen by
/// --lang, the environment or the browser, phrase by phrase, English where a phrase is not
/// translated. Before this, every one of them was English whatever the reader asked for.
@Suite("cyd's words in the reader's language")
struct InterfaceLanguageTests {
    static let stories = Command.packageRoot.path + "/Stories/"

    @Test("the terminal reader speaks the environment's language (LANGUAGE, LC_ALL, LC_MESSAGES, LANG) even where the story is not translated; C and languages cyd lacks read English")
    func terminalReader() throws {
        let folder = try TemporaryFolder()
        let story = Self.stories + "the-night-market"
        func read(_ environment: [String: String], _ input: String) throws -> String {
            let result = try Command.cyd(
                ["read", "--library", folder.path("library"), "--name", "Ana", "--pictures", "off", story], environment: environment, input: input)
            #expect(result.status == 0, "\(result.standardError)")
            return result.standardOutput
        }
        let french = try read(["LANG": "fr_FR.UTF-8"], "?\nzzz\nq\n")
        #expect(french.contains("  numéro    prendre ce choix") && french.contains("revenir au chapitre précédent"), "? lists the commands in French: \(french)")
        #expect(french.contains("'zzz' n'est pas une commande\u{A0}; tapez le numéro d'un choix, ou ? pour l'aide"), "\(french)")
        #expect(french.contains("== ") && !french.contains("take that choice"), "the story's own text stays as written; none of cyd's words are English")
        let chosen = try read(["LANGUAGE": "de:fr", "LANG": "de_DE.UTF-8"], "?\nq\n")
        #expect(chosen.contains("prendre ce choix"), "LANGUAGE's list: German is not translated, French is next")
        for english in [["LANG": "C.UTF-8"], ["LANG": "de_DE.UTF-8"], ["LANG": "fr_FR.UTF-8", "LC_ALL": "C"], ["LANGUAGE": "en:fr", "LANG": "fr_FR.UTF-8"]] {
            let out = try read(english, "?\nq\n")
            #expect(out.contains("  number    take that choice"), "\(english): \(out)")
        }
        // At an ending: the end line and what to do next, in French, with the counts filled in.
        let ending = try read(["LANG": "fr_FR.UTF-8"], (1...40).map { _ in "1" }.joined(separator: "\n") + "\nq\n")
        #expect(ending.contains("Fin. Fins trouvées\u{A0}: ") && ending.contains("r pour relire depuis le début"), "\(ending)")
    }

    @Test("--lang fr reads a translated story in French, cyd's words included; --lang original keeps the environment's words")
    func readWithLang() throws {
        let folder = try TemporaryFolder()
        let read = try Command.cyd(
            ["read", "--library", folder.path("library"), "--lang", "fr", "--name", "Ana", "--pictures", "off", Self.stories + "seven-stairs"],
            input: "h\nq\n")
        #expect(read.status == 0, "\(read.standardError)")
        #expect(read.standardOutput.contains("En fr\u{A0}: traduit à "), "\(read.standardOutput)")
        let original = try Command.cyd(
            ["read", "--library", folder.path("library"), "--lang", "original", "--pictures", "off", Self.stories + "seven-stairs"],
            environment: ["LANG": "fr_FR.UTF-8"], input: "zzz\nq\n")
        #expect(original.standardOutput.contains("The First Landing") && original.standardOutput.contains("n'est pas une commande"), "\(original.standardOutput)")
    }

    @Test("cyd export epub --lang: the French book is French (dc:language, “allez au”, “Fin.”) and EPUBCheck passes it; all writes one book a language; a language the story lacks writes nothing")
    func book() throws {
        let folder = try TemporaryFolder()
        let story = Self.stories + "seven-stairs"
        let made = try Command.cyd(["export", "epub", story, "--lang", "fr", "-o", folder.path("sept.epub")])
        #expect(made.status == 0 && made.standardOutput.contains("wrote \(folder.path("sept.epub"))"), "\(made.standardOutput)\(made.standardError)")
        let listing = try ChildProcess.run(["unzip", "-p", folder.path("sept.epub"), "OEBPS/package.opf", "OEBPS/nav.xhtml", "OEBPS/s*.xhtml"]).standardOutput
        #expect(listing.contains("<dc:language>fr</dc:language>") && listing.contains("Commencer\u{A0}: section 1 sur"), "\(listing.prefix(2000))")
        #expect(listing.contains(">allez au ") && listing.contains("<p class=\"the-end\">Fin.</p>") && listing.contains("Le premier palier"), "\(listing.prefix(3000))")
        #expect(!listing.contains(">turn to "), "no English 'turn to' in the French book")
        let checked = try ChildProcess.run(["python3", Command.packageRoot.path + "/Tests/Support/epub_check.py", folder.path("sept.epub"), "--no-browser"])
        #expect(checked.status == 0 && checked.standardOutput.contains("all passed"), "\(checked.standardOutput)\(checked.standardError)")

        let all = try Command.cyd(["export", "epub", story, "--lang", "all", "-o", folder.path("both.epub")])
        #expect(all.status == 0, "\(all.standardError)")
        #expect(FileManager.default.fileExists(atPath: folder.path("both.epub")) && FileManager.default.fileExists(atPath: folder.path("both.fr.epub")), "\(all.standardOutput)")

        let missing = try Command.cyd(["export", "epub", story, "--lang", "de", "-o", folder.path("de.epub")])
        #expect(missing.status != 0 && missing.standardError.contains("has no translation into 'de'") && missing.standardError.contains("no book written"), "\(missing.standardError)")
        #expect(!FileManager.default.fileExists(atPath: folder.path("de.epub")))
    }

    @Test("cyd build web: a translation's pages are in its language; --site-lang puts the site's own pages (the list, each story as written) in French, the story text marked English")
    func site() throws {
        let folder = try TemporaryFolder()
        let built = try Command.cyd(["build", "web", folder.path("site"), Self.stories + "seven-stairs", "--site-lang", "fr"])
        #expect(built.status == 0, "\(built.standardError)")
        let index = try String(contentsOfFile: folder.path("site") + "/index.html", encoding: .utf8)
        #expect(index.contains("<html lang=\"fr\">") && index.contains("<h1>Histoires</h1>") && index.contains("Aussi en "), "\(index)")
        let written = try String(contentsOfFile: folder.path("site") + "/seven-stairs/landing.html", encoding: .utf8)
        #expect(written.contains("<h1 lang=\"en\">The First Landing</h1>") && written.contains(">Recommencer</a>"), "\(written)")
        #expect(written.contains("data-words=\"{") && written.contains("Fins trouvées"), "the script's words come with the page")
        let english = try Command.cyd(["build", "web", folder.path("en"), Self.stories + "seven-stairs"])
        #expect(english.status == 0)
        let plain = try String(contentsOfFile: folder.path("en") + "/seven-stairs/landing.html", encoding: .utf8)
        #expect(plain.contains("<html lang=\"en\">") && plain.contains("<h1>The First Landing</h1>") && !plain.contains("data-words"), "English pages are as before")
        let french = try String(contentsOfFile: folder.path("en") + "/seven-stairs-fr/landing.html", encoding: .utf8)
        let untranslated = try Command.cyd(["build", "web", folder.path("de"), Self.stories + "seven-stairs", "--site-lang", "de"])
        #expect(untranslated.status == 0 && untranslated.standardError.contains("cyd's words are not translated into de (they are in fr)"), "\(untranslated.standardError)")
        let refused = try Command.cyd(["build", "web", folder.path("x"), Self.stories + "seven-stairs", "--site-lang", "french\u{1B}[2J"])
        #expect(refused.status != 0 && refused.standardError.contains("--site-lang takes a language tag") && !refused.standardError.contains("\u{1B}"), "\(refused.standardError)")
        #expect(french.contains("<html lang=\"fr\">") && french.contains(">Recommencer</a>"), "\(french)")
    }

    @Test("cyd's words are translated with the story machinery: cyd l10n status, extract --check and update work on --interface, and msgfmt accepts what they write")
    func catalogue() throws {
        let interface = Command.packageRoot.path + "/Sources/InterfaceWords"
        let status = try Command.cyd(["l10n", "status", "--interface", interface])
        #expect(status.status == 0 && status.standardOutput.contains("fr  100%"), "\(status.standardOutput)\(status.standardError)")
        let check = try Command.cyd(["l10n", "extract", "--interface", interface, "--check"])
        #expect(check.status == 0, "the template is up to date: \(check.standardOutput)\(check.standardError)")
        // A new language, started and checked as a translator would.
        let folder = try TemporaryFolder()
        let started = try Command.cyd(["l10n", "init", "de", "--interface", folder.path("words")])
        #expect(started.status == 0 && started.standardOutput.contains("strings to translate"), "\(started.standardOutput)\(started.standardError)")
        let msgfmt = try ChildProcess.run(["msgfmt", "--check", "-o", "/dev/null", folder.path("words") + "/translations/de.po"])
        #expect(msgfmt.status == 0, "\(msgfmt.standardError)")
        let counted = try Command.cyd(["l10n", "status", "--interface", folder.path("words")])
        #expect(counted.standardOutput.contains("  0%  0 translated, 0 fuzzy, "), "\(counted.standardOutput)")
    }

    @Test("cyd serve answers a French browser in French on every page it makes: the library, the catalogue, the profile picker and the pages that refuse (no such page, no such story)")
    func servedInFrench() throws {
        let folder = try TemporaryFolder()
        let library = folder.path("library")
        let added = try Command.cyd(["add", "--library", library, Self.stories + "the-night-market"])
        #expect(added.status == 0, "\(added.standardError)")
        let server = try ServeTests.Server(["--library", library])
        defer { _ = server.stop() }
        func get(_ path: String, _ languages: String) throws -> String {
            try ChildProcess.run(["curl", "-s", "--max-time", "20", "-H", "Accept-Language: \(languages)", server.root + path]).standardOutput
        }
        let shelf = try get("/", "fr-FR, fr;q=0.9")
        #expect(shelf.contains("<html lang=\"fr\">") && shelf.contains("<h1>Histoires</h1>") && shelf.contains("Chercher dans les histoires"), "\(shelf)")
        #expect(shelf.contains("<h3 lang=\"en\">"), "the story, not translated, is marked as the English it is")
        let story = try get("/stories/1", "fr")
        #expect(story.contains("Votre prénom dans l&#39;histoire") && story.contains("Marque-pages et notes"), "\(story)")
        #expect(try get("/catalogue", "fr").contains("<h1>Catalogue</h1>"))
        let missing = try get("/nowhere", "fr")
        #expect(missing.contains("<h1>Page introuvable</h1>") && missing.contains("Toutes les histoires"), "\(missing)")
        let gone = try get("/stories/99", "fr")
        #expect(gone.contains("<h1>Histoire introuvable</h1>"), "\(gone)")
        let english = try get("/nowhere", "en-US, fr;q=0.5")
        #expect(english.contains("<h1>Page not found</h1>") && english.contains("<html lang=\"en\">"), "English first: \(english)")
    }

    @Test("cyd build web and cyd export epub --lang all take every language translations/LINGUAS lists: a draft it does not list is left out, said, and built when named")
    func everyListedLanguage() throws {
        let folder = try TemporaryFolder()
        let story = folder.path("stairs")
        let copied = try ChildProcess.run(["cp", "-R", Self.stories + "seven-stairs", story])
        #expect(copied.status == 0)
        // A German draft beside the French: its file is there, LINGUAS does not list it.
        let copiedDraft = try ChildProcess.run(["cp", story + "/translations/fr.po", story + "/translations/de.po"])
        #expect(copiedDraft.status == 0)
        let site = try Command.cyd(["build", "web", folder.path("site"), story])
        #expect(site.status == 0, "\(site.standardError)")
        #expect(FileManager.default.fileExists(atPath: folder.path("site") + "/seven-stairs-fr/index.html"))
        #expect(!FileManager.default.fileExists(atPath: folder.path("site") + "/seven-stairs-de"), "the draft is not given to readers")
        #expect(site.standardError.contains("de.po' is left out: translations/LINGUAS does not list 'de'"), "\(site.standardError)")
        let named = try Command.cyd(["build", "web", folder.path("named"), story, "--lang", "de"])
        #expect(named.status == 0 && FileManager.default.fileExists(atPath: folder.path("named") + "/seven-stairs-de/index.html"), "\(named.standardError)")
        let books = try Command.cyd(["export", "epub", story, "--lang", "all", "-o", folder.path("book.epub")])
        #expect(books.status == 0 && books.standardError.contains("is left out"), "\(books.standardError)")
        #expect(FileManager.default.fileExists(atPath: folder.path("book.fr.epub")) && !FileManager.default.fileExists(atPath: folder.path("book.de.epub")))
    }
}
