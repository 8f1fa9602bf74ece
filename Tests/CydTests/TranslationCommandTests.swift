import Foundation
import StoryFormat
import StoryTranslation
import TestSupport
import Testing

/// Stories in other languages, end to end: `cyd l10n` writes files GNU gettext, translate-toolkit
/// and the OASIS XLIFF 2.1 schema accept; what their tools write reads back; `cyd validate`
/// checks translations; the library stores them at add time; `cyd read --lang` (or LANG) reads
/// them; the catalogue carries them from a git server to a reader.
@Suite("Translations: cyd l10n, validate, read --lang, and the catalogue", .serialized)
struct TranslationCommandTests {
    let home = try! TemporaryFolder()
    var environment: [String: String] { ["CYD_HOME": home.path("library"), "GITHUB_API_URL": "http://127.0.0.1:9", "LANG": "C.UTF-8"] }
    static let bundled = Command.packageRoot.appendingPathComponent("Stories/seven-stairs").path
    static let schema = Command.packageRoot.appendingPathComponent("Tests/Support/xliff-2.1/xliff_core_2.0.xsd").path

    func cyd(_ arguments: String..., environment extra: [String: String] = [:], input: String? = nil) throws -> CommandResult {
        try Command.cyd(arguments, environment: environment.merging(extra) { $1 }, input: input)
    }

    func tool(_ name: String, _ arguments: String...) throws -> CommandResult {
        let program = try #require(Command.which(name), "\(name) is not installed (scripts/install-deps.sh installs it)")
        return try Command.run(program, arguments, in: home.url)
    }

    /// A copy of the bundled story, with its French translation, to change freely.
    func copyOfSevenStairs() throws -> String {
        let folder = home.path("seven-stairs")
        if !FileManager.default.fileExists(atPath: folder) { try FileManager.default.copyItem(atPath: Self.bundled, toPath: folder) }
        return folder
    }

    func edit(_ path: String, _ change: (String) -> String) throws {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        try change(text).write(toFile: path, atomically: true, encoding: .utf8)
    }

    /// What readers see of a translation file: usable translations by id.
    static func translations(_ path: String, units: [TranslationUnit]) throws -> [String: String] {
        let file = try TranslationFile.read(Array(try Data(contentsOf: URL(fileURLWithPath: path))), format: TranslationFile.Format(fileName: path) ?? .po)
        let lookup = TranslationLookup(file)
        var found: [String: String] = [:]
        for unit in units { found[unit.id] = lookup.translation(for: unit) }
        return found
    }

    static func units(_ folder: String) throws -> [TranslationUnit] {
        let syntax = try #require(LoadedFile.load(Array(try Data(contentsOf: URL(fileURLWithPath: folder + "/story.json")))).story)
        return try #require(TranslationUnits.extract(syntax))
    }

