import StoryCheck
import StoryFormat

/// `cyd validate` of a Twee file or a Twine archive: the file is read as `cyd import` reads it,
/// every rule runs on the story it gives, and every finding points into the file the author
/// edits (a choice to nowhere at its link, a text finding at its line, the rest at the passage's
/// header), beside what reading the notation found (CYD15x).
public enum TweeValidation {
    /// The notations read here, by a file's name.
    public enum Notation: Sendable {
        case twee, twineArchive

        /// `.twee` and `.tw` are Twee; `.html` and `.htm` a Twine archive or published story.
        public init?(path: String) {
            let name = path.lowercased()
            if name.hasSuffix(".twee") || name.hasSuffix(".tw") {
                self = .twee
            } else if name.hasSuffix(".html") || name.hasSuffix(".htm") {
                self = .twineArchive
            } else {
                return nil
            }
        }

        public func read(_ bytes: [UInt8]) -> TweeStory.Imported {
            switch self {
            case .twee: TweeStory.story(from: bytes)
            case .twineArchive: TwineArchive.story(from: bytes)
            }
        }
    }

    public static func check(bytes: [UInt8], path: String, notation: Notation, folder: StoryFolder? = nil, options: CheckOptions = .init()) -> [FileReport] {
        // The file's lines are found on another core while it is read.
        let indexing = BackgroundWork { LineIndex(bytes) }
        var imported = notation.read(bytes)
        let lines = indexing.take()
        var diagnostics = Self.diagnostics(imported.findings, in: bytes, lines: lines).filter { options.keeps($0.code) }
        guard let story = imported.story.take() else {
            return [FileReport(path: path, bytes: bytes, kind: .story, diagnostics: diagnostics.sortedBySeverityThenPosition())]
        }
        // The story.json the import would write, checked; its findings moved into the file. The
        // story itself is freed on another thread once written.
        let json = StoryJSON.bytes(story)
        var written: Story? = consume story
        LargeValues.release(&written)
        let file = LoadedFile.load(SourceBytes(json), fileName: "story.json", options: .init(), resolvingPointers: false)
        var reports = Checker.check(file, path: path, folder: folder, options: options)
        let places = Places(file: file, json: json, imported: imported, twee: bytes, lines: lines, notation: notation)
        var mine = reports.removeFirst()
        diagnostics += places.moved(mine.diagnostics, carriedMetadata: imported.carriedMetadata)
        mine = FileReport(path: path, bytes: bytes, kind: .story, diagnostics: diagnostics.sortedBySeverityThenPosition(), summary: mine.summary)
        return [mine] + reports
    }

    /// The notation's findings as diagnostics, each at its place in `bytes`.
    public static func diagnostics(_ findings: [TweeFinding], in bytes: [UInt8]) -> [Diagnostic] {
        diagnostics(findings, in: bytes, lines: LineIndex(bytes))
    }

    static func diagnostics(_ findings: [TweeFinding], in bytes: [UInt8], lines: LineIndex) -> [Diagnostic] {
        // In the file's order (passages are looked at before their text).
        let ordered = findings.enumerated().sorted { ($0.element.line, $0.element.column, $0.offset) < ($1.element.line, $1.element.column, $1.offset) }
        return ordered.map(\.element).map { finding in
            let (code, message, help) = words(finding.kind)
            let offset = Self.offset(line: finding.line, column: finding.column, in: bytes, lines: lines)
            let severity = RuleCatalogue.description(of: code)?.severity ?? .warning
            return Diagnostic(code: code, severity: severity, message: message, help: help, range: offset..<offset)
        }
    }

    /// The byte where a 1-based line and column (in Unicode scalars) is.
    static func offset(line: Int, column: Int, in bytes: [UInt8], lines: LineIndex) -> Int {
        guard line >= 1, line <= lines.lineCount else { return bytes.count }
        var at = lines.start(ofLine: line)
        var left = column - 1
        while left > 0, at < bytes.count, bytes[at] != 0x0A {
            at += 1
            while at < bytes.count, bytes[at] & 0xC0 == 0x80 { at += 1 }
            left -= 1
        }
        return at
    }

