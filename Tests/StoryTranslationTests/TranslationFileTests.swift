import StoryCheck
import StoryFormat
import Foundation
@testable import StoryTranslation
import TestSupport
import Testing

/// PO and XLIFF files as cyd writes them and as translators' tools leave them.
@Suite("Translation files")
struct TranslationFileTests {
    static func units() throws -> [TranslationUnit] { try TranslationUnitTests.units() }

    static func po(_ merge: TranslationMerge, language: String? = "fr") -> String {
        POFile.make(merge, storyID: "lamp", storyName: "The Lamp", language: language, revisionDate: "2026-11-24 12:00+0000").text
    }

    static func read(_ text: String, _ format: TranslationFile.Format = .po) throws -> TranslationFile {
        try TranslationFile.read(Array(text.utf8), format: format)
    }

    /// A translation of every string: its id, reversed, in brackets (so [[name]] stays whole).
    static func translated(_ units: [TranslationUnit]) -> TranslationFile {
        TranslationFile(format: .po, entries: units.map { TranslationEntry(ids: [$0.id], context: $0.context, source: $0.source, translation: "«" + $0.source + "»") })
    }

    @Test("the template writes each id in the comment the reader looks for")
    func templateIDComment() throws {
        #expect(POFile.idComment.description == "#. " + POFile.idPrefix)
        let units = try Self.units()
        let template = POFile.template(units, storyID: "lamp", storyName: "The Lamp").bytes
        let read = try TranslationFile.read(template, format: .po)
        #expect(read.entries.flatMap(\.ids).sorted() == units.map(\.id).sorted())
    }

    @Test("an entry's ids are its first and the others, however they were given, and its rarer fields read back as set")
    func entryStorage() throws {
        for ids in [[], ["a"], ["a", "b"], ["a", "b", "c"]] {
            let made = TranslationEntry(ids: ids, context: "c", source: "s", translation: "t")
            #expect(made.ids == ids && Array(made.eachID) == ids && made.firstID == ids.first && made.otherIDs == Array(ids.dropFirst()))
            var set = TranslationEntry(ids: ["z", "y"], context: "c", source: "s", translation: "t")
            set.ids = ids
            #expect(set == made && Array(set.eachID) == ids, "\(ids)")
        }
        var entry = TranslationEntry(ids: ["a"], context: nil, source: "s", translation: "t", previousSource: "old", comments: ["# note"])
        entry.inlineMarkup = ["b"]
        #expect(entry.previousSource == "old" && entry.comments == ["# note"] && entry.inlineMarkup == ["b"])
        var copy = entry
        copy.comments.append("another")
        #expect(entry.comments == ["# note"] && copy.comments == ["# note", "another"], "a copy changed apart from its original")
        (entry.previousSource, entry.comments, entry.inlineMarkup) = (nil, [], [])
        #expect(entry == TranslationEntry(ids: ["a"], context: nil, source: "s", translation: "t"), "emptied, it equals one that never had them")

        // As a PO file gives them: several ids of one entry, in the file's order.
        let file = try Self.read("#. id: one.title\n#. id: two.title\n#. id: three.title\nmsgctxt \"c\"\nmsgid \"Same\"\nmsgstr \"Pareil\"\n\n#. id: four.title\nmsgid \"Other\"\nmsgstr \"\"\n\nmsgid \"No id\"\nmsgstr \"Sans\"\n")
        #expect(file.entries.map(\.ids) == [["one.title", "two.title", "three.title"], ["four.title"], []])
        #expect(file.entries.map(\.firstID) == ["one.title", "four.title", nil])
    }

    @Test("a PO file cyd writes reads back to the same entries: quotes, backslashes, tabs, line breaks, control characters, long lines")
    func poRoundTrip() throws {
        let awkward = TranslationUnit(id: "x.text.1", source: "She said \"no\" \\ then\tleft.\nNext line, \u{1B}[31m red, " + String(repeating: "word ", count: 40), context: "A \"quoted\" title")
        let units = try Self.units() + [awkward]
        let merge = TranslationMerge(units: units, existing: Self.translated(units), grouped: true)
        let text = Self.po(merge)
        #expect(text.split(separator: "\n").allSatisfy { $0.count <= 79 || !$0.contains(" ") }, "lines are wrapped at spaces")
        #expect(text.contains("\\033[31m"), "control characters are written as octal escapes")
        let file = try Self.read(text)
        #expect(file.declaredLanguage == "fr")
        #expect(file.entries.map(\.ids) == units.map { [$0.id] })
        #expect(file.entries.map(\.source) == units.map(\.source))
        #expect(file.entries.map(\.translation) == units.map { "«" + $0.source + "»" })
        #expect(file.entries.map(\.context) == units.map(\.context))
    }

