#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import StoryCheck
import StoryFormat

/// A story being translated: its folder, its id and name, and every string a reader sees in
/// reading order (`TranslationUnits`), read leniently as readers read it.
public struct TranslationProject: Sendable {
    public var folder: String
    public var storyID: String
    public var name: String
    public var units: [TranslationUnit]
    /// The template's name without its extension: `story` (story.pot), or another project's.
    public var templateStem: String

    public var translations: TranslationFolder { TranslationFolder(storyFolder: folder) }

    /// Why a path is not a story to translate.
    public enum LoadError: Error, Sendable {
        /// The path cannot be read (missing, not a file or folder, unreadable).
        case input(ValidationTarget.InputError)
        /// It names a file, not a story folder with story.json.
        case notAStoryFolder(String)
        /// Its story.json cannot be read as a story (`displayPath`, as the folder names it).
        case notAStory(displayPath: String)
    }

    public init(folder: String, storyID: String, name: String, units: [TranslationUnit], templateStem: String = "story") {
        (self.folder, self.storyID, self.name, self.units, self.templateStem) = (folder, storyID, name, units, templateStem)
    }

    /// The template's file in translations/: story.pot (or story.xlf) for a story.
    public func templateFileName(_ format: TranslationFile.Format) -> String { templateStem + "." + format.fileExtension + (format == .po ? "t" : "") }

    /// A language file of the project, read or not.
    public typealias ReadFile = (file: TranslationFolder.LanguageFile, read: Result<(file: TranslationFile, header: POEntry?), TranslationFolder.ReadFailure>)

    /// The story folder at `path` (a folder holding story.json, or its story.json).
    public static func load(_ path: String) throws(LoadError) -> TranslationProject {
        try loadReading(path, translations: false).project
    }

    /// The story folder at `path` and, when `translations`, each of its language files read:
    /// the files are read on a thread of their own while the story is read on this one.
    /// Each string's line in story.json is found only when `lines` (what `file` and the
    /// template write as references; counting and checking translations do not need it).
    public static func loadReading(_ path: String, translations: Bool = true, lines: Bool = true) throws(LoadError) -> (project: TranslationProject, files: [ReadFile]) {
        let target: ValidationTarget
        do { target = try ValidationTarget.resolve(path) } catch { throw .input(error) }
        guard let folder = target.folder, target.displayPath.hasSuffix("story.json") else { throw .notAStoryFolder(path) }
        let files = translations ? TranslationFolder(storyFolder: folder.root.path).languageFiles : []
        if !files.isEmpty { ThreadHeaps.writableWhole() }  // strings by the hundred thousand, made on other threads
        let reading = files.isEmpty ? nil : BackgroundWork<[ReadFile]> { read(files) }
        let project = try loadStory(target, folder: folder, lines: lines)
        return (project, reading?.wait() ?? [])
    }

    /// The project with its language files read (when `translations`), here and now.
    public func reading(_ translations: Bool = true) -> (project: TranslationProject, files: [ReadFile]) {
        (self, translations ? Self.read(self.translations.languageFiles) : [])
    }

    static func read(_ files: [TranslationFolder.LanguageFile]) -> [ReadFile] {
        files.map { file in (file, Result { () throws(TranslationFolder.ReadFailure) in try TranslationFolder.read(file) }) }
    }

    static func loadStory(_ target: ValidationTarget, folder: StoryFolder, lines: Bool) throws(LoadError) -> TranslationProject {
        // Mapped when large, as validation reads it: no copy of the file in memory.
        let bytes: SourceBytes
        do { bytes = try target.source() } catch { throw .input(error) }
        let file = LoadedFile.asReadersRead(bytes)
        guard let syntax = file.story, let units = TranslationUnits.extract(syntax, lines: lines), let id = syntax.id?.value, let name = syntax.name?.value else {
            throw .notAStory(displayPath: target.displayPath)
        }
        return TranslationProject(folder: folder.root.path, storyID: id, name: name, units: units)
    }
}

extension TranslationProject {
    /// The translation file of `language` (a tag, compared without case), when there is one.
    public func languageFile(_ language: String) -> TranslationFolder.LanguageFile? {
        let wanted = LanguageTag.normalise(language).lowercased()
        return translations.languageFiles.first { $0.language.lowercased() == wanted }
    }

    /// The files of these languages (every file when `languages` is empty).
    public func languageFiles(_ languages: [String]) -> [TranslationFolder.LanguageFile] {
        let wanted = Set(languages.map { LanguageTag.normalise($0).lowercased() })
        return translations.languageFiles.filter { wanted.isEmpty || wanted.contains($0.language.lowercased()) }
    }

    /// The bytes of a file of this story's strings in `format`: the template (no `language`, no
    /// `existing`), or a translation into `language` made from `existing` (its translations kept,
    /// fuzzy where the text changed, following renamed chapters), with the merge that made it.
    /// The template is written straight from the strings where the format does that.
    public func file(
        _ format: TranslationFile.Format, language: String? = nil, existing: TranslationFile? = nil, header: POEntry? = nil,
        sourceLanguage: String, comments: [String], now: Int = time(nil)
    ) -> MadeFile {
        if language == nil, existing == nil, format.writesTemplateDirectly {
            let (pieces, entries) = POFile.templatePieces(units, storyID: storyID, storyName: name, comments: comments)
            return MadeFile(pieces: pieces, entries: entries, counts: nil)
        }
        let merge = TranslationMerge(units: units, existing: existing, grouped: format.groupsSameText)
        let bytes = TranslationFolder.render(
            merge, storyID: storyID, storyName: name, language: language, format: format, sourceLanguage: sourceLanguage, header: header,
            comments: comments, now: now)
        return MadeFile(pieces: [bytes], entries: merge.entries.count, counts: merge.counts)
    }
}

/// A file made from a story's strings: its bytes, in pieces to be written one after the other
/// (a large template is made as it is written, on both cores), its entries, and the merge's
/// counts when it was made from an earlier translation.
public struct MadeFile: Sendable {
    public var pieces: FilePieces
    public var entries: Int
    public var counts: TranslationMerge.Counts?

    public init(pieces: FilePieces, entries: Int, counts: TranslationMerge.Counts? = nil) {
        self.pieces = pieces
        self.entries = entries
        self.counts = counts
    }

    public init(pieces: [[UInt8]], entries: Int, counts: TranslationMerge.Counts? = nil) {
        self.init(pieces: FilePieces(pieces), entries: entries, counts: counts)
    }

    /// The bytes in one array.
    public var bytes: [UInt8] { Array(pieces.joined()) }

    /// Whether `other` holds these bytes, compared piece by piece as they are made.
    public func isSame(as other: [UInt8]?) -> Bool {
        guard let other else { return false }
        var start = 0
        let same = other.withUnsafeBufferPointer { whole in
            for piece in pieces where !piece.isEmpty {
                guard start + piece.count <= whole.count else { return false }
                let same = piece.withUnsafeBufferPointer { memcmp(whole.baseAddress! + start, $0.baseAddress!, piece.count) == 0 }
                guard same else { return false }
                start += piece.count
            }
            return true
        }
        return same && start == other.count
    }
}