    static func words(_ kind: TweeFinding.Kind) -> (DiagnosticCode, String, String?) {
        func quoted(_ value: String) -> String { "'" + VisibleText.escape(value) + "'" }
        switch kind {
        case .noPassages:
            return (.tweeNoPassages, "no passage: a Twee passage starts with a line beginning '::'", "start each passage with a line ':: Name'")
        case .textOutsidePassages:
            return (.tweeTextOutsidePassages, "text before the first passage is not part of any chapter; it is left out", "move it into a passage, or delete it")
        case .codeLeftOut(let passage):
            return (.tweeCodePassage, "passage \(quoted(passage)) is code for a story format; stories hold no code, so it is left out", nil)
        case .macroKeptAsText(let passage, let code):
            return (.tweeMacro, "\(quoted(code)) in passage \(quoted(passage)) is story-format code; readers here show it as text", "rewrite it as text and choices")
        case .setterLeftOut(let passage, let setter):
            return (.tweeLinkSetter, "the link in passage \(quoted(passage)) also sets \(quoted(setter)); the choice is kept, the setter left out", nil)
        case .duplicatePassage(let name) where TweeStory.storyPassages.contains(name):
            return (.tweeDuplicatePassage, "a second \(quoted(name)) passage is left out: the first is the story's", "merge the two into the first")
        case .duplicatePassage(let name):
            return (.tweeDuplicatePassage, "a second passage named \(quoted(name)) is left out (chapter ids must differ)", "rename one of the two passages")
        case .startMissing(let name):
            return (.tweeStartMissing, "the start \(quoted(name)) in StoryData names no passage; reading starts at Start or the first passage", "name the first passage in StoryData's start")
        case .unreadableData(let passage):
            return (.tweeUnreadableData, "\(quoted(passage)) does not hold JSON; it is left out", nil)
        case .passageMetadataLeftOut(let passage, let member?):
            return (
                .tweeUnreadableData, "the metadata of passage \(quoted(passage)) holds \(quoted(member)), which a story cannot keep; only the position and size are kept",
                nil
            )
        case .passageMetadataLeftOut(let passage, nil):
            return (.tweeUnreadableData, "the metadata of passage \(quoted(passage)) does not hold JSON; its position and size are left out", "write it as {\"position\":\"600,400\",\"size\":\"100,100\"}")
        case .noStory:
            return (
                .tweeNoPassages, "no story: a Twine archive or published story holds a <tw-storydata> element, outside scripts and comments",
                "archive the story from Twine's library (Library > Archive), or publish it to a file"
            )
        case .noArchivePassages(let story):
            return (.tweeNoPassages, "the story \(quoted(story)) has no passages (<tw-passagedata> elements)", "add a passage to the story in Twine, then archive it again")
        case .storyCodeLeftOut(let isScript):
            return (.tweeCodePassage, "the story's \(isScript ? "JavaScript" : "stylesheet") is code for a story format; stories hold no code, so it is left out", nil)
        case .archiveCutShort(let story, nil):
            return (
                .twineArchiveCutShort, "the file ends inside the story \(quoted(story)), before its </tw-storydata> end tag: it is cut short, so no story is read from it",
                "archive the story again from Twine's library (Library > Archive); if this file is all there is, end it with </tw-storydata>"
            )
        case .archiveCutShort(let story, let passage?):
            return (
                .twineArchiveCutShort,
                "the file ends inside passage \(quoted(passage)) of the story \(quoted(story)), before its </tw-passagedata> end tag: it is cut short, so no story is read from it",
                "archive the story again from Twine's library (Library > Archive); if this file is all there is, end it with </tw-passagedata></tw-storydata>"
            )
        case .notUTF8(let byte):
            return (
                .invalidUTF8, "invalid UTF-8 byte 0x\(Hex.byte(byte)): Twee files and Twine archives are UTF-8, so no story is read from this one",
                "save the file as UTF-8 (in most editors: File > Save with Encoding > UTF-8)"
            )
        case .utf16:
            return (
                .invalidUTF8, "the file is UTF-16: Twee files and Twine archives are UTF-8, so no story is read from this one",
                "save the file as UTF-8 (in most editors: File > Save with Encoding > UTF-8)"
            )
        case .moreStories:
            return (.twineMoreStories, "the archive holds more stories; the first is read", "archive the story you want alone from Twine's library")
        }
    }

    /// Where the parts of the story.json the import writes came from in the Twee file.
    struct Places {
        /// Each chapter's object in the JSON, in order: its range, and its text's and choices'.
        var chapters: [(range: Range<Int>, text: Range<Int>?, choices: [Range<Int>])] = []
        var storyName: Range<Int>?
        /// The story's rating and summary (and the keys before them).
        var storyOwn: [ClosedRange<Int>] = []
        let json: [UInt8]
        let imported: TweeStory.Imported
        let twee: [UInt8]
        let lines: LineIndex
        let notation: Notation

