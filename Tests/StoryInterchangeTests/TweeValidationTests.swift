import StoryCheck
import StoryFormat
import StoryInterchange
import Testing

/// `cyd validate story.twee`: a Twee file (or a Twine archive) read as the import reads it, every
/// rule applied to the story it gives, each finding at its place in the file the author edits.
@Suite("Validating Twee files")
struct TweeValidationTests {
    static let tweeRules = RuleCatalogue.descriptions.filter { $0.category == .twee }

    static func check(_ example: RuleExample) -> [Diagnostic] {
        let bytes = example.bytesAndMarkers.bytes
        let notation = TweeValidation.Notation(path: example.fileName)!
        return TweeValidation.check(bytes: bytes, path: example.fileName, notation: notation).flatMap(\.diagnostics)
    }

    @Test("each Twee rule's examples: the failing ones reported at their markers with the rule's severity, the passing ones not", arguments: tweeRules)
    func examples(rule: RuleDescription) {
        #expect(!rule.triggering.isEmpty && !rule.nonTriggering.isEmpty)
        for example in rule.triggering {
            let markers = example.bytesAndMarkers.markers
            let found = Self.check(example).filter { $0.code == rule.code }
            #expect(!markers.isEmpty, "\(rule.code): mark where the finding points")
            for marker in markers {
                #expect(found.contains { $0.range.lowerBound == marker }, "\(rule.code) not at byte \(marker); found at \(found.map(\.range.lowerBound))")
            }
            #expect(found.allSatisfy { $0.severity == rule.severity })
            #expect(found.allSatisfy { !($0.message.first?.isUppercase ?? true) && !$0.message.hasSuffix(".") }, "worded as a rule: \(found.map(\.message))")
        }
        for example in rule.nonTriggering {
            let found = Self.check(example).filter { $0.code == rule.code }
            #expect(found.isEmpty, "\(rule.code) reported for:\n\(example.source)\n\(found.map(\.message))")
        }
    }

    /// Positions as (line, column), as `cyd validate` shows them.
    static func positions(_ text: String, path: String = "story.twee") -> [String: [SourcePosition]] {
        let bytes = Array(text.utf8)
        let reports = TweeValidation.check(bytes: bytes, path: path, notation: TweeValidation.Notation(path: path)!)
        var found: [String: [SourcePosition]] = [:]
        for diagnostic in ResolvedReport(reports[0]).diagnostics { found[diagnostic.diagnostic.code.rawValue, default: []].append(diagnostic.start) }
        return found
    }

    @Test("story rules point into the Twee file: a choice to nowhere at its link, a text finding at its line, a chapter's at its header")
    func storyRulesInTheFile() {
        let found = Self.positions("""
            :: StoryTitle
            The Lamp

            :: StoryData
            {"format": "Harlowe", "start": "Hall"}

            :: Hall
            It is dark.
            You hear [[a voice->Voice]] below.
            Hello [[nmae]].
              [[Cellar]]

            :: Cellar
            Cold.

            :: Lost
            Nobody comes here.
            """)
        // CYD302 (choice to nowhere): the inline link and the link on a line of its own.
        #expect(found["CYD302"] == [SourcePosition(line: 9, column: 10), SourcePosition(line: 10, column: 7)], "\(found)")
        // CYD501 (unreachable chapter): at the passage's name.
        #expect(found["CYD501"] == [SourcePosition(line: 16, column: 4)], "\(found)")
        // The summary Twee cannot hold is a note, not an error.
        #expect(found["CYD203"]?.count == 1)
        let notes = TweeValidation.check(bytes: Array(":: Start\nHi.\n".utf8), path: "a.twee", notation: .twee)[0].diagnostics
        #expect(notes.filter { $0.code.rawValue == "CYD203" }.allSatisfy { $0.severity == .note }, "\(notes.map(\.code))")
    }

