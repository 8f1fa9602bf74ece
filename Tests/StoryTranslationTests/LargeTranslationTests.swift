import StoryCheck
import StoryFormat
@testable import StoryTranslation
import TestSupport
import Testing

/// The ways a large story's translation is read and written faster (in pieces at once, fewer
/// copies) give what the plain ways give: the same entries, the same errors, the same bytes.
@Suite("Large translations")
struct LargeTranslationTests {
    /// A PO file of `count` entries (over 8 MB from about 40,000), with awkward ones here and there.
    static func poText(entries count: Int, extra: (Int) -> String? = { _ in nil }) -> String {
        var text = "msgid \"\"\nmsgstr \"\"\n\"Language: fr\\n\"\n\"Content-Type: text/plain; charset=UTF-8\\n\"\n"
        text.reserveCapacity(count * 240)
        for index in 0..<count {
            text += "\n"
            if let more = extra(index) {
                text += more
                continue
            }
            text += "#. id: chapter\(index / 6).text.\(index % 6)\n#: story.json:\(index + 10)\n"
            if index % 97 == 0 { text += "#, fuzzy\n" }
            text += "msgctxt \"Chapter \(index / 6)\"\n"
            text += "msgid \"\"\n\"A line of the story, number \(index), long enough to be broken over \"\n\"two lines as gettext writes it.\"\n"
            text += index % 13 == 0 ? "msgstr \"Une ligne \\\"citée\\\"\\n\\t\\x41\\101 \(index)\"\n" : "msgstr \"Une ligne de l’histoire, numéro \(index).\"\n"
        }
        return text
    }

    static func onePass(_ text: String) throws -> TranslationFile { TranslationFile(po: try POFile.parse(Array(text.utf8))) }

    @Test("a string a little out of the file's order is found near where the order puts it (the nearest, after it first), without the table of every id; further away, not")
    func foundNearItsPlace() {
        var units = (0..<200).map { TranslationUnit(id: "u\($0)", source: "s", context: "c") }
        #expect(TranslationValidation.near("u74", in: units, around: 10) == 74)
        #expect(TranslationValidation.near("u75", in: units, around: 10) == nil, "65 places away: the table finds it")
        #expect(TranslationValidation.near("u3", in: units, around: 10) == 3)
        #expect(TranslationValidation.near("u199", in: units, around: 190) == 199)
        #expect(TranslationValidation.near("none", in: units, around: 0) == nil)
        units[8].id = "twice"
        units[12].id = "twice"
        #expect(TranslationValidation.near("twice", in: units, around: 10) == 12)
    }

    @Test("a PO file over 8 MB, read in pieces on two threads at once, gives the entries one pass gives, obsolete ones and the header too")
    func piecesReadAsOne() throws {
        let text = Self.poText(entries: 45_000) { index in
            index == 30_000 ? "#~ msgid \"Gone\"\n#~ msgstr \"Parti\"\n" : nil
        }
        let bytes = Array(text.utf8)
        #expect(bytes.count >= POFile.splitSize, "the file is large enough to be split")
        let starts = bytes.withUnsafeBufferPointer { POFile.pieceStarts(in: $0, count: POFile.pieceCount) }
        #expect(starts.count == POFile.pieceCount - 1 && starts == starts.sorted() && Set(starts).count == starts.count)
        #expect(starts.allSatisfy { bytes[$0] == 0x0A && bytes[$0 - 1] == 0x0A }, "each piece starts at a blank line")
        let pieces = try POFile.translationFile(bytes)
        let whole = try Self.onePass(text)
        #expect(pieces.entries.count == 44_999)
        #expect(pieces.entries == whole.entries)
        #expect(pieces.obsolete == whole.obsolete && pieces.obsolete.map(\.source) == ["Gone"])
        #expect(pieces.declaredLanguage == "fr" && pieces.poHeader == whole.poHeader)
        // Entries of one chapter share their context's string, and it is the context written.
        #expect(pieces.entries[6].context == "Chapter 1" && pieces.entries[7].context == "Chapter 1")
        #expect(pieces.entries.last?.translationOffset == whole.entries.last?.translationOffset)
    }

    @Test("pieces start at blank lines, fewer where blank lines are rare, each after the one before")
    func pieceStarts() {
        // One blank line, between an eighth and a quarter of the file: one second piece.
        let head = String(repeating: "# a comment line\n", count: 80)
        let sparse = Array((head + "\n" + String(repeating: "# a comment line\n", count: 320)).utf8)
        let starts = sparse.withUnsafeBufferPointer { POFile.pieceStarts(in: $0, count: 8) }
        #expect(starts == [head.utf8.count])
        let early = Array(("msgid \"a\"\nmsgstr \"b\"\n\n" + String(repeating: "# a comment line\n", count: 400)).utf8)
        #expect(early.withUnsafeBufferPointer { POFile.pieceStarts(in: $0, count: 8) }.isEmpty, "no blank line after the first eighth")
        let none = Array(String(repeating: "# a comment line\n", count: 400).utf8)
        #expect(none.withUnsafeBufferPointer { POFile.pieceStarts(in: $0, count: 8) }.isEmpty)
    }