        init(file: LoadedFile, json: [UInt8], imported: TweeStory.Imported, twee: [UInt8], lines: LineIndex, notation: Notation) {
            self.notation = notation
            self.json = json
            self.imported = imported
            self.twee = twee
            self.lines = lines
            guard let syntax = file.story, let document = file.document else { return }
            storyName = syntax.name.map { document.range($0.node) }
            // From the key's quote (a finding may point there) to the value's end.
            storyOwn = [syntax.rating, syntax.summary].compactMap { $0 }.map { value in
                let range = document.range(value.node)
                var key = range.lowerBound - 1
                while key > 0, json[key] != 0x0A { key -= 1 }
                return key...range.upperBound
            }
            chapters = syntax.chapters.map { chapter in
                (document.range(chapter.node), chapter.textNode.map { document.range($0) }, syntax.choices(of: chapter).map { document.range($0.node) })
            }
        }

        /// The story.json's findings at their places in the Twee file; a story's many findings
        /// moved in two halves at once.
        func moved(_ findings: [Diagnostic], carriedMetadata: Bool) -> [Diagnostic] {
            guard findings.count >= 20_000 else { return moved(findings[...], carriedMetadata: carriedMetadata) }
            let middle = findings.count / 2
            let second = BackgroundWork { [self] in moved(findings[middle...], carriedMetadata: carriedMetadata) }
            var first = moved(findings[..<middle], carriedMetadata: carriedMetadata)
            var rest = second.take()
            first.appendMoving(&rest, leaving: .movedOut)
            return first
        }

        func moved(_ findings: ArraySlice<Diagnostic>, carriedMetadata: Bool) -> [Diagnostic] {
            var moved: [Diagnostic] = []
            moved.reserveCapacity(findings.count)
            for var diagnostic in findings {
                // Twee has no place for a rating or a summary: unless cyd's metadata passage carries
                // them, what is said of them is for the story.json the import writes.
                if !carriedMetadata, storyOwn.contains(where: { $0.contains(diagnostic.range.lowerBound) }) {
                    diagnostic.severity = .note
                    diagnostic.help = "Twee has no place for it: set it in the story.json the import writes"
                }
                let at = offset(for: diagnostic.range.lowerBound)
                diagnostic.range = at..<at
                diagnostic.related = diagnostic.related.map { related in
                    let at = offset(for: related.range.lowerBound)
                    return RelatedLocation(message: related.message, range: at..<at)
                }
                moved.append(diagnostic)
            }
            return moved
        }

        /// The byte in the Twee file for a byte of the story.json.
        func offset(for offset: Int) -> Int {
            let map = imported.places
            // The chapter whose object holds the offset (the objects are in order).
            var low = 0
            var high = chapters.count
            while low < high {
                let middle = (low + high) / 2
                if chapters[middle].range.upperBound <= offset { low = middle + 1 } else { high = middle }
            }
            guard low < chapters.count, chapters[low].range.contains(offset), low < map.chapters.count else {
                if let name = storyName, name.contains(offset), let title = map.storyTitle { return header(title) }
                if let line = map.metadata ?? map.storyData { return header(line) }
                return 0
            }
            let chapter = chapters[low]
            let places = map.chapters[low]
            if let links = places.choices {
                for (number, choice) in chapter.choices.enumerated() where choice.contains(offset) && links.lowerBound + number < links.upperBound {
                    let link = map.choices[links.lowerBound + number]
                    // In an archive a passage's text starts inside its element's line: its line.
                    let within = notation == .twineArchive ? 0 : link.byte
                    return min(twee.count, lines.start(ofLine: min(lines.lineCount, max(1, link.line))) + within)
                }
            }
            if let text = chapter.text, text.contains(offset), let textLines = places.textLines, !textLines.isEmpty {
                // The text's line: the line feeds (written `\n`) before the offset in the string.
                var breaks = 0
                var at = text.lowerBound + 1
                while at < offset {
                    if json[at] == 0x5C {
                        if at + 1 < json.count, json[at + 1] == 0x6E { breaks += 1 }
                        at += 2
                    } else {
                        at += 1
                    }
                }
                let line = Int(map.textLines[min(textLines.lowerBound + breaks, textLines.upperBound - 1)])
                return lines.start(ofLine: line)
            }
            // An archive's passage is an element: its line is where it starts.
            return notation == .twineArchive ? lines.start(ofLine: min(lines.lineCount, max(1, places.header))) : header(places.header)
        }

        /// A passage's name on its header line (after `:: `).
        func header(_ line: Int) -> Int {
            guard line >= 1, line <= lines.lineCount else { return 0 }
            var at = lines.start(ofLine: line)
            if at + 1 < twee.count, twee[at] == 0x3A, twee[at + 1] == 0x3A {
                at += 2
                while at < twee.count, twee[at] == 0x20 || twee[at] == 0x09 { at += 1 }
            }
            return at
        }
    }
}