    func json(_ result: CommandResult) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any], "\(result.standardOutput)\(result.standardError)")
    }

    @Test("a translation file that starts with terminal escapes, or is named with them: l10n status, update and extract say so in words that reach the terminal safe")
    func hostileTranslationFiles() throws {
        let folder = try copyOfSevenStairs()
        let hostile = "\u{1B}[2J\u{1B}]0;pwned\u{07}"
        try Data((hostile + "\nmsgid \"a\"\nmsgstr \"b\"\n").utf8).write(to: URL(fileURLWithPath: folder + "/translations/de.po"))
        try Data("msgid \"\"\nmsgstr \"\"\n".utf8).write(to: URL(fileURLWithPath: folder + "/translations/x\(hostile).po"))
        defer {
            try? FileManager.default.removeItem(atPath: folder + "/translations/de.po")
            try? FileManager.default.removeItem(atPath: folder + "/translations/x\(hostile).po")
        }
        let runs = [
            try cyd("l10n", "status", "--story", folder), try cyd("l10n", "update", "--story", folder, "--lang", "de"),
            try cyd("l10n", "extract", "--story", folder, "--lang", "de", "-o", home.path("de.xlf"), "--format", "xliff"),
            try cyd("l10n", "update", "--story", folder, "--lang", "zz\(hostile)"),
        ]
        for run in runs {
            #expect(run.status != 0, "\(run.standardOutput)\(run.standardError)")
            for text in [run.standardOutput, run.standardError] {
                #expect(!text.contains("\u{1B}") && !text.contains("\u{07}"), "raw escapes reached the terminal: \(text.debugDescription)")
            }
        }
        #expect(runs[0].standardError.contains("de.po"), "status names the file it cannot read: \(runs[0].standardError)")
    }

    @Test("the bundled French translation is complete, current and clean: validate --lang fr finds nothing, status says 100%, the template is up to date")
    func bundledFrench() throws {
        let validate = try cyd("validate", "--lang", "fr", Self.bundled)
        #expect(validate.status == 0, "\(validate.standardOutput)\(validate.standardError)")
        #expect(validate.standardOutput.contains("translations/fr.po: no problems"), "\(validate.standardOutput)")
        let status = try json(try cyd("l10n", "status", "--json", "--story", Self.bundled))
        let french = try #require((status["languages"] as? [[String: Any]])?.first)
        #expect(french["language"] as? String == "fr")
        #expect(french["percent"] as? Int == 100 && french["fuzzy"] as? Int == 0 && french["missing"] as? Int == 0)
        #expect(french["listed"] as? Bool == true)
        #expect(french["total"] as? Int == status["strings"] as? Int)
        let check = try cyd("l10n", "extract", "--check", "--story", Self.bundled)
        #expect(check.status == 0, "Stories/seven-stairs/translations/story.pot is out of date: run `cyd l10n extract --story Stories/seven-stairs`\n\(check.standardError)")
    }

    @Test("every PO file cyd writes passes msgfmt --check --check-format, and translate-toolkit's pofilter finds no critical problem")
    func gettextAccepts() throws {
        let folder = try copyOfSevenStairs()
        #expect(try cyd("l10n", "init", "es", "--story", folder).status == 0)
        // An update with a changed text, a renamed chapter (its five strings and the choice that leads
        // there follow it) and a removed choice: fuzzy, #| and #~ entries.
        try edit(folder + "/story.json") { text in
            text.replacingOccurrences(of: "THE END. Another time.", with: "THE END. Until another time.")
                .replacingOccurrences(of: "\"call\"", with: "\"echo\"")
                .replacingOccurrences(of: "{\n            \"chapter_id\": \"garden\",\n            \"text\": \"Climb out of the window into the snow\"\n          }", with: "")
                .replacingOccurrences(of: "Close the window and follow Pilot\"\n          },", with: "Close the window and follow Pilot\"\n          }")
        }
        let update = try cyd("l10n", "update", "--story", folder)
        #expect(update.status == 0, "\(update.standardError)")
        #expect(update.standardOutput.contains("fr: 44 kept, 1 made fuzzy (text changed), 6 followed a renamed chapter, 0 new, 0 not yet translated, 1 obsolete"), "\(update.standardOutput)")
        let po = try String(contentsOfFile: folder + "/translations/fr.po", encoding: .utf8)
        #expect(po.contains("#, fuzzy\n#| msgid \"THE END. Another time.\"\nmsgctxt \"Home\"\nmsgid \"THE END. Until another time.\"\nmsgstr \"FIN. Une autre fois.\""), "\(po)")
        #expect(po.contains("#. id: echo.title\n"))
        #expect(po.contains("#~ msgid \"Climb out of the window into the snow\""))
        for file in ["fr.po", "es.po", "story.pot"] {
            let path = folder + "/translations/" + file
            let msgfmt = try tool("msgfmt", "--check", "--check-format", "-o", "/dev/null", path)
            #expect(msgfmt.status == 0, "\(file): \(msgfmt.standardError)")
            if file.hasSuffix(".po") { #expect(msgfmt.standardError.isEmpty, "\(file): msgfmt warns: \(msgfmt.standardError)") }
        }
        // pofilter's critical checks (the rest are style heuristics: "THE END" is an acronym to it).
        let critical = ["escapes", "newlines", "nplurals", "printf", "pythonbraceformat", "tabs", "validxml", "variables", "xmltags", "dialogsizes"]
        for file in ["fr.po", Self.bundled + "/translations/fr.po"] {
            let path = file.hasPrefix("/") ? file : folder + "/translations/" + file
            let out = home.path("pofilter-\(UUID().uuidString).po")
            let result = try Command.run(
                try #require(Command.which("pofilter")), ["--progress=none", "--language=fr"] + critical.flatMap { ["-t", $0] } + [path, out], in: home.url)
            #expect(result.status == 0, "\(result.standardError)")
            let flagged = (try? String(contentsOfFile: out, encoding: .utf8)) ?? ""
            #expect(!flagged.contains("(pofilter)"), "pofilter flags:\n\(flagged)")
        }
    }

    @Test("translate-toolkit's po2xliff and xliff2po round trip reads back to the same translations, and so does cyd's own XLIFF 2.1 of them")
    func translateToolkitRoundTrip() throws {
        let folder = try copyOfSevenStairs()
        let units = try Self.units(folder)
        let ours = try Self.translations(folder + "/translations/fr.po", units: units)
        #expect(ours.values.compactMap { $0 }.count == units.count)
        #expect(try tool("po2xliff", "--progress=none", folder + "/translations/fr.po", home.path("fr12.xlf")).status == 0)
        #expect(try tool("xliff2po", "--progress=none", home.path("fr12.xlf"), home.path("back.po")).status == 0)
        // xliff2po drops msgctxt; cyd finds each string by the id comments it wrote.
        #expect(try Self.translations(home.path("back.po"), units: units) == ours)
        let export = try cyd("l10n", "extract", "--lang", "fr", "--format", "xliff", "-o", home.path("fr.xlf"), "--story", folder)
        #expect(export.status == 0, "\(export.standardError)")
        #expect(try Self.translations(home.path("fr.xlf"), units: units) == ours)
    }

    @Test("cyd's XLIFF validates against the OASIS XLIFF 2.1 core schema (xmllint): the template, a new language, a translated one with a control character")
    func xliffSchema() throws {
        let folder = try copyOfSevenStairs()
        try edit(folder + "/story.json") { $0.replacingOccurrences(of: "Pilot mews, higher up, impatient.", with: "Pilot mews\u{07}, higher up & <impatient>.") }
        #expect(try cyd("l10n", "extract", "--format", "xliff", "--story", folder).status == 0)
        #expect(try cyd("l10n", "init", "de", "--format", "xliff", "--story", folder).status == 0)
        #expect(try cyd("l10n", "extract", "--lang", "fr", "--format", "xliff", "-o", home.path("fr.xlf"), "--story", folder).status == 0)
        for path in [folder + "/translations/story.xlf", folder + "/translations/de.xlf", home.path("fr.xlf")] {
            let lint = try tool("xmllint", "--noout", "--nonet", "--schema", Self.schema, path)
            #expect(lint.status == 0 && lint.standardError.contains("validates"), "\(path): \(lint.standardError)")
        }
        let template = try String(contentsOfFile: folder + "/translations/story.xlf", encoding: .utf8)
        #expect(template.contains("Pilot mews<cp hex=\"0007\"/>, higher up &amp; &lt;impatient&gt;."))
        // A language kept as XLIFF is read like a PO file: status, validate, the library.
        let status = try json(try cyd("l10n", "status", "--json", "--story", folder))
        let languages = try #require(status["languages"] as? [[String: Any]])
        #expect(languages.map { $0["language"] as? String } == ["de", "fr"])
        #expect(languages.first?["format"] as? String == "xliff" && languages.first?["missing"] as? Int == status["strings"] as? Int)
    }

    @Test("a PO file run through msgmerge and msgattrib (reflowed, flags reordered, entries sorted, obsolete kept) reads back to the translations cyd's own update gives")
    func msgmergeEdits() throws {
        let folder = try copyOfSevenStairs()
        try edit(folder + "/story.json") { $0.replacingOccurrences(of: "Pilot mews, higher up, impatient.", with: "Pilot mews, higher up, very impatient.") }
        let theirs = home.path("theirs.po")
        try FileManager.default.copyItem(atPath: folder + "/translations/fr.po", toPath: theirs)
        #expect(try cyd("l10n", "update", "--story", folder).status == 0)  // cyd's own: fr.po and story.pot
        let merge = try tool("msgmerge", "--quiet", "--previous", "--width=40", "-o", theirs, theirs, folder + "/translations/story.pot")
        #expect(merge.status == 0, "\(merge.standardError)")
        let attrib = try tool("msgattrib", "--width=60", "--sort-by-file", "-o", theirs, theirs)
        #expect(attrib.status == 0, "\(attrib.standardError)")
        let text = try String(contentsOfFile: theirs, encoding: .utf8)
        #expect(text.contains("#| msgid \"Pilot mews, higher up, impatient.\""), "msgmerge kept the previous text: \(text)")
        let units = try Self.units(folder)
        let mine = try Self.translations(folder + "/translations/fr.po", units: units)
        #expect(try Self.translations(theirs, units: units) == mine)
        #expect(mine["call.text.3"] == nil && mine.count == units.count - 1, "the changed text is fuzzy, read as written")
    }

    @Test("cyd validate checks translation files against the story: stale, unknown id, [[name]], BCP 47, unlisted, unreadable; --lang adds untranslated")
    func validateFindings() throws {
        let folder = try copyOfSevenStairs()
        try edit(folder + "/story.json") { $0.replacingOccurrences(of: "Pilot mews, higher up, impatient.", with: "Pilot mews, very impatient.") }
        try edit(folder + "/translations/fr.po") { text in
            text.replacingOccurrences(of: "#. id: call.title", with: "#. id: echo.title")
                .replacingOccurrences(of: "presque la vôtre\u{A0}: «\u{A0}[[name]]\u{A0}?\u{A0}»", with: "presque la vôtre\u{A0}: «\u{A0}?\u{A0}»")
                .replacingOccurrences(of: "msgstr \"Sept étages\"", with: "msgstr \"\"")
        }
        try FileManager.default.copyItem(atPath: folder + "/translations/fr.po", toPath: folder + "/translations/fr_FR.po")
        try "msgid \"a\"\nmsgstr b\n".write(toFile: folder + "/translations/french.po", atomically: true, encoding: .utf8)
        let result = try cyd("validate", "--format", "json", folder)
        #expect(result.status == 1)
        let files = try #require(try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])["files"] as? [[String: Any]]
        func codes(_ name: String) -> [String] {
            ((files?.first { ($0["path"] as? String)?.hasSuffix(name) == true }?["diagnostics"] as? [[String: Any]]) ?? []).compactMap { $0["code"] as? String }.sorted()
        }
        #expect(codes("translations/fr.po") == ["CYD161", "CYD162", "CYD163"], "\(result.standardOutput)")
        // Named for fr-FR, saying fr inside, and not in LINGUAS.
        #expect(codes("translations/fr_FR.po") == ["CYD161", "CYD162", "CYD163", "CYD165", "CYD167"])
        #expect(codes("translations/french.po") == ["CYD160"], "an unreadable file: only that")
        let withLang = try cyd("validate", "--lang", "fr", folder)
        #expect(withLang.standardOutput.contains("warning[CYD164]: 'story.name' is not translated: \"Seven Stairs\""), "\(withLang.standardOutput)")
        #expect(withLang.standardOutput.contains("warning[CYD164]: 'call.title' is not translated"), "the renamed id left call.title without its translation")
        #expect(!withLang.standardOutput.contains("fr_FR.po"), "--lang fr checks fr only")
        let one = try cyd("validate", folder + "/translations/french.po")
        #expect(one.status == 1 && one.standardOutput.contains("french.po:2:8"), "\(one.standardOutput)")
        #expect(one.standardOutput.contains("error[CYD165]: 'french' is not a BCP 47 language tag") == false, "an unreadable file says only that it cannot be read")
    }

    @Test("reading in French: --lang, or LANG; missing strings fall back to the original; --lang original and a language the story lacks read it as written")
    func readInFrench() throws {
        let folder = try copyOfSevenStairs()
        // One paragraph left untranslated, one marked fuzzy: both are read as written.
        try edit(folder + "/translations/fr.po") { text in
            var text = text.replacingOccurrences(of: "#. id: call.text.1\n#: story.json:30\n", with: "#. id: call.text.1\n#: story.json:30\n#, fuzzy\n")
            guard let start = text.range(of: "msgid \"\"\n\"Seven flights"), let msgstr = text.range(of: "msgstr \"\"\n", range: start.upperBound..<text.endIndex),
                let end = text.range(of: "\n\n", range: msgstr.upperBound..<text.endIndex)
            else { return text }
            text.replaceSubrange(msgstr.lowerBound..<end.lowerBound, with: "msgstr \"\"")
            return text
        }
        // A translation is as untrusted as the story: an escape sequence in it is shown, not obeyed.
        try edit(folder + "/translations/fr.po") { $0.replacingOccurrences(of: "msgstr \"Répondre à la voix\"", with: "msgstr \"Répondre à la voix\\033[2J\"") }
        let read = try cyd("read", "--lang", "fr", "--name", "Ana", "--pictures", "off", folder, input: "2\nq\n")
        #expect(read.status == 0, "\(read.standardError)")
        let out = read.standardOutput
        #expect(out.contains("Sept étages\nEn fr\u{A0}: traduit à 96\u{A0}%\u{A0}; le reste tel que l'auteur l'a écrit."), "\(out)")
        #expect(out.contains("== Le premier palier =="))
        #expect(out.contains("une voix qui est presque la vôtre\u{A0}: «\u{A0}Ana\u{A0}?\u{A0}»"), "[[name]] in French too")
        #expect(out.contains("Seven flights, the estate agent said."), "the untranslated paragraph as written")
        #expect(out.contains("2) Répondre à la voix^[[2J") && !out.contains("\u{1B}"), "\(out)")
        #expect(out.contains("\"Who's there?\" you call."), "the fuzzy one as written")
        #expect(out.contains("« Qui est là ? » répond l’escalier") || out.contains("«\u{A0}Qui est là\u{A0}?\u{A0}» répond l’escalier"))
        let fromLang = try cyd("read", "--name", "Ana", "--pictures", "off", "--restart", folder, environment: ["LANG": "fr_CA.UTF-8"], input: "q\n")
        #expect(fromLang.standardOutput.contains("== Le premier palier =="), "LANG=fr_CA reads fr: \(fromLang.standardOutput)")
        let original = try cyd("read", "--lang", "original", "--name", "Ana", "--pictures", "off", folder, environment: ["LANG": "fr_FR.UTF-8"], input: "q\n")
        #expect(original.standardOutput.contains("== The First Landing =="))
        let german = try cyd("read", "--lang", "de", "--name", "Ana", "--pictures", "off", folder, input: "q\n")
        #expect(german.standardOutput.contains("== The First Landing =="))
        #expect(german.standardError.contains("is not translated into de; reading it as written (it can be read in fr)"), "\(german.standardError)")
        let bad = try cyd("read", "--lang", "français", folder, input: "q\n")
        #expect(bad.status == 2 && bad.standardError.contains("--lang takes a language tag"))
    }

    @Test("reading a folder reads its files as they are now: a translator's change to fr.po, and an author's to story.json, are read at once, with no cyd update; a folder broken since is said")
    func readTheFolderAsItIs() throws {
        let folder = try copyOfSevenStairs()
        let first = try cyd("read", "--lang", "fr", "--name", "Ana", "--pictures", "off", folder, input: "q\n")
        #expect(first.standardOutput.contains("== Le premier palier =="), "\(first.standardOutput)")
        try edit(folder + "/translations/fr.po") { $0.replacingOccurrences(of: "msgstr \"Le premier palier\"", with: "msgstr \"Le tout premier palier\"") }
        let translated = try cyd("read", "--lang", "fr", "--name", "Ana", "--pictures", "off", folder, input: "q\n")
        #expect(translated.standardOutput.contains("== Le tout premier palier =="), "the translator's change is read: \(translated.standardOutput)")
        try edit(folder + "/story.json") { $0.replacingOccurrences(of: "\"The First Landing\"", with: "\"The Very First Landing\"") }
        let written = try cyd("read", "--lang", "original", "--name", "Ana", "--pictures", "off", folder, input: "q\n")
        #expect(written.standardOutput.contains("== The Very First Landing =="), "the author's change is read: \(written.standardOutput)")
        try edit(folder + "/story.json") { _ in "{ not json" }
        let broken = try cyd("read", "--name", "Ana", "--pictures", "off", folder, input: "q\n")
        #expect(broken.status != 0 && broken.standardError.contains("story.json"), "\(broken.standardError)")
    }

    @Test("a language LINGUAS lists with no file is said by l10n status (text and JSON) and update, with the way to start it")
    func listedWithoutFile() throws {
        let folder = try copyOfSevenStairs()
        try "fr de pt_BR\n".write(toFile: folder + "/translations/LINGUAS", atomically: true, encoding: .utf8)
        let status = try cyd("l10n", "status", "--story", folder)
        #expect(status.standardOutput.contains("de: listed in translations/LINGUAS, but there is no de.po or .xlf; `cyd l10n init de` starts one"), "\(status.standardOutput)")
        #expect(status.standardOutput.contains("pt_BR: listed in translations/LINGUAS"))
        #expect(!status.standardOutput.contains("fr: listed"))
        let json = try JSONSerialization.jsonObject(with: Data(try cyd("l10n", "status", "--json", "--story", folder).standardOutput.utf8)) as? [String: Any]
        #expect(json?["listedWithoutFile"] as? [String] == ["de", "pt_BR"], "\(json as Any)")
        let update = try cyd("l10n", "update", "--story", folder)
        #expect(update.status == 0 && update.standardError.contains("warning: de: listed in translations/LINGUAS"), "\(update.standardError)")
    }

    @Test("the library keeps translations from add time: list shows them, a changed translation updates the story, a broken one is said and left out")
    func library() throws {
        let folder = try copyOfSevenStairs()
        #expect(try cyd("add", folder).status == 0)
        var list = try JSONSerialization.jsonObject(with: Data(try cyd("list", "--json").standardOutput.utf8)) as? [[String: Any]]
        #expect(list?.first?["languages"] as? [String: Int] == ["fr": 100])
        #expect(try cyd("list").standardOutput.contains("· also in fr (100%)"))
        try edit(folder + "/translations/fr.po") { $0.replacingOccurrences(of: "msgstr \"Sept étages\"", with: "msgstr \"\"") }
        let again = try cyd("add", folder)
        #expect(again.status == 0 && again.standardOutput.lowercased().contains("updated"), "a changed translation is a new version: \(again.standardOutput)")
        list = try JSONSerialization.jsonObject(with: Data(try cyd("list", "--json").standardOutput.utf8)) as? [[String: Any]]
        #expect(list?.first?["languages"] as? [String: Int] == ["fr": 98])
        try "msgid \"a\"\nmsgstr b\n".write(toFile: folder + "/translations/de.po", atomically: true, encoding: .utf8)
        let broken = try cyd("add", folder)
        #expect(broken.status == 0)
        #expect(broken.standardOutput.contains("the story has 1 error"), "\(broken.standardOutput)\(broken.standardError)")
        let validate = try cyd("validate", folder)
        #expect(validate.standardOutput.contains("translations/de.po:2:8"), "validate names the file that was left out: \(validate.standardOutput)")
        list = try JSONSerialization.jsonObject(with: Data(try cyd("list", "--json").standardOutput.utf8)) as? [[String: Any]]
        #expect(list?.first?["languages"] as? [String: Int] == ["fr": 98])
    }

    @Test("the catalogue carries translations: the keeper's index lists languages, a reader's sync shows them, get brings them, read --lang reads them")
    func catalogue() throws {
        let git = try TestGitServer()
        let folder = Self.bundled
        var files: [String: [UInt8]] = [:]
        for path in ["story.json", "README.md", "resources/cat.png", "resources/stairs.png", "translations/fr.po"] {
            files[path] = Array(try Data(contentsOf: URL(fileURLWithPath: folder + "/" + path)))
        }
        // LINGUAS words that are paths, or not languages, are passed over.
        files["translations/LINGUAS"] = Array("fr  # French\n../../story\nfr.x/../../README\nfrançais\nde\n".utf8)
        try git.publish("stairs", files: files)
        let authors = try home.write("authors.json", "{ \"authors\": [ { \"name\": \"ana\", \"repos\": [\"\(git.gitURL("stairs"))\"] } ] }\n").path
        let keeper = ["CYD_HOME": home.path("keeper")]
        #expect(try cyd("sync", "--catalogue", authors, environment: keeper).status == 0)
        let site = home.path("site")
        #expect(try cyd("catalogue", "publish", site, environment: keeper).status == 0)
        let index = try String(contentsOfFile: site + "/index.json", encoding: .utf8)
        #expect(index.contains("\"languages\":{\"fr\":100}"), "\(index)")
        let sync = try cyd("sync", "--catalogue", site + "/catalogue.json")
        #expect(sync.status == 0, "\(sync.standardError)")
        let available = try json(try cyd("list", "--available", "--json"))
        #expect(((available["available"] as? [[String: Any]])?.first?["languages"] as? [String: Int]) == ["fr": 100])
        #expect(try cyd("list", "--available").standardOutput.contains("· also in fr (100%)"))
        #expect(try cyd("get", "ana/stairs").status == 0)
        let read = try cyd("read", "--lang", "fr", "--name", "Ana", "--pictures", "off", "ana/stairs", input: "q\n")
        #expect(read.standardOutput.contains("== Le premier palier =="), "\(read.standardOutput)\(read.standardError)")
    }

    @Test("reading in French in a real terminal (tmux): the translation on screen, the name in place, French choices")
    func terminal() throws {
        let tmux = try #require(Command.which("tmux"), "tmux is not installed")
        let socket = "cyd-l10n-\(UUID().uuidString.prefix(8))"
        let command = "env CYD_HOME='\(home.path("tty"))' NO_COLOR= LANG=fr_FR.UTF-8 '\(Command.cyd.path)' read --name Ana --pictures off '\(Self.bundled)'; sleep 30"
        let started = try ChildProcess([tmux.path, "-L", socket, "new-session", "-d", "-s", "cyd", "-x", "90", "-y", "45", command], takesInput: false, output: .discarded, errors: .discarded, ownGroup: true)
        #expect(started.wait() == 0)
        defer { _ = try? Command.run(tmux, ["-L", socket, "kill-server"]) }
        func screen(until text: String) throws -> String {
            var last = ""
            for _ in 0..<100 {
                last = try Command.run(tmux, ["-L", socket, "capture-pane", "-p", "-J", "-t", "cyd"]).standardOutput
                if last.contains(text) { return last }
                Thread.sleep(forTimeInterval: 0.1)
            }
            Issue.record("the screen never showed \(text):\n\(last)")
            return last
        }
        var shown = try screen(until: "Répondre à la voix")
        #expect(shown.contains("Sept étages") && shown.contains("Le premier palier"))
        #expect(shown.contains("Ana"), "\(shown)")
        _ = try Command.run(tmux, ["-L", socket, "send-keys", "-t", "cyd", "1", "Enter"])
        // The heading is drawn before the choices: wait for the last thing the chapter shows.
        shown = try screen(until: "Ouvrir la fenêtre")
        #expect(shown.contains("La troisième volée"))
    }

    @Test("a large template (over 20,000 entries, made in pieces on the other cores as it is written) is the library's template byte for byte; --check finds it current, then out of date after one byte changes; -o - writes it to standard output")
    func largeTemplate() throws {
        let folder = home.path("large")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let count = 4_100
        let chapters = (0..<count).map { index in
            let choices = index + 1 < count ? ", \"choices\": [{\"chapter_id\": \"c\(index + 1)\", \"text\": \"On to \(index + 1)\"}]" : ""
            let text = "Paragraph one of \(index), long enough to be broken over two lines of a PO file by the writer.\\n\\nTwo of \(index), [[name]].\\n\\n\\\"Three\\\" of \(index)."
            return "{\"id\": \"c\(index)\", \"name\": \"Room \(index)\", \"is_first_chapter\": \(index == 0), \"text\": \"\(text)\"\(choices)}"
        }
        let story = "{\"story\": {\"id\": \"large\", \"name\": \"Large\", \"rating\": \"G\", \"summary\": \"Many rooms\", \"chapters\": [" + chapters.joined(separator: ",\n") + "]}}\n"
        try story.write(toFile: folder + "/story.json", atomically: true, encoding: .utf8)
        let extract = try cyd("l10n", "extract", "--story", folder)
        #expect(extract.status == 0, "\(extract.standardError)")
        #expect(extract.standardOutput.contains("20501 strings in 20501 entries"), "\(extract.standardOutput)")
        let written = Array(try Data(contentsOf: URL(fileURLWithPath: folder + "/translations/story.pot")))
        let units = try Self.units(folder)
        let expected = POFile.template(units, storyID: "large", storyName: "Large", comments: ["Made by `cyd l10n`; write each translation in msgstr and keep each [[name]]."]).bytes
        #expect(written == expected)
        #expect(try cyd("l10n", "extract", "--check", "--story", folder).status == 0)
        var changed = written
        changed[changed.count / 2 + 7] ^= 0x01
        try Data(changed).write(to: URL(fileURLWithPath: folder + "/translations/story.pot"))
        let stale = try cyd("l10n", "extract", "--check", "--story", folder)
        #expect(stale.status == 1 && stale.standardError.contains("is out of date"), "\(stale.standardError)")
        let piped = try cyd("l10n", "extract", "--story", folder, "-o", "-")
        #expect(Array(piped.standardOutput.utf8) == expected)
    }
}