    @Test("strings with the same context and text are one PO entry (msgfmt refuses two) listing every id; its translation serves each")
    func grouped() throws {
        let units = [
            TranslationUnit(id: "a.choice.b", source: "Go back", context: "Room", line: 3),
            TranslationUnit(id: "a.choice.c", source: "Go back", context: "Room", line: 4),
            TranslationUnit(id: "d.choice.b", source: "Go back", context: "Other room", line: 9),
        ]
        let text = Self.po(TranslationMerge(units: units, existing: nil, grouped: true))
        #expect(text.contains("#. id: a.choice.b\n#. id: a.choice.c\n#: story.json:3 story.json:4\nmsgctxt \"Room\""))
        var file = try Self.read(text)
        #expect(file.entries.count == 2)
        file.entries[0].translation = "Revenir"
        let lookup = TranslationLookup(file)
        #expect(units.map { lookup.translation(for: $0) } == ["Revenir", "Revenir", nil])
    }

    @Test("the template written straight from the strings is byte for byte the template a merge makes")
    func template() throws {
        let units = try Self.units() + [
            TranslationUnit(id: "a.choice.b", source: "Go back", context: "Room", line: 3),
            TranslationUnit(id: "a.choice.c", source: "Go back", context: "Room", line: 3),
            TranslationUnit(id: "x.text.1", source: "\"Quoted\" \\ \u{1B} " + String(repeating: "long words ", count: 30), context: "Odd", line: 90),
        ]
        let merged = POFile.make(TranslationMerge(units: units, existing: nil, grouped: true), storyID: "lamp", storyName: "The Lamp", language: nil, comments: ["Made here."])
        let direct = POFile.template(units, storyID: "lamp", storyName: "The Lamp", comments: ["Made here."])
        #expect(String(decoding: direct.bytes, as: UTF8.self) == merged.text)
        #expect(direct.entries == merged.entries.count)
    }

    @Test("a plain value (printable ASCII, nothing to escape) is cut into lines where the general count cuts it: spaces before, at and after the limit, runs of spaces, words longer than a line")
    func plainLayout() {
        var random = SystemRandomNumberGenerator()
        // Mostly letters, with spaces alone and in runs, so every way a line can break comes up.
        let pieces = ["a", "bc", "word", String(repeating: "x", count: 90), " ", "  ", "   "]
        for round in 0..<4000 {
            var text = ""
            let target = Int.random(in: 0...260, using: &random)
            while text.utf8.count < target { text += pieces.randomElement(using: &random)! }
            for limit in [20, 74, 77] {
                Array(text.utf8).withUnsafeBufferPointer { bytes in
                    #expect(POFile.isPlain(bytes))
                    let general = POFile.layout(bytes, limit: limit)
                    #expect(POFile.plainLayout(bytes, limit: limit) == general, "round \(round), limit \(limit): \(text.debugDescription)")
                }
            }
        }
        // Which values are plain: every byte value alone, and each not-plain byte at every place of
        // a longer value (the check reads eight bytes at a time).
        for byte in UInt8.min...UInt8.max {
            let plain = (0x20..<0x7F).contains(byte) && byte != 0x22 && byte != 0x5C
            for position in [0, 3, 7, 8, 12, 16] {
                var bytes = [UInt8](repeating: 0x61, count: 17)
                bytes[position] = byte
                #expect(bytes.withUnsafeBufferPointer(POFile.isPlain) == plain, "byte \(byte) at \(position)")
            }
        }
    }
    @Test("what msgmerge and msgattrib write reads: reflowed strings, flags in any order, previous strings, obsolete entries, plurals, CRLF, a BOM")
    func toolsOutput() throws {
        let text = "\u{FEFF}" + """
            # Translator's note\r
            msgid ""\r
            msgstr ""\r
            "Language: pt_BR\\n"\r
            \r
            #. id: hall.title\r
            #, no-c-format, fuzzy\r
            #| msgctxt "The Hall"\r
            #| msgid "The "\r
            #| "Hall"\r
            msgctxt "The Hall"\r
            msgid ""\r
            "The "\r
            "Hall"\r
            msgstr "O "\r
            "salão"\r
            \r
            msgid "one cat"\r
            msgid_plural "%d cats"\r
            msgstr[0] "um gato"\r
            msgstr[1] "%d gatos"\r
            \r
            #. id: attic.title\r
            #~ msgctxt "The Attic"\r
            #~| msgid "The Loft"\r
            #~ msgid "The Attic"\r
            #~ msgstr "O sótão"\r
            """
        let file = try Self.read(text)
        #expect(file.declaredLanguage == "pt_BR")
        #expect(file.entries.count == 2)
        #expect(file.entries[0].ids == ["hall.title"])
        #expect(file.entries[0].source == "The Hall" && file.entries[0].translation == "O salão")
        #expect(file.entries[0].isFuzzy && file.entries[0].previousSource == "The Hall")
        #expect(file.entries[1].translation == "um gato")
        #expect(file.obsolete.map(\.translation) == ["O sótão"])
        #expect(file.obsolete.first?.previousSource == "The Loft")
        #expect(file.obsolete.first?.ids == ["attic.title"])
    }

