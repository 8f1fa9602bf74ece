// The browser reader is built with the package trait BrowserReader only.
#if BrowserReader
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
/// that does not parse keeps it, and says why), every finding of `cyd validate` on the folder,
/// and the chapter map. Made anew on each change; a value, so a page is made from one
/// consistent reading.
public struct PreviewSnapshot: Sendable {
    /// Counts readings: a page knows it is out of date when the count moved on.
    public var version = 0
    /// The story shown (translated with `--lang`), from the last reading that could be read.
    public var story: Story?
    /// The chapter map of that story.
    public var map: ChapterMap?
    /// Every finding of the last reading, the broken one included.
    public var findings: [PreviewFinding] = []
    /// Why the last save is not shown: its first error, when story.json did not read as a story.
    public var problem: PreviewFinding?
    /// Chapters renamed by the last change: old id → new id (a page on the old id follows).
    public var renamed: [String: String] = [:]
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
    /// The folder read again after `previous`: story.json checked as `cyd validate` checks the
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
        let reports = (try? Validation.check(path: folder, options: options)) ?? []
        var findings: [PreviewFinding] = []
        var pointers: [String] = []
        var storyBytes: [UInt8]?
        for report in reports {
            let bytes = report.bytes.array
            let lines = LineIndex(bytes)
            let file = report.path.hasPrefix(folder + "/") ? String(report.path.dropFirst(folder.count + 1)) : report.path
            if file == "story.json" { storyBytes = bytes }
            for diagnostic in report.diagnostics {
                findings.append(
                    PreviewFinding(
                        file: file, code: diagnostic.code.rawValue, severity: diagnostic.severity, message: diagnostic.message,
                        position: lines.position(of: diagnostic.range.lowerBound), chapter: nil))
                pointers.append(file == "story.json" ? diagnostic.pointer : "")
            }
        }
        let bytes = storyBytes ?? (try? LocalFile.read(storyPath, limit: StoryVersion.largestStory))
        if let bytes, let syntax = LoadedFile.asReadersRead(bytes).story, var story = StoryJSON.model(syntax) {
            let chapterIDs = syntax.chapters.map { $0.id?.value }
            // A finding's pointer names its chapter by position: /story/chapters/12/...
            for (position, pointer) in pointers.enumerated() {
                if let number = chapterNumber(pointer), number < chapterIDs.count { findings[position].chapter = chapterIDs[number] }
            }
            if let language, let translated = Translations.found(in: folder, of: story, languages: [language]).stories.first { story = translated.story }
            if let old = previous.story {
                let newIDs = Set(story.chapters.map(\.id)), oldIDs = Set(old.chapters.map(\.id))
                let gone = old.chapters.filter { !newIDs.contains($0.id) }, arrived = story.chapters.filter { !oldIDs.contains($0.id) }
                for rename in StoryChanges.renames(gone, arrived) { next.renamed[rename.from.id] = rename.to.id }
            }
            next.story = story
            next.map = ChapterMap(syntax, graph: StoryGraph(syntax))
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