    @Test("an error in any piece is said at its own line in the file, the first piece's with one first, as one pass says it", arguments: [[40_000], [40_000, 100], [20_000], [20_000, 39_000]])
    func errorsInPieces(at entries: [Int]) throws {
        let text = Self.poText(entries: 45_000) { entries.contains($0) ? "msgid \"x\"\nmsgstir \"y\"\n" : nil }
        var pieces: POSyntaxError?
        do { _ = try POFile.translationFile(Array(text.utf8)) } catch { pieces = error }
        var whole: POSyntaxError?
        do { _ = try POFile.parse(Array(text.utf8)) } catch { whole = error }
        let error = try #require(pieces)
        #expect(error == whole)
        let line = text.split(separator: "\n", omittingEmptySubsequences: false).firstIndex { $0.hasPrefix("msgstir") }.map { $0 + 1 }
        #expect(error.line == line && error.column == 1 && error.problem == .unknownKeyword("msgstir"))
    }

    @Test("bytes that are not UTF-8 in a late piece are said at their line and column in the file, as one pass says them")
    func invalidUTF8InAPiece() throws {
        var bytes = Array(Self.poText(entries: 45_000) { $0 == 33_333 ? "msgid \"x\"\nmsgstr \"caf\u{E9}\"\n" : nil }.utf8)
        let at = try #require(bytes.firstIndex(of: 0xC3))
        bytes.replaceSubrange(at..<at + 2, with: [0xE9])  // é in Latin-1
        var pieces: POSyntaxError?
        do { _ = try POFile.translationFile(bytes) } catch { pieces = error }
        var whole: POSyntaxError?
        do { _ = try POFile.parse(bytes) } catch { whole = error }
        #expect(pieces != nil && pieces == whole)
        #expect(pieces?.problem == .invalidUTF8 && pieces?.line == bytes[..<at].filter { $0 == 0x0A }.count + 1)
    }

    @Test("an entry with an empty msgid opening a piece is an entry, not the file's header", arguments: [1, 5])
    func headerLikeEntryOpeningAPiece(piece: Int) throws {
        var text = Self.poText(entries: 45_000)
        let bytes = Array(text.utf8)
        let starts = bytes.withUnsafeBufferPointer { POFile.pieceStarts(in: $0, count: POFile.pieceCount) }
        let split = starts[piece - 1]
        text = String(decoding: bytes[..<split], as: UTF8.self) + "\nmsgid \"\"\nmsgstr \"vide\"\n" + String(decoding: bytes[split...], as: UTF8.self)
        let changed = Array(text.utf8)
        #expect(changed.withUnsafeBufferPointer { POFile.pieceStarts(in: $0, count: POFile.pieceCount) }.contains(split), "the entry opens a piece")
        let pieces = try POFile.translationFile(changed)
        let whole = try Self.onePass(text)
        #expect(pieces.entries == whole.entries)
        #expect(pieces.entries.contains { $0.source.isEmpty && $0.translation == "vide" })
        #expect(pieces.poHeader == whole.poHeader)
    }

    /// `count` strings in chapters of six, some texts repeated within a chapter, some awkward.
    static func units(_ count: Int) -> [TranslationUnit] {
        (0..<count).map { index in
            let chapter = index / 6
            let source: String
            switch index % 6 {
            case 0: source = "Chapter \(chapter)"
            case 4, 5: source = "Go back"
            case 3: source = "She said \"no\", \\ then\tleft.\nNext, " + String(repeating: "word ", count: index % 40) + "[[name]]\n"
            default: source = String(repeating: "A long line of text number \(index) ", count: 1 + index % 5)
            }
            return TranslationUnit(id: "chapter\(chapter).part.\(index % 6)", source: source, context: "Chapter \(chapter)", line: chapter * 3 + 2)
        }
    }

    @Test("a template of over 20,000 entries, made in pieces on other cores as it is written, is byte for byte the template a merge makes")
    func largeTemplate() throws {
        let units = Self.units(24_006)
        let merged = POFile.make(TranslationMerge(units: units, existing: nil, grouped: true), storyID: "big", storyName: "Big", language: nil, comments: ["Made here."])
        let pieces = POFile.templatePieces(units, storyID: "big", storyName: "Big", comments: ["Made here."])
        #expect(Array(pieces.pieces).count > 1, "written in pieces")
        #expect(pieces.entries == merged.entries.count && pieces.entries == 24_006 / 6 * 5)
        let made = MadeFile(pieces: pieces.pieces, entries: pieces.entries)
        let expected = merged.bytes
        #expect(made.isSame(as: expected))
        #expect(!made.isSame(as: Array(expected.dropLast())) && !made.isSame(as: nil))
        var changed = expected
        changed[expected.count - 10] ^= 1
        #expect(!made.isSame(as: changed))
        #expect(made.bytes == expected)
    }

