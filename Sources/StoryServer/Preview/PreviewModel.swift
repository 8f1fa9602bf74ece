// The browser reader is built with the package trait BrowserReader only.
#if BrowserReader
import Dispatch
import Foundation
import LocalFiles
import StoryAnalysis
import StoryCheck
import StoryDiff
import StoryFormat
import StoryTranslation
import StoryValidation

/// A finding as the preview shows it: where (file, line:column) and which chapter it is about.
public struct PreviewFinding: Sendable, Hashable {
    public var file: String
    public var code: String
    public var severity: Severity
    public var message: String
    public var position: SourcePosition
    /// The chapter the finding is about (its pointer names one), when it is about one.
    public var chapter: String?
}

/// The story folder as the preview last read it: the last story that could be read (a save
/// that does not parse keeps it, and says why), every finding of the validator on the folder,
/// and the chapter map. Made anew on each change; a value, so a page is made from one
/// consistent reading.
public struct PreviewSnapshot: Sendable {
    /// Counts readings: a page knows it is out of date when the count moved on.
    public var version = 0
    /// The story shown (translated into the language asked for), from the last reading that could be read.
    public var story: Story?
    /// The chapter map of that story.
    public var map: ChapterMap?
    /// Every finding of the last reading, the broken one included.
    public var findings: [PreviewFinding] = []
    /// Why the last save is not shown: its first error, when story.json did not read as a story.
    public var problem: PreviewFinding?
    /// Chapters renamed by the last change: old id → new id (a page on the old id follows).
    public var renamed: [String: String] = [:]
    /// The language asked for when the folder has no translation into it: the story
    /// is shown as written, and the page says so.
    public var missingLanguage: String?
    /// How many times the editor asked for a chapter, and the last it asked for.
    public var asked = 0
    public var askedChapter: String?
    /// When the reading was made (seconds since 1970), and how long it took.
    public var readAt = 0.0
    public var seconds = 0.0

    public func chapter(_ id: String) -> Chapter? { story?.chapters.first { $0.id == id } }
    public func findings(of chapter: String) -> [PreviewFinding] { findings.filter { $0.chapter == chapter } }
    public var firstChapter: String? { story?.firstChapter?.id ?? story?.chapters.first?.id }
}

/// Reads a story folder for the preview.
public enum PreviewReading {
    /// The folder read again after `previous`: story.json checked as the validator checks the
    /// folder (with the translation into `language`), the story kept from `previous` when the
    /// new bytes are not a story.
    public static func read(folder: String, language: String?, after previous: PreviewSnapshot) -> PreviewSnapshot {
        let started = Date()
        var next = previous
        next.version = previous.version + 1
        next.renamed = [:]
        next.problem = nil
        let storyPath = folder + "/story.json"
        let options = Validation.Options(check: CheckOptions(pointers: true), languages: language.map { [$0] } ?? [])
        // story.json is read once: its tree gives the findings, as the validator finds them in
        // the folder, and the story.
        let bytes = try? LocalFile.read(storyPath, limit: StoryVersion.largestStory)
        let loaded = bytes.map { LoadedFile.load($0, fileName: storyPath) }
        // The findings, and beside them (the other core) the story, its map and its renames.
        let results = Lock()
        nonisolated(unsafe) var reports: [FileReport] = []
        nonisolated(unsafe) var shown: (story: Story, syntax: StorySyntax, map: ChapterMap, renamed: [String: String], missing: String?)?
        DispatchQueue.concurrentPerform(iterations: 2) { task in
            guard let bytes else { return }
            if task == 0 {
                let found = Validation.check(storyFolder: folder, loaded: loaded!, bytes: bytes, options: options)
                results.withLock { reports = found }
                return
            }
            // A story only readers' leniency reads (a trailing comma) is read again so.
            guard let syntax = loaded?.story ?? LoadedFile.asReadersRead(bytes).story, var story = StoryJSON.model(syntax) else { return }
            var missing: String?
            if let language {
                let found = Translations.found(in: folder, of: story, languages: [language])
                if let translated = found.stories.first { story = translated.story } else { missing = language }
            }
            var renamed: [String: String] = [:]
            if let old = previous.story {
                let newIDs = Set(story.chapters.map(\.id)), oldIDs = Set(old.chapters.map(\.id))
                let gone = old.chapters.filter { !newIDs.contains($0.id) }, arrived = story.chapters.filter { !oldIDs.contains($0.id) }
                for rename in StoryChanges.renames(gone, arrived) { renamed[rename.from.id] = rename.to.id }
            }
            let map = ChapterMap(syntax, graph: StoryGraph(syntax))
            results.withLock { shown = (story, syntax, map, renamed, missing) }
        }
        var findings: [PreviewFinding] = []
        var pointers: [String] = []
        for report in reports where !report.diagnostics.isEmpty {
            let lines = LineIndex(report.bytes.array)
            let file = report.path.hasPrefix(folder + "/") ? String(report.path.dropFirst(folder.count + 1)) : report.path
            for diagnostic in report.diagnostics {
                findings.append(
                    PreviewFinding(
                        file: file, code: diagnostic.code.rawValue, severity: diagnostic.severity, message: diagnostic.message,
                        position: lines.position(of: diagnostic.range.lowerBound), chapter: nil))
                pointers.append(file == "story.json" ? diagnostic.pointer : "")
            }
        }
        if let shown {
            // A finding's pointer names its chapter by position: /story/chapters/12/...
            for (position, pointer) in pointers.enumerated() {
                if let number = chapterNumber(pointer), number < shown.syntax.chapters.count { findings[position].chapter = shown.syntax.chapters[number].id?.value }
            }
            next.story = shown.story
            next.map = shown.map
            next.renamed = shown.renamed
            next.missingLanguage = shown.missing
        } else {
            next.problem = findings.first { $0.file == "story.json" && $0.severity == .error }
                ?? PreviewFinding(file: "story.json", code: "", severity: .error, message: bytes == nil ? "story.json cannot be read" : "story.json is not a story", position: SourcePosition(line: 1, column: 1), chapter: nil)
        }
        next.findings = findings
        next.readAt = Date().timeIntervalSince1970
        next.seconds = Date().timeIntervalSince(started)
        return next
    }

    /// The chapter's position in a pointer `/story/chapters/N...`.
    static func chapterNumber(_ pointer: String) -> Int? {
        let prefix = "/story/chapters/"
        guard pointer.hasPrefix(prefix) else { return nil }
        return Int(pointer.dropFirst(prefix.count).prefix { $0.isNumber })
    }
}
#endif