    @Test("a story's many findings (over 20,000, moved into the file in two halves at once) each point at their own passage, in order")
    func manyFindings() {
        var text = ":: Start\nHere.\n\n"
        for number in 0..<25_000 { text += ":: Lost \(number)\nNobody comes here.\n\n" }
        let found = Self.positions(text)["CYD501"] ?? []
        // Passage n's header is on line 4 + 3n; the finding is at its name.
        #expect(found.count == 25_000)
        #expect(found == (0..<25_000).map { SourcePosition(line: 4 + 3 * $0, column: 4) })
    }

    @Test("a text finding points at its line of the passage, after lines that were links")
    func textLines() {
        // An escape sequence (CYD704) on the third line of the chapter's text.
        let found = Self.positions(":: Start\nFirst line.\n[[End]]\nSecond line.\nThird \u{1B}[31mred.\n\n:: End\nThe end.\n")
        #expect(found["CYD704"] == [SourcePosition(line: 5, column: 1)], "\(found)")
    }

    @Test("a file that cyd exported validates clean, and its findings point where the passage is")
    func exported() throws {
        let story = Story(id: "s", name: "S", rating: "G", summary: "A story.", chapters: [
            Chapter(id: "a", name: "A", text: "Hello.", isFirstChapter: true, choices: [Choice(chapterID: "b", text: "On")]),
            Chapter(id: "b", name: "B", text: "The end.", isEnding: true),
        ])
        let twee = try TweeStory.twee(story)
        let reports = TweeValidation.check(bytes: Array(twee.utf8), path: "s.twee", notation: .twee)
        #expect(reports[0].diagnostics.isEmpty, "\(reports[0].diagnostics.map(\.message))")
        #expect(reports[0].summary?.chapters == 2)
        // The same story with a choice to nowhere, written by hand into the exported file.
        let broken = twee.replacingOccurrences(of: "[[On->b]]", with: "[[On->c]]")
        let line = broken.split(separator: "\n", omittingEmptySubsequences: false).firstIndex { $0 == "[[On->c]]" }! + 1
        #expect(Self.positions(broken)["CYD302"] == [SourcePosition(line: line, column: 1)])
    }

    @Test("a Twine archive: findings at the passage's element")
    func archive() throws {
        let html = """
            <tw-storydata name="Lamp" startnode="1">
            <tw-passagedata pid="1" name="Hall">Dark. [[Cellar]]</tw-passagedata>
            <tw-passagedata pid="2" name="Attic">Dusty.</tw-passagedata>
            </tw-storydata>
            """
        let found = Self.positions(html, path: "story.html")
        #expect(found["CYD302"]?.first?.line == 2, "\(found)")
        #expect(found["CYD501"]?.first?.line == 3, "\(found)")
    }

    @Test("a Twine archive on one line (as Twine writes it): every finding on line 1, none on line 0 (found by fuzzing)")
    func archiveOnOneLine() throws {
        let html = #"<tw-storydata name="Lamp" startnode="1"><tw-passagedata pid="1" name="Hall">Dark. (set: $x to 1) [[Cellar]]</tw-passagedata><tw-passagedata pid="2" name="Attic">Dusty.</tw-passagedata><tw-passagedata pid="3" name="Attic">Again.</tw-passagedata></tw-storydata>"#
        let imported = TwineArchive.story(from: Array(html.utf8))
        #expect(!imported.findings.isEmpty && imported.findings.allSatisfy { $0.line == 1 }, "\(imported.findings)")
        let found = Self.positions(html, path: "story.html")
        #expect(!found.isEmpty && found.values.allSatisfy { $0.allSatisfy { $0.line == 1 } }, "\(found)")
    }

    @Test("--select and --ignore apply to the Twee rules too")
    func selection() {
        let bytes = Array("stray\n:: Start\n(set: $x to 1)Hi.\n".utf8)
        let ignored = TweeValidation.check(bytes: bytes, path: "a.twee", notation: .twee, options: CheckOptions(ignore: ["twee"]))[0].diagnostics
        #expect(!ignored.contains { $0.code.rawValue.hasPrefix("CYD15") })
        let selected = TweeValidation.check(bytes: bytes, path: "a.twee", notation: .twee, options: CheckOptions(select: ["twee-macro"]))[0].diagnostics
        #expect(selected.map(\.code.rawValue) == ["CYD153"])
    }
}