    /// The reading order's rule, plainly (TranslationUnits' documentation): breadth-first from
    /// the first marked chapter, a choice leading to the first chapter of its id, then the
    /// chapters never reached in file order, a chapter whose id an earlier one holds left out
    /// and listed apart.
    static func plainReadingOrder(_ story: Story) -> (order: [Int], duplicates: [Int]) {
        var first: [String: Int] = [:]
        var duplicates: [Int] = []
        for (position, chapter) in story.chapters.enumerated() {
            if first[chapter.id] == nil { first[chapter.id] = position } else { duplicates.append(position) }
        }
        var seen = Set<Int>()
        var order: [Int] = []
        if let start = story.chapters.firstIndex(where: \.isFirstChapter) {
            seen.insert(start)
            order.append(start)
            var head = 0
            while head < order.count {
                for choice in story.chapters[order[head]].choices {
                    guard let next = first[choice.chapterID], seen.insert(next).inserted else { continue }
                    order.append(next)
                }
                head += 1
            }
        }
        order += story.chapters.indices.filter { !seen.contains($0) && !duplicates.contains($0) }
        return (order, duplicates)
    }

    @Test("the reading order is the rule's: repeated ids, choices to nowhere, back and forth, the first chapter anywhere or none marked", arguments: [false, true])
    func readingOrderRule(markedFirst: Bool) {
        for (count, seed) in [(2_501, UInt64(7)), (4_000, 11), (3, 5), (1, 2), (0, 1)] {
            var random = SplitMix64(state: seed)
            let ids = (0..<count).map { index in index % 97 == 5 ? "c\(index - 1)" : "c\(index)" }
            let start = count > 0 ? Int.random(in: 0..<count, using: &random) : 0
            let story = Story(id: "s", name: "S", rating: "G", summary: "", chapters: ids.enumerated().map { index, id in
                let choices = (0..<Int.random(in: 0...3, using: &random)).map { _ -> Choice in
                    let roll = Int.random(in: 0..<20, using: &random)
                    let target = roll == 0 ? "nowhere-\(index)" : roll < 4 ? ids[min(count - 1, index + 1)] : ids[Int.random(in: 0..<count, using: &random)]
                    return Choice(chapterID: target, text: "go")
                }
                return Chapter(id: id, name: id, text: "", isFirstChapter: markedFirst && index == start, choices: choices)
            })
            let expected = Self.plainReadingOrder(story)
            let found = TranslationUnits.readingOrderAndDuplicates(story)
            #expect(found.order == expected.order && found.duplicates == expected.duplicates, "\(count) chapters")
            // The choices' chapters found in two halves on two cores, as for a large story.
            let halves = TranslationUnits.readingOrderAndDuplicates(story, parallelFrom: 2)
            #expect(halves.order == expected.order && halves.duplicates == expected.duplicates, "\(count) chapters, in halves")
            #expect(TranslationUnits.readingOrder(story) == expected.order)
            #expect(Set(expected.order + expected.duplicates).count == count, "every chapter once")
        }
    }

    @Test("the template's strings, grouped by hash, are put in order as a plain sort puts them: every bit of the hash above the position, and positions in order where hashes are equal", arguments: [0, 1, 2, 1_000, 70_000])
    func hashesSorted(count: Int) {
        var generator = SplitMix64(state: UInt64(count) + 5)
        // Hashes drawn from a few hundred (many equal), from values differing in one digit of the
        // sort only, and from the whole range; a position below each, in order.
        let hashes: [UInt64] = (0..<count).map { index in
            switch index % 3 {
            case 0: UInt64(generator.next() % 300) << 24 &* 0x9E37_79B9
            case 1: (generator.next() % 4) << 60 | (generator.next() % 4) << 40 | (generator.next() % 4) << 30
            default: generator.next()
            }
        }
        let packed = hashes.indices.map { hashes[$0] & ~0xFF_FFFF | UInt64($0) }
        var sorted = packed
        TextGroups.sortAbove24Bits(&sorted)
        let expected = packed.sorted()
        #expect(sorted.count == expected.count)
        // Where the two first differ, if anywhere (the arrays themselves are too long to print).
        #expect(sorted.indices.first { sorted[$0] != expected[$0] } == nil)
    }