    @Test("a story name with line breaks makes a comment a line in the header, and msgfmt reads the file")
    func commentWithLineBreaks() throws {
        let units = try Self.units()
        let name = "Tide\nand\r\nmoon\rrise\n"
        let folder = try TemporaryFolder()
        for language in ["fr", nil] as [String?] {
            let merge = TranslationMerge(units: units, existing: nil, grouped: true)
            let written = POFile.make(merge, storyID: "lamp", storyName: name, language: language, revisionDate: "2026-11-29 12:00+0000")
            let path = try folder.write("\(language ?? "template").po", written.bytes).path
            let checked = try ChildProcess.run(["msgfmt", "--check", "-o", "/dev/null", path])
            #expect(checked.status == 0, "\(checked.standardError)")
            let read = try POFile.parse(written.bytes)
            let comments = read.header?.translatorComments ?? []
            #expect(Array(comments.prefix(4)) == ["Tide", "and", "moon", "rise"] && comments.dropFirst(4).first?.hasPrefix(": ") == true, "\(comments)")
            #expect(read.entries.count == written.entries.count)
        }
    }

    @Test("every escape gettext reads is read, \\x with its hex digits too, and msgfmt agrees on each file")
    func everyEscape() throws {
        let cases: [(String, [UInt8])] = [
            (#"\x1b[2J"#, [0x1B] + Array("[2J".utf8)),
            (#"\x41\x42 z"#, Array("AB z".utf8)),
            (#"\x42c"#, [0x2C]),  // c is a hex digit too: 0x42C, kept to a byte
            (#"\x4a4b"#, [0x4B]),  // every hex digit is read, the value kept to a byte (0x4A4B)
            (#"\a\b\f\v\r\n\t\"\\"#, [0x07, 0x08, 0x0C, 0x0B, 0x0D, 0x0A, 0x09, 0x22, 0x5C]),
            (#"\101\0619"#, Array("A19".utf8)),
        ]
        let folder = try TemporaryFolder()
        for (index, (escaped, bytes)) in cases.enumerated() {
            let text = "msgid \"\"\nmsgstr \"Content-Type: text/plain; charset=UTF-8\\n\"\n\nmsgid \"a\"\nmsgstr \"\(escaped)\"\n"
            let file = try TranslationFile.read(Array(text.utf8), format: .po)
            #expect(Array(file.entries[0].translation.utf8) == bytes, "\(escaped)")
            let path = try folder.write("case\(index).po", Array(text.utf8)).path
            let checked = try ChildProcess.run(["msgfmt", "--check", "-o", "/dev/null", path])
            #expect(checked.status == 0, "msgfmt reads \(escaped) too: \(checked.standardError)")
        }
        for bad in [#"\xg"#, #"\x"#, #"\q"#] {
            #expect(throws: TranslationReadError.self, "\(bad)") { _ = try TranslationFile.read(Array("msgid \"a\"\nmsgstr \"\(bad)\"\n".utf8), format: .po) }
        }
    }

    @Test("a broken PO file says where and what, as a sentence", arguments: [
        ("msgid \"a\"\nmsgstr b\n", 2, 8, "must be followed by a string"),
        ("msgid \"a\"\nmsgstr \"b\n", 2, 10, "not closed"),
        ("msgid \"a\\q\"\nmsgstr \"\"\n", 1, 9, "\\q is not an escape"),
        ("msgid \"été\\q\"\nmsgstr \"\"\n", 1, 11, "\\q is not an escape"),  // columns in characters, as editors and msgfmt count
        ("msgid \"a\"\nmsgtext \"b\"\n", 2, 1, "'msgtext' is not a PO keyword"),
        ("\"a\"\n", 1, 1, "continues nothing"),
        ("msgid \"a\"\n\n", 1, 1, "no msgstr"),
    ])
    func broken(text: String, line: Int, column: Int, words: String) {
        #expect {
            _ = try TranslationFile.read(Array(text.utf8), format: .po)
        } throws: { error in
            guard let error = error as? TranslationReadError else { return false }
            #expect(error.line == line && error.column == column, "\(error)")
            #expect(error.problem.contains(words), "\(error.problem)")
            return true
        }
    }

    @Test("an XLIFF file with an '&' never ended is said at the '&', on its own line, even when a line break follows it (found by fuzzing: the column was negative)")
    func xliffAmpersandPlace() {
        let text = "<?xml version=\"1.0\"?>\n<xliff version=\"2.1\" srcLang=\"en\">\n <file id=\"f\"><unit id=\"u\"><segment><source>Salt &\nand wind</source></segment></unit></file>\n</xliff>\n"
        #expect {
            _ = try TranslationFile.read(Array(text.utf8), format: .xliff)
        } throws: { error in
            guard let error = error as? TranslationReadError else { return false }
            #expect(error.line == 3 && error.column == 50, "\(error)")
            return true
        }
    }

    @Test("XLIFF inline markup in a target (<b>, which the schema rejects, or XLIFF's own <pc>) is said at the target, not silently dropped; <cp> is its character")
    func xliffInlineMarkup() throws {
        let units = try Self.units()
        func xliff(_ target: String) -> [UInt8] {
            Array("""
                <?xml version="1.0" encoding="UTF-8"?>
                <xliff xmlns="urn:oasis:names:tc:xliff:document:2.0" version="2.1" srcLang="en" trgLang="fr">
                <file id="story" original="story.json">
                <unit id="hall.title" name="hall.title">
                <segment state="translated"><source>The Hall</source><target>\(target)</target></segment>
                </unit>
                </file>
                </xliff>

                """.utf8)
        }
        for (target, named) in [("Le <b>grand</b> salon", "<b>"), ("Le <pc id=\"1\">grand</pc> salon", "<pc>")] {
            let report = TranslationValidation.check(bytes: xliff(target), path: "translations/fr.xlf", context: .init(language: "fr", units: units))
            let found = report.diagnostics.filter { $0.code == .translationInlineMarkup }
            #expect(found.count == 1 && found[0].message.contains(named) && found[0].message.contains("hall.title"), "\(report.diagnostics.map(\.message))")
            #expect(try TranslationFile.read(xliff(target), format: .xliff).entries[0].translation == "Le grand salon")
        }
        let plain = TranslationValidation.check(bytes: xliff("Le <cp hex=\"0007\"/>salon"), path: "translations/fr.xlf", context: .init(language: "fr", units: units))
        #expect(!plain.diagnostics.contains { $0.code == .translationInlineMarkup })
    }

    @Test("a byte that is not UTF-8 is said where it is, line and column in characters, as msgfmt says it (not at the entry's first line)")
    func invalidUTF8Place() throws {
        let folder = try TemporaryFolder()
        let bytes = Array("msgid \"\"\nmsgstr \"\"\n\"Content-Type: text/plain; charset=UTF-8\\n\"\n\n#. id: a\nmsgid \"Hello\"\nmsgstr \"\"\n\"Bonjour \"\n\"été ".utf8) + [0xFF] + Array(" mer\"\n".utf8)
        let path = try folder.write("bad.po", bytes).path
        let msgfmt = try ChildProcess.run(["msgfmt", "--check", "-o", "/dev/null", path])
        let place = try #require(msgfmt.standardError.firstMatch(of: /bad\.po:([0-9]+):([0-9]+): invalid multibyte/), "\(msgfmt.standardError)")
        #expect {
            _ = try TranslationFile.read(bytes, format: .po)
        } throws: { error in
            guard let error = error as? TranslationReadError else { return false }
            #expect(error.line == Int(place.1)! && error.column == Int(place.2)!, "cyd \(error.line):\(error.column), msgfmt \(place.1):\(place.2)")
            return true
        }
    }

    @Test("a reference line that is not UTF-8 is refused where its bad byte is, read as a translation as when read whole; ASCII and accented ones read")
    func referenceLines() throws {
        let head = "msgid \"\"\nmsgstr \"\"\n\"Content-Type: text/plain; charset=UTF-8\\n\"\n\n#. id: a\n"
        let entry = "\nmsgid \"Hello\"\nmsgstr \"Bonjour\"\n"
        let bad = Array((head + "#: story.json:4 caf").utf8) + [0xFF] + Array((" story.json:9" + entry).utf8)
        var asTranslation: TranslationReadError?
        do { _ = try TranslationFile.read(bad, format: .po) } catch { asTranslation = error }
        var whole: POSyntaxError?
        do { _ = try POFile.parse(bad) } catch { whole = error }
        #expect(asTranslation?.line == 6 && asTranslation?.column == 20, "\(String(describing: asTranslation))")
        #expect(whole?.line == 6 && whole?.column == 20 && whole?.problem == .invalidUTF8)
        for references in ["#: story.json:4 story.json:9", "#: récit.json:4", "#:   story.json:4\t "] {
            let file = try TranslationFile.read(Array((head + references + entry).utf8), format: .po)
            #expect(file.entries.map(\.translation) == ["Bonjour"] && file.entries.first?.ids == ["a"], "\(references)")
        }
    }

    @Test("invalid UTF-8 in a PO file is a finding, not a crash")
    func invalidUTF8() {
        #expect(throws: TranslationReadError.self) { _ = try TranslationFile.read(Array("msgid \"a\"\nmsgstr \"".utf8) + [0xFF, 0x22, 0x0A], format: .po) }
    }

    @Test("a translation that breaks [[name]] (misspelt, dropped, or one added) is not counted as translated and not shown: readers see the original")
    func brokenPlaceholders() throws {
        let units = try Self.units()
        let story = try #require(LoadedFile.load(Array(TranslationUnitTests.story.utf8)).story?.model())
        for broken in ["Bonjour, [[nom]].", "Bonjour.", "Bonjour, [[name]] et [[name]]."] {
            var file = Self.translated(units)
            let index = try #require(file.entries.firstIndex { $0.ids == ["hall.text.2"] })
            file.entries[index].translation = broken
            let status = Translations.status(file, language: "fr", units: units)
            #expect(status.translated == units.count - 1 && status.fuzzy == 1, "\(broken): \(status)")
            let read = Translations.apply(file, language: "fr", to: story)
            let hall = try #require(read.story.chapters.first { $0.id == "hall" })
            #expect(hall.paragraphs.contains("Hello, [[name]].") && !hall.text.contains(broken), "\(broken): \(hall.text)")
            #expect(TranslationLookup(file).translation(for: units.first { $0.id == "hall.text.2" }!) == nil)
        }
    }

    @Test("an update counts as new only the strings the file did not have: the ones it had without a translation are counted apart")
    func newIsNew() throws {
        let units = try Self.units()
        // The old file has every string, five of them not yet translated.
        var old = Self.translated(units)
        for index in 0..<5 { old.entries[index].translation = "" }
        let new = units + [TranslationUnit(id: "hall.choice.attic", source: "Climb", context: "The Hall", chapter: "hall")]
        let merge = TranslationMerge(units: new, existing: old, grouped: false)
        #expect(merge.counts.added == 1 && merge.counts.untranslated == 5, "\(merge.counts)")
        #expect(merge.counts.kept == units.count - 5)
    }

    @Test("a chapter renamed with a new title, or renamed with a paragraph edited: the changed strings keep the translator's work as fuzzy suggestions under the new ids, not obsolete")
    func renamedAndEdited() throws {
        let units = try Self.units()
        let old = Self.translated(units)
        // attic becomes loft; its title changes with it. cellar becomes vault; one paragraph is edited.
        let new = units.map { unit -> TranslationUnit in
            var unit = unit
            if unit.chapter == "attic" {
                unit.id = "loft" + unit.id.dropFirst("attic".count)
                unit.chapter = "loft"
                if unit.id == "loft.title" { unit.source = "The Loft" }
            }
            if unit.chapter == "cellar" {
                unit.id = "vault" + unit.id.dropFirst("cellar".count)
                unit.chapter = "vault"
                if unit.id == "vault.text.2" { unit.source = unit.source + " It is cold." }
            }
            return unit
        }
        let merge = TranslationMerge(units: new, existing: old, grouped: false)
        #expect(merge.obsolete.isEmpty, "nothing of the translator's is left obsolete: \(merge.obsolete.map(\.ids))")
        let byID = Dictionary(uniqueKeysWithValues: merge.entries.map { ($0.units[0].id, $0) })
        let title = try #require(byID["loft.title"])
        #expect(title.isFuzzy && title.translation == "«The Attic»" && title.previousSource == "The Attic", "\(title)")
        let edited = try #require(byID["vault.text.2"])
        #expect(edited.isFuzzy && edited.translation.hasPrefix("«") && edited.previousSource != nil, "\(edited)")
        #expect(byID["vault.text.1"]?.isFuzzy == false && byID["vault.text.1"]?.translation.isEmpty == false)
        #expect(merge.counts.added == 0 && merge.counts.madeFuzzy == 2, "\(merge.counts)")
    }

    @Test("an update keeps translations, marks changed texts fuzzy with the old text, follows a renamed chapter, keeps the gone as obsolete")
    func merge() throws {
        let units = try Self.units()
        let old = Self.translated(units)
        // hall.text.1 changes; attic becomes loft (same texts); cellar.choice.hall goes.
        var new = units.filter { $0.id != "cellar.choice.hall" }.map { unit -> TranslationUnit in
            var unit = unit
            if unit.id == "hall.text.1" { unit.source = "It is pitch dark." }
            if unit.id.hasPrefix("attic.") { unit.id = "loft." + unit.id.dropFirst("attic.".count) }
            return unit
        }
        new.append(TranslationUnit(id: "hall.choice.attic", source: "Climb", context: "The Hall"))
        let merge = TranslationMerge(units: new, existing: old, grouped: true)
        #expect(merge.counts == .init(kept: 11, madeFuzzy: 1, followed: 2, added: 1, obsoleted: 1))
        let text = Self.po(merge)
        #expect(text.contains("""
            #, fuzzy
            #| msgid ""
            #| "It is dark.\\n"
            #| "Very dark."
            msgctxt "The Hall"
            msgid "It is pitch dark."
            msgstr ""
            "«It is dark.\\n"
            "Very dark.»"
            """))
        #expect(text.contains("#. id: cellar.choice.hall\n#~ msgctxt \"The Cellar\"\n#~ msgid \"Back up\"\n#~ msgstr \"«Back up»\""))
        let file = try Self.read(text)
        let status = Translations.status(file, language: "fr", units: new)
        #expect(status == TranslationStatus(language: "fr", total: 15, translated: 13, fuzzy: 1, missing: 1))
        #expect(status.percent == 86)
        // The string that went comes back: its obsolete translation is taken up again.
        let revived = TranslationMerge(units: units, existing: file, grouped: true)
        #expect(revived.entries.first { $0.units[0].id == "cellar.choice.hall" }?.translation == "«Back up»")
        #expect(revived.obsolete.isEmpty)
    }

    @Test("a translation applied to a story: translated strings in place, fuzzy, stale and missing ones as the author wrote them")
    func apply() throws {
        let model = try #require(LoadedFile.load(Array(TranslationUnitTests.story.utf8)).story?.model())
        var file = Self.translated(TranslationUnits.extract(model))
        file.entries.removeAll { $0.ids == ["hall.text.2"] }  // missing
        if let index = file.entries.firstIndex(where: { $0.ids == ["hall.title"] }) { file.entries[index].isFuzzy = true }
        if let index = file.entries.firstIndex(where: { $0.ids == ["cellar.title"] }) { file.entries[index].source = "The Old Cellar" }  // stale
        let result = Translations.apply(file, language: "fr", to: model)
        let hall = try #require(result.story.chapter(id: "hall"))
        #expect(hall.name == "The Hall")
        #expect(hall.text == "«It is dark.\nVery dark.»\n\nHello, [[name]].")
        #expect(hall.picAlt == "«A dark hall»")
        #expect(hall.choices.map(\.text) == ["«Go down»", "«Fall down»", "«Leave»"])
        #expect(hall.choices.map(\.chapterID) == ["cellar", "cellar", "nowhere"])
        #expect(result.story.chapter(id: "cellar")?.name == "The Cellar")
        #expect(result.story.name == "«The Lamp»")
        #expect(result.status == TranslationStatus(language: "fr", total: 15, translated: 12, fuzzy: 2, missing: 1))
    }

    @Test("XLIFF 2.1 written and read back: units named by id, context and line as notes, fuzzy as initial, control characters as <cp/>")
    func xliff() throws {
        var units = try Self.units()
        units.append(TranslationUnit(id: "odd id.text.1", source: "Bell\u{07} & <tags> \"q\"", context: "Odd & <odd>"))
        units.append(TranslationUnit(id: "2×2.title", source: "Twice", context: "2×2"))
        units.append(TranslationUnit(id: "café.title", source: "Café", context: "Café"))
        var old = Self.translated(units)
        old.entries[3].isFuzzy = true
        let merge = TranslationMerge(units: units, existing: old, grouped: false)
        let text = XLIFF.make(merge, sourceLanguage: "en", targetLanguage: "fr")
        #expect(text.contains("<xliff xmlns=\"urn:oasis:names:tc:xliff:document:2.0\" version=\"2.1\" srcLang=\"en\" trgLang=\"fr\">"))
        #expect(text.contains("<unit id=\"u16\" name=\"odd id.text.1\">"), "an id that is no XML name token gets one; its name keeps it")
        #expect(text.contains("<unit id=\"u17\" name=\"2×2.title\">"), "× is no name character")
        #expect(text.contains("<unit id=\"café.title\" name=\"café.title\">"))
        #expect(text.contains("Bell<cp hex=\"0007\"/> &amp; &lt;tags&gt; &quot;q&quot;"), "the five specials by the one table of them (MarkupText)")
        #expect(text.contains("<note category=\"location\">story.json:15</note>"))
        let file = try Self.read(text, .xliff)
        #expect(file.declaredLanguage == "fr")
        #expect(file.entries.map(\.ids) == units.map { [$0.id] })
        #expect(file.entries.map(\.source) == units.map(\.source))
        #expect(file.entries.map(\.context) == units.map(\.context))
        #expect(file.entries.map(\.translation) == units.map { "«" + $0.source + "»" })
        #expect(file.entries.map(\.isFuzzy) == units.indices.map { $0 == 3 })
        let template = XLIFF.make(TranslationMerge(units: units, existing: nil, grouped: false), sourceLanguage: "en", targetLanguage: nil)
        #expect(!template.contains("<target") && !template.contains("trgLang"))
    }

    @Test("XLIFF that cannot be read says where: a DOCTYPE (no entities are ever expanded), deep nesting, XLIFF 1.2, broken XML", arguments: [
        ("<?xml version=\"1.0\"?>\n<!DOCTYPE x [<!ENTITY a \"aaaa\">]>\n<xliff/>", 2, "DOCTYPE"),
        ("<xliff version=\"2.1\">" + String(repeating: "<group id=\"g\">", count: 80), 1, "nested more than 64"),
        ("<xliff version=\"1.2\">\n<file/></xliff>", 1, "only XLIFF 2"),
        ("<xliff version=\"2.1\">\n<file id=\"f\"><unit id=\"u\"><segment><source>a</segment></unit></file></xliff>", 2, "closes <source>"),
        ("<xliff version=\"2.1\">\n<file id=\"f\"><unit id=\"u\"><segment><source>a &nbsp; b</source></segment></unit></file></xliff>", 2, "unknown reference &nbsp;"),
    ])
    func brokenXLIFF(text: String, line: Int, words: String) {
        #expect {
            _ = try TranslationFile.read(Array(text.utf8), format: .xliff)
        } throws: { error in
            guard let error = error as? TranslationReadError else { return false }
            #expect(error.line == line, "\(error)")
            #expect(error.problem.contains(words), "\(error.problem)")
            return true
        }
    }

    @Test("BCP 47 tags: well-formed ones pass, file names and locales become tags")
    func languageTags() {
        for tag in ["fr", "es-419", "pt-BR", "sr-Latn", "zh-Hant-TW", "de-CH-1996", "en-US-x-twain", "yue", "x-klingon", "zh-yue-HK"] {
            #expect(LanguageTag.isWellFormed(tag), "\(tag)")
        }
        for tag in ["", "f", "french-language", "fr_FR", "fr-", "en-US-", "1fr", "fr-x", "sr@latin", "de--CH", "french"] {
            #expect(!LanguageTag.isWellFormed(tag), "\(tag)")
        }
        #expect(LanguageTag.normalise("pt_BR") == "pt-BR")
        #expect(LanguageTag.normalise("fr_FR.UTF-8") == "fr-FR")
        #expect(TranslationValidation.language(ofFile: "translations/pt_BR.po") == "pt-BR")
        #expect(TranslationValidation.language(ofFile: "translations/story.pot") == nil)
        #expect(TranslationValidation.language(ofFile: "translations/story.xlf") == nil)
    }

    @Test("the reader's language: LC_ALL, then LC_MESSAGES, then LANG; C means none; the nearest translation serves")
    func readersLanguage() {
        #expect(LanguageTag.fromEnvironment(["LANG": "fr_CA.UTF-8"]) == "fr-CA")
        #expect(LanguageTag.fromEnvironment(["LANG": "fr_CA.UTF-8", "LC_MESSAGES": "es_ES.UTF-8"]) == "es-ES")
        #expect(LanguageTag.fromEnvironment(["LANG": "fr_CA.UTF-8", "LC_ALL": "C"]) == nil)
        #expect(LanguageTag.fromEnvironment(["LC_ALL": "", "LANG": "de_DE"]) == "de-DE")
        #expect(LanguageTag.best(for: "fr-CA", among: ["es", "fr"]) == "fr")
        #expect(LanguageTag.best(for: "FR", among: ["fr"]) == "fr")
        #expect(LanguageTag.best(for: "pt", among: ["pt-PT", "pt-BR"]) == "pt-BR")
        #expect(LanguageTag.best(for: "de", among: ["fr"]) == nil)
    }
}

/// The PO reader's two ways of reading: as a `POFile` (its entries whole, for the writer) and
/// straight into a `TranslationFile` (what validation, status and the library read). They must
/// read every file the same.
@Suite("PO read two ways")
struct POReadTwoWaysTests {
    static func same(_ text: String, _ label: String) throws {
        let bytes = Array(text.utf8)
        let direct = Result { try POFile.translationFile(bytes) }
        let viaEntries = Result { TranslationFile(po: try POFile.parse(bytes)) }
        switch (direct, viaEntries) {
        case (.success(let a), .success(let b)):
            #expect(a.entries == b.entries, "\(label)")
            #expect(a.obsolete == b.obsolete, "\(label)")
            #expect(a.declaredLanguage == b.declaredLanguage && a.languageOffset == b.languageOffset && a.poHeader == b.poHeader, "\(label)")
        case (.failure(let a), .failure(let b)):
            #expect(a as? POSyntaxError == b as? POSyntaxError, "\(label)")
        default:
            Issue.record("\(label): one way read it, the other did not: \(direct) / \(viaEntries)")
        }
    }

    @Test("the shipped and seed PO files, and files with every construct: plurals, previous strings, obsolete entries, escapes, ids, fuzzy flags, broken UTF-8, missing strings")
    func sameEntries() throws {
        let root = TestHTTPServer.packageRoot.path
        for path in ["Stories/seven-stairs/translations/fr.po", "Tests/Fixtures/fuzz-seeds/interchange/escapes.po", "Tests/Fixtures/fuzz-seeds/interchange/seven-stairs-fr.po",
            "Sources/InterfaceWords/translations/fr.po"]
        {
            try Self.same(String(decoding: try [UInt8](Data(contentsOf: URL(fileURLWithPath: root + "/" + path))), as: UTF8.self), path)
        }
        let cases = [
            "msgid \"\"\nmsgstr \"Language: fr\\n\"\n\n#. id: a.title\n#. a hint\n#: story.json:3 story.json:4\n#, fuzzy, c-format\n#| msgid \"old\"\n#| \"er\"\nmsgctxt \"ctx\"\nmsgid \"\"\n\"one \"\n\"two\"\nmsgstr \"un \\\"deux\\\"\\n\"\n",
            "#. id: p\nmsgid \"x\"\nmsgid_plural \"xs\"\nmsgstr[0] \"a\"\nmsgstr[1] \"b\"\n\n#~ #. id: gone\n#~ msgid \"old\"\n#~ msgstr \"vieux\"\n",
            "#| msgid_plural \"ps\"\n#| \"more\"\nmsgid \"s\"\nmsgstr \"t\"\n",
            "msgid \"\\303\"\n\"\\251\"\nmsgstr \"\\xff\"\n",
            "msgid \"a\"\nmsgstr \"\\q\"\n",
            "msgid \"a\"\n",
            "#. id: only a comment\n",
            "msgid \"\"\nmsgstr \"\"\n\nmsgid \"\"\nmsgstr \"second empty\"\n",
            "msgid \"caf\u{E9}\"\nmsgstr \"\u{FF}\"\n",
            // Several ids and translator comments on an entry, then one with neither: each entry
            // keeps its own, handed on from the entry being read.
            "# note one\n# note two\n#. id: a.title\n#. id: b.title\n#. id: c.title\nmsgctxt \"c\"\nmsgid \"same\"\nmsgstr \"pareil\"\n\n#. id: d.title\nmsgid \"other\"\nmsgstr \"autre\"\n\n# kept\n#~ #. id: e.title\n#~ #. id: f.title\n#~ msgid \"gone\"\n#~ msgstr \"parti\"\n",
        ]
        for (index, text) in cases.enumerated() { try Self.same(text, "case \(index)") }
        let invalid: [UInt8] = Array("msgid \"a\"\nmsgstr \"".utf8) + [0xC3, 0x28] + Array("\"\n".utf8)
        try Self.same(String(decoding: invalid, as: UTF8.self), "replacement")
        let direct = Result { try POFile.translationFile(invalid) }
        let viaEntries = Result { TranslationFile(po: try POFile.parse(invalid)) }
        if case .failure(let a) = direct, case .failure(let b) = viaEntries { #expect(a as? POSyntaxError == b as? POSyntaxError && a is POSyntaxError) } else { Issue.record("invalid UTF-8 read") }
    }
}