    @Test("strings Swift holds equal (a composed and a decomposed é) are one template entry, as in a merge, in a large template too")
    func canonicalEquivalence() throws {
        var units = Self.units(24_000)
        units.append(TranslationUnit(id: "x.title", source: "Caf\u{E9}", context: "Bar", line: 90_000))
        units.append(TranslationUnit(id: "y.title", source: "Cafe\u{301}", context: "Bar", line: 90_001))
        let merged = POFile.make(TranslationMerge(units: units, existing: nil, grouped: true), storyID: "big", storyName: "Big", language: nil)
        let direct = POFile.template(units, storyID: "big", storyName: "Big")
        #expect(String(decoding: direct.bytes, as: UTF8.self) == merged.text)
        #expect(merged.text.contains("#. id: x.title\n#. id: y.title\n"))
    }

    @Test("texts Swift holds equal hash alike in a template's groups: composed and decomposed, the Kelvin sign and K, the Greek question mark and ;, the varia and `")
    func textHashes() {
        let equal: [(String, String)] = [
            ("Caf\u{E9}", "Cafe\u{301}"), ("\u{212A}elvin", "Kelvin"), ("Why\u{37E}", "Why;"), ("\u{1FEF}a", "`a"), ("", ""), ("漢字 [[name]]", "漢字 [[name]]"),
            ("\u{212A}\u{37E}\u{1FEF}", "K;`"), ("\u{212A}afe\u{301}", "Kaf\u{E9}"), ("\u{212A}af\u{E9}", "Kafe\u{301}"),
        ]
        for (a, b) in equal {
            #expect(a == b)
            #expect(TextGroups.textHash(a) == TextGroups.textHash(b), "\(a.debugDescription) and \(b.debugDescription)")
        }
        let different = ["Cafe", "Caf\u{E9}", "Caf\u{E9} ", "caf\u{E9}", "a", "a\0", "", " ", String(repeating: "x", count: 40), String(repeating: "x", count: 41), "\u{212A}", "k", "\u{2126}"]
        #expect(Set(different.map { TextGroups.textHash($0) }).count == different.count)
        let composed = Array("a\u{212A}b\u{37E}c\u{1FEF}".utf8).withUnsafeBufferPointer { TextGroups.composedASCII($0) }
        #expect(composed == Array("aKb;c`".utf8))
        #expect(Array("a\u{E9}".utf8).withUnsafeBufferPointer { TextGroups.composedASCII($0) } == nil)
    }

    @Test("strings whose hashes collide are grouped by their text all the same, past the run length that makes a table of them")
    func collidingHashes() {
        // 60 strings of 25 texts (two of them written composed and decomposed), every hash equal.
        let texts = (0..<23).map { "Text \($0)" } + ["Caf\u{E9}", "Cafe\u{301}"]
        let units = (0..<60).map { index in
            TranslationUnit(id: "u\(index)", source: texts[(index * 7) % texts.count], context: index % 2 == 0 || index % 5 == 0 ? "A" : "B")
        }
        let (heads, next) = TextGroups.of(units, hashes: Array(repeating: 42, count: units.count))
        #expect(units.count > TextGroups.manyInARun * 2)
        // Each string's group, followed from its head, against the groups found by comparing every pair.
        var groups: [[Int]] = []
        for head in heads {
            var group: [Int] = []
            var index = Int(head)
            while index >= 0 {
                group.append(index)
                index = Int(next[index])
            }
            groups.append(group)
        }
        var expected: [[Int]] = []
        for index in units.indices {
            if let at = expected.firstIndex(where: { units[$0[0]].source == units[index].source && units[$0[0]].context == units[index].context }) {
                expected[at].append(index)
            } else {
                expected.append([index])
            }
        }
        #expect(groups == expected)
        #expect(TextGroups.of(units).heads == heads, "the hashes made from the texts group them the same")
    }

    @Test("a large story's strings, taken in two halves at once, come in reading order with their lines")
    func largeStoryUnits() throws {
        let count = 25_000
        let chapters = (0..<count).map { index in
            Chapter(
                id: "c\(index)", name: "Title \(index)", text: index % 2 == 0 ? "One.\n\nTwo, [[name]]." : "  \n\t\nOnly one\nline pair.\n\n",
                isFirstChapter: index == 0, choices: index + 1 < count ? [Choice(chapterID: "c\(index + 1)", text: "On"), Choice(chapterID: "c\(index + 1)", text: "Onward")] : [])
        }
        let units = TranslationUnits.extract(Story(id: "s", name: "S", rating: "G", summary: " ", chapters: chapters))
        var expected = ["story.name"]
        for index in 0..<count {
            expected.append("c\(index).title")
            expected += index % 2 == 0 ? ["c\(index).text.1", "c\(index).text.2"] : ["c\(index).text.1"]
            if index + 1 < count { expected += ["c\(index).choice.c\(index + 1)", "c\(index).choice.c\(index + 1).2"] }
        }
        #expect(units.map(\.id) == expected, "a blank summary has no string; a chapter's second choice to the same target counts 2")
        #expect(units[2].source == "One." && units[3].source == "Two, [[name]]." && units[7].source == "Only one\nline pair.")
    }

    @Test("a paragraph is the same whether its lines end in LF or CRLF: blank lines of spaces and tabs part paragraphs, inner breaks stay")
    func paragraphsWithoutCarriageReturns() {
        let texts = ["", "a", "a\n\nb", "\n\n  a\n b \n\t\n\n\nc\n", "one\ntwo\n \nthree", "   ", "x\n\t \ny", "é\n\n漢字 [[name]]\n\n"]
        for text in texts {
            let lf = Chapter.paragraphs(of: text)
            #expect(lf == Chapter.paragraphs(of: text.replacingOccurrences(of: "\n", with: "\r\n")), "\(text.debugDescription)")
        }
        #expect(Chapter.paragraphs(of: "\n\n  a\n b \n\t\n\n\nc\n") == ["  a\n b ", "c"])
        #expect(Chapter.paragraphs(of: "one\ntwo\n \nthree") == ["one\ntwo", "three"])
    }

    @Test("a string with only whitespace, as Character says (no-break and em spaces too), is no string to translate")
    func visibleText() {
        for blank in ["", " ", "\t\n\r\n", " \u{00A0}", "\u{2003}\u{85}", "\u{3000}"] { #expect(!TranslationUnits.hasVisibleText(blank), "\(blank.debugDescription)") }
        for text in [" a", "\u{00A0}x", "\u{2003}é", "漢", "\u{301}", "\u{1F98A}", "\t."] { #expect(TranslationUnits.hasVisibleText(text), "\(text.debugDescription)") }
    }

    @Test("status and reading find a string an entry lists second, far from where the file's order is, and still count the rest in order")
    func groupedFarApart() throws {
        var units = Self.units(60)
        units.append(TranslationUnit(id: "late.choice.x", source: "Go back", context: "Chapter 0", line: 500))
        let merge = TranslationMerge(units: units, existing: nil, grouped: true)
        var file = try TranslationFile.read(POFile.make(merge, storyID: "s", storyName: "S", language: "fr").bytes, format: .po)
        for index in file.entries.indices { file.entries[index].translation = "«" + file.entries[index].source + "»" }
        let status = Translations.status(file, language: "fr", units: units)
        #expect(status.translated == units.count && status.missing == 0 && status.fuzzy == 0)
        var ordered = InOrder(file)
        for unit in units { #expect(ordered.index(for: unit).map { file.entries[$0].ids.contains(unit.id) } == true, "\(unit.id)") }
        #expect(ordered.lookup == nil, "every string was found in order or among the grouped ids, without indexing the file")
    }

    /// What `placeholders(in:)` finds, read scalar by scalar: the reference the byte reading keeps to.
    static func placeholdersByScalars(_ text: String) -> [String] {
        var found: [String] = []
        let scalars = Array(text.unicodeScalars)
        var index = 0
        while index + 1 < scalars.count {
            guard scalars[index] == "[", scalars[index + 1] == "[" else {
                index += 1
                continue
            }
            var end = index + 2
            while end + 1 < scalars.count, !(scalars[end] == "]" && scalars[end + 1] == "]"), scalars[end] != "\n" { end += 1 }
            guard end + 1 < scalars.count, scalars[end] == "]" else { break }
            found.append(String(String.UnicodeScalarView(scalars[index...(end + 1)])))
            index = end + 2
        }
        return found.sorted()
    }

    @Test("placeholders are found in a text's bytes exactly as in its scalars: brackets beside accents, CJK, emoji and line breaks")
    func placeholdersInBytes() {
        var random = SplitMix64(state: 2026_11_28)
        let pieces = ["[", "]", "[[", "]]", "[[name]]", "[[nom]]", "\n", "a", "é", "e\u{301}", "漢", "🦊", " ", "[[é]]", "[[\n]]"]
        for _ in 0..<20_000 {
            let text = (0..<Int(random.next() % 12)).map { _ in pieces[Int(random.next() % UInt64(pieces.count))] }.joined()
            #expect(TranslationValidation.placeholders(in: text) == Self.placeholdersByScalars(text), "\(text.debugDescription)")
        }
        #expect(TranslationValidation.placeholders(in: "é[[name]]🦊[[x]") == ["[[name]]"])
    }

    @Test("applying a translation: twenty choices to one chapter, a repeated chapter id and blank strings are translated as their ids say")
    func applyKeepsIDs() throws {
        let back = (1...20).map { Choice(chapterID: "hall", text: "Back, way \($0)") } + [Choice(chapterID: "end", text: "Leave"), Choice(chapterID: "hall", text: "\u{00A0}")]
        let story = Story(
            id: "s", name: "Stairs", rating: "G", summary: "Up",
            chapters: [
                Chapter(id: "hall", name: "Hall", text: "One\n\nTwo [[name]]", isFirstChapter: true, choices: back),
                Chapter(id: "end", name: "End", text: "Done", picAlt: "A door"),
                Chapter(id: "hall", name: "Hall", text: "One\n\nAgain"),
            ])
        let units = TranslationUnits.extract(story)
        var file = try TranslationFile.read(POFile.make(TranslationMerge(units: units, existing: nil, grouped: true), storyID: "s", storyName: "Stairs", language: "fr").bytes, format: .po)
        for index in file.entries.indices { file.entries[index].translation = "FR " + file.entries[index].source }
        let applied = Translations.apply(file, language: "fr", to: story)
        let chapters = applied.story.chapters
        #expect(chapters[0].choices.prefix(21).map(\.text) == back.prefix(21).map { "FR " + $0.text })
        #expect(chapters[0].choices[21].text == "\u{00A0}", "a blank choice is no string")
        #expect(chapters[0].text == "FR One\n\nFR Two [[name]]")
        #expect(chapters[1].picAlt == "FR A door")
        // The chapter whose id the first holds is translated by the same entries, where they fit.
        #expect(chapters[2].name == "FR Hall" && chapters[2].text == "FR One\n\nAgain")
        #expect(applied.status.translated == units.count + 2 && applied.status.total == units.count + 3)
        #expect(Translations.status(file, language: "fr", units: units).translated == units.count)
    }

    @Test("a translation applied in two halves at once gives the story and the counts one pass gives: fuzzy, missing, stale and broken entries, a repeated id, a blank title where the halves meet, a file in another order")
    func applyInHalves() throws {
        var random = SplitMix64(state: 2026_11_29)
        var chapters: [Chapter] = []
        for index in 0..<600 {
            let id = index == 450 ? "c10" : "c\(index)"  // one id twice: the first is translated by it
            let choices = (0..<Int(random.next() % 4)).map { Choice(chapterID: "c\(Int(random.next() % 600))", text: "Go on \($0)") }
            let name = index == 300 ? " " : "Chapter \(index)"  // the middle chapter has no title to find
            chapters.append(
                Chapter(
                    id: id, name: name, text: "First [[name]] \(index)\n\nSecond \(index)", isFirstChapter: index == 0,
                    picAlt: index % 7 == 0 ? "A picture \(index)" : nil, choices: choices))
        }
        let story = Story(id: "s", name: "Halves", rating: "G", summary: "Two at once", chapters: chapters)
        let units = TranslationUnits.extract(story)
        var file = try TranslationFile.read(
            POFile.make(TranslationMerge(units: units, existing: nil, grouped: true), storyID: "s", storyName: "Halves", language: "fr").bytes, format: .po)
        for index in file.entries.indices {
            file.entries[index].translation = "FR " + file.entries[index].source
            switch random.next() % 10 {
            case 0: file.entries[index].translation = ""  // missing
            case 1: file.entries[index].isFuzzy = true
            case 2: file.entries[index].source += " (changed since)"
            case 3: file.entries[index].translation = "FR without its name"
            default: break
            }
        }
        var shuffled = file
        shuffled.entries.shuffle(using: &random)
        for file in [file, shuffled] {
            let whole = Translations.apply(file, language: "fr", to: story, halvesFrom: .max)
            let halves = Translations.apply(file, language: "fr", to: story, halvesFrom: 2)
            #expect(halves.status == whole.status)
            #expect(halves.story == whole.story)
            #expect(whole.status.translated > 300 && whole.status.fuzzy > 100 && whole.status.missing > 50, "\(whole.status)")
            // Translated enough that the comparison means something: titles, texts and choices.
            #expect(whole.story.chapters.count { $0.name.hasPrefix("FR ") } > 300)
            #expect(whole.story.chapters.count { $0.text.contains("FR Second") } > 300)
            #expect(whole.story.chapters.count { $0.choices.contains { $0.text.hasPrefix("FR ") } } > 200)
        }
        // The public entry applies a large story in halves; this one is small, so one pass.
        #expect(Translations.apply(file, language: "fr", to: story).story == Translations.apply(file, language: "fr", to: story, halvesFrom: 2).story)
        // Every chapter at its own place, what is not translated as it was.
        let applied = Translations.apply(file, language: "fr", to: story, halvesFrom: 2).story
        #expect(applied.chapters.map(\.id) == story.chapters.map(\.id))
        #expect(applied.chapters.map { $0.choices.map(\.chapterID) } == story.chapters.map { $0.choices.map(\.chapterID) })
        #expect(applied.chapters.map(\.isFirstChapter) == story.chapters.map(\.isFirstChapter))
    }

    @Test("a translation applied to a story whose first chapter repeats an earlier chapter's id: every chapter at its place, the repeat translated by the same entries")
    func applyWhereTheFirstChapterRepeatsAnID() throws {
        var chapters = (0..<40).map { index in
            Chapter(id: "c\(index)", name: "Chapter \(index)", text: "Text \(index)", choices: [Choice(chapterID: "c\((index + 1) % 40)", text: "On")])
        }
        // The chapter readers start at has the id of chapter 3, which comes before it.
        chapters[20] = Chapter(id: "c3", name: "Chapter 3", text: "Text 3", isFirstChapter: true, choices: [Choice(chapterID: "c4", text: "On")])
        let story = Story(id: "s", name: "Repeat", rating: "G", summary: "A repeated first chapter", chapters: chapters)
        let (order, duplicates) = TranslationUnits.readingOrderAndDuplicates(story)
        #expect(!Translations.isPermutation(order + duplicates, of: chapters.count), "the first chapter is both read first and a repeat")
        let units = TranslationUnits.extract(story)
        var file = try TranslationFile.read(
            POFile.make(TranslationMerge(units: units, existing: nil, grouped: true), storyID: "s", storyName: "Repeat", language: "fr").bytes, format: .po)
        for index in file.entries.indices { file.entries[index].translation = "FR " + file.entries[index].source }
        for halvesFrom in [2, Int.max] {
            let applied = Translations.apply(file, language: "fr", to: story, halvesFrom: halvesFrom).story
            #expect(applied.chapters.map(\.id) == story.chapters.map(\.id))
            #expect(applied.chapters.allSatisfy { $0.name == "FR " + story.chapter(id: $0.id)!.name && $0.text.hasPrefix("FR Text ") })
            #expect(applied.chapters[20].text == "FR Text 3" && applied.chapters[3].text == "FR Text 3")
        }
    }

    @Test("positions name every place once, or they do not")
    func positionsAsPermutation() {
        #expect(Translations.isPermutation([2, 0, 1], of: 3))
        #expect(Translations.isPermutation([], of: 0))
        #expect(!Translations.isPermutation([0, 0, 2], of: 3))
        #expect(!Translations.isPermutation([0, 1], of: 3))
        #expect(!Translations.isPermutation([0, 1, 3], of: 3))
        #expect(!Translations.isPermutation([0, 1, -1], of: 3))
        #expect(!Translations.isPermutation([0, 1, 2, 1], of: 3))
    }

    @Test("a PO file of over 16 MB is read where it is, mapped: the entries one pass gives, its pages given back once read, its errors where one pass says them")
    func mappedFile() throws {
        let folder = try TemporaryFolder()
        let text = Self.poText(entries: 80_000) { index in
            index == 50_000 ? "#~ msgid \"Gone\"\n#~ msgstr \"Parti\"\n" : nil
        }
        let path = try folder.write("translations/fr.po", text).path
        let source = try SourceBytes.open(path, limit: POFile.maximumSize)
        #expect(source.isMapped, "the file is large enough to be mapped")
        let mapped = try TranslationFile.read(source, format: .po)
        let whole = try Self.onePass(text)
        #expect(mapped.entries.count == 79_999 && mapped.entries == whole.entries)
        #expect(mapped.obsolete == whole.obsolete && mapped.poHeader == whole.poHeader)
        #expect(try Residency.resident(try #require(source.mapping)) < 1 << 20, "its pages went back once it was read")
        // The folder's reading is the same reading.
        let read = try TranslationFolder.read(TranslationFolder.LanguageFile(language: "fr", path: path, format: .po))
        #expect(read.file.entries == whole.entries && read.header == whole.poHeader)

        let broken = Self.poText(entries: 80_000) { $0 == 70_000 ? "msgid \"x\"\nmsgstir \"y\"\n" : nil }
        let brokenPath = try folder.write("translations/de.po", broken).path
        var expected: POSyntaxError?
        do { _ = try POFile.parse(Array(broken.utf8)) } catch { expected = error }
        let error = try #require(expected)
        #expect(throws: TranslationFolder.ReadFailure.syntax(path: brokenPath, TranslationReadError(error))) {
            try TranslationFolder.read(TranslationFolder.LanguageFile(language: "de", path: brokenPath, format: .po))
        }
    }

    /// A translation of `units` as cyd writes it (one entry a string, in the strings' order),
    /// every third translated, every seventh fuzzy.
    static func translation(of units: [TranslationUnit]) -> TranslationFile {
        let entries = units.enumerated().map { index, unit in
            TranslationEntry(
                ids: [unit.id], context: unit.context, source: unit.source, translation: index % 3 == 0 ? "" : "FR " + unit.source, isFuzzy: index % 7 == 0)
        }
        return TranslationFile(format: .po, entries: entries)
    }

    @Test("a status of over 20,000 strings, counted in two halves, is the count made string by string, whatever the file's order", arguments: ["in order", "the middle moved away", "the second half first", "no ids in the middle", "entries standing for several strings"])
    func statusInHalves(_ order: String) throws {
        let units = Self.units(30_000)
        var file = Self.translation(of: units)
        switch order {
        case "the middle moved away":
            // The entry of the second half's first string is far from where its place says.
            let moved = file.entries[14_000..<16_000]
            file.entries.removeSubrange(14_000..<16_000)
            file.entries.append(contentsOf: moved)
        case "the second half first":
            file.entries = Array(file.entries[15_000...] + file.entries[..<15_000])
        case "no ids in the middle":
            for index in 14_990..<15_010 { file.entries[index].ids = [] }
        case "entries standing for several strings":
            // Each chapter's "Go back" strings in one entry, as PO writes them.
            var grouped: [TranslationEntry] = []
            for entry in file.entries {
                if entry.ids.first?.hasSuffix(".part.5") == true, var last = grouped.popLast() {
                    last.ids += entry.ids
                    grouped.append(last)
                } else {
                    grouped.append(entry)
                }
            }
            file.entries = grouped
        default: break
        }
        let status = Translations.status(file, language: "fr", units: units)
        let reader = InOrder(file)
        let oneByOne = Translations.count(file, units[...], from: reader)
        // A file in the strings' order is read entry after entry: no table of its ids is made.
        #expect(reader.tables.made == (order != "in order"), "\(order)")
        #expect(units.count >= Translations.splittingFrom)
        #expect(status.translated == oneByOne.translated && status.fuzzy == oneByOne.fuzzy)
        #expect(status.total == 30_000 && status.missing == 30_000 - oneByOne.translated - oneByOne.fuzzy)
        #expect(status.translated > 10_000 && status.fuzzy > 1_000 && status.missing > 5_000)
    }

    @Test("a reader of strings from the middle starts at its first string's entry when it is near where its place says, else at the top; it shares the tables of the reader it started from")
    func startingInTheMiddle() throws {
        let units = Self.units(30_000)
        let file = Self.translation(of: units)
        let ordered = InOrder(file)
        #expect(ordered.starting(at: units[15_000], near: 14_000).next == 15_000)
        #expect(ordered.starting(at: units[15_000], near: 16_500).next == 15_000)
        #expect(ordered.starting(at: units[15_000], near: 5_000).next == 0, "too far: found the plain way")
        #expect(ordered.starting(at: TranslationUnit(id: "nowhere", source: "", context: ""), near: 15_000).next == 0)
        // A string out of order makes the file's index once, for both halves: the second reader
        // gets the one the first made.
        var first = ordered, second = ordered.starting(at: units[15_000], near: 15_000)
        #expect(first.tables === second.tables)
        #expect(first.index(for: units[20_000]) == 20_000 && second.index(for: units[3]) == 3)
        #expect(first.lookup != nil && second.lookup != nil)
        #expect(first.tables.lookup(file).file.entries.count == file.entries.count)
    }

    @Test("the table of strings by id finds each string, the last of an id used twice, and an id written composed or decomposed as one")
    func indexByID() {
        let units = [
            TranslationUnit(id: "a.title", source: "A", context: "A"), TranslationUnit(id: "Caf\u{E9}.title", source: "C", context: "C"),
            TranslationUnit(id: "a.title", source: "again", context: "A"), TranslationUnit(id: "b.text.1", source: "B", context: "B"),
        ] + (0..<2_000).map { TranslationUnit(id: "c\($0).title", source: "\($0)", context: "c") }
        let index = TranslationValidation.indexByID(units)
        #expect(index["a.title"] == 2, "the last of an id")
        #expect(index["Cafe\u{301}.title"] == 1)
        #expect(index["b.text.1"] == 3 && index["c1999.title"] == units.count - 1 && index["c0.title"] == 4)
        #expect(index["b.text.2"] == nil && index[""] == nil)
        // Ids kept as their parts, as a story's strings keep them, hashed and found as the same ids made whole.
        let parts = [
            TranslationUnit(key: .paragraph(1), source: "P", context: "C", chapter: "Caf\u{E9}"),
            TranslationUnit(key: .choice(target: "b", ordinal: 2), source: "Q", context: "C", chapter: "a"),
            TranslationUnit(id: "a.choice.b.2", source: "again", context: "C"),
            TranslationUnit(key: .title, source: "T", context: "T", chapter: String(repeating: "long-", count: 30)),
            TranslationUnit(id: "q.title", source: "Q", context: "Q"), TranslationUnit(key: .title, source: "Q2", context: "Q", chapter: "q"),
            TranslationUnit(key: .pictureAlt, source: "Z", context: "Z", chapter: "z"),
        ]
        let byParts = TranslationValidation.indexByID(parts)
        #expect(byParts["Cafe\u{301}.text.1"] == 0 && byParts["Caf\u{E9}.text.1"] == 0 && byParts["Caf\u{E9}.text.2"] == nil)
        #expect(byParts["a.choice.b.2"] == 2, "the last of an id, one kept as parts and one whole")
        #expect(byParts[String(repeating: "long-", count: 30) + ".title"] == 3)
        #expect(byParts["q.title"] == 5 && byParts["z.pic_alt"] == 6 && byParts["z.title"] == nil)
    }
}
