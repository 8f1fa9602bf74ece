#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import LocalFiles
import StoryCheck
import StoryFormat
import StoryInterchange
import StoryTranslation

/// The one way to validate anything the tools are given, path or bytes -> findings, with the
/// whole rule catalogue: `cyd validate`, the language server, the importer (`cyd add`, `get`,
/// `read`) and the keeper's sync all come here, so which checker runs on what, and how a
/// translation finds its story and LINGUAS, is decided once.
///
/// - a story folder: its story.json (with the picture and README checks) and every file of its
///   translations/ against it;
/// - story.json or authors.json (told apart by their content);
/// - a Twee file (.twee, .tw) or a Twine archive (.html, .htm), read as the importer reads it;
/// - a translation (.po, .pot, .xlf, .xliff), against the story two folders up.
public enum Validation {
    /// What a file is, by its name.
    public enum Kind: Sendable, Equatable {
        /// story.json or authors.json (or any other name: JSON is the story format).
        case json
        case twee(TweeValidation.Notation)
        case translation(TranslationFile.Format)

        public init(fileName: String) {
            if let format = TranslationFile.Format(fileName: fileName) {
                self = .translation(format)
            } else if let notation = TweeValidation.Notation(path: fileName) {
                self = .twee(notation)
            } else {
                self = .json
            }
        }
    }

    public struct Options: Sendable {
        public var check: CheckOptions
        /// Translations of these languages only (BCP 47 tags), their untranslated strings
        /// reported too; empty: every language, untranslated strings not reported.
        public var languages: [String]

        public init(check: CheckOptions = .init(), languages: [String] = []) {
            self.check = check
            self.languages = languages
        }

        var wanted: Set<String> { Set(languages.map { LanguageTag.normalise($0).lowercased() }) }
    }

    /// Why a path could not be validated at all (its findings are another matter).
    public enum InputError: Error, Sendable {
        /// The path does not lead to a file that can be read (the sentence names it).
        case unreadable(ValidationTarget.InputError)
        /// A language was asked for and the story's translations/ has no file of it.
        case noTranslation(folder: String, language: String)
        /// A translation named alone, with no story.json two folders up to check it against.
        case noStoryBeside(translation: String, story: String)
    }

    /// Everything `path` holds, checked: a folder, a story or authors file, Twee, a translation.
    public static func check(path: String, options: Options = .init()) throws(InputError) -> [FileReport] {
        let target: ValidationTarget
        do { target = try ValidationTarget.resolve(path) } catch { throw .unreadable(error) }
        guard let folder = target.folder else {
            switch Kind(fileName: target.displayPath) {
            case .json:
                do { return try target.check(options: options.check) } catch { throw .unreadable(error) }
            case .twee(let notation):
                let bytes: [UInt8]
                do { bytes = try target.read(limit: TweeStory.largestFile) } catch { throw .unreadable(error) }
                return TweeValidation.check(bytes: bytes, path: target.displayPath, notation: notation, options: options.check)
            case .translation:
                return try translation(atPath: target.displayPath, options: options)
            }
        }
        // The translations are read and parsed on a thread of their own while the story is
        // checked on this one; their checks then use the story read for its own.
        let root = folder.root.path
        let shown = target.displayPath
        let names = translationFileNames(ofFolder: root)
        if !names.isEmpty { ThreadHeaps.writableWhole() }  // strings by the hundred thousand, made on other threads
        let translations = BackgroundWork { Result { () throws(InputError) in try prepareTranslations(names, ofFolder: root, shownAs: shown, options: options) } }
        let source: SourceBytes
        do { source = try target.source() } catch {
            _ = translations.wait()
            throw .unreadable(error)
        }
        let loaded = Checker.load(source, path: shown, options: options.check)
        let file = loaded.file
        var reports = Checker.check(loaded, path: shown, folder: folder, options: options.check)
        // When there are translations, the story's strings are taken while they are still being
        // read, not after.
        // Findings name the translation files' lines, never story.json's: strings are not placed.
        var units = names.isEmpty ? nil : file.story.flatMap { TranslationUnits.extract($0, lines: false) }
        var prepared = Optional(try translations.take().get())
        reports += checked(prepared!, ofFolder: root, options: options) { [units] in units ?? file.story.flatMap { TranslationUnits.extract($0, lines: false) } }
        // A large story's strings and translations are freed elsewhere: the report need not wait.
        if (units?.count ?? 0) >= Self.releasedElsewhere {
            LargeValues.release(&units)
            LargeValues.release(&prepared)
        }
        return reports
    }

    /// From this many strings, a story's strings and translations are freed on another thread.
    static let releasedElsewhere = 20_000

    /// A file's bytes, checked as its name says: an editor's unsaved text, a fetched story. A
    /// translation is checked against `story` (the story.json bytes it translates, nil when not
    /// known) and `listed` (whether LINGUAS lists its language; nil when there is no LINGUAS).
    public static func check(
        bytes: [UInt8], path: String, folder: StoryFolder? = nil, story: [UInt8]? = nil, listed: Set<String>? = nil, options: Options = .init()
    ) -> [FileReport] {
        switch Kind(fileName: path) {
        case .json:
            return Checker.check(bytes: bytes, path: path, folder: folder, options: options.check)
        case .twee(let notation):
            return TweeValidation.check(bytes: bytes, path: path, notation: notation, folder: folder, options: options.check)
        case .translation:
            let units = story.flatMap { TranslationUnits.extract(storyFile: $0, lines: false) }
            return [translation(bytes, path: path, units: units, listed: listed, options: options)]
        }
    }

    /// A story or authors file already read (the importer and the sync read it once, for
    /// storing or using it and for checking it).
    public static func check(loaded file: LoadedFile, bytes: [UInt8], path: String, options: Options = .init()) -> [FileReport] {
        Checker.check(file, bytes: bytes, path: path, options: options.check)
    }

    /// The same (its bytes those `file` was read from), with the chapter graph the checks built
    /// (nil when the file holds no story).
    public static func checkKeepingGraph(loaded file: LoadedFile, path: String, options: Options = .init()) -> (reports: [FileReport], graph: StoryGraph?) {
        Checker.checkKeepingGraph(file, path: path, options: options.check)
    }

    /// A story folder whose story.json is already read (`file`, from `bytes`): what `check(path:)`
    /// finds in the folder, without reading story.json again (the live preview reads it once
    /// for its findings and its story).
    public static func check(storyFolder folder: String, loaded file: LoadedFile, bytes: [UInt8], options: Options = .init()) -> [FileReport] {
        let shown = folder.hasSuffix("/") ? folder + "story.json" : folder + "/story.json"
        var reports = Checker.check(file, bytes: bytes, path: shown, folder: StoryFolder(root: URL(fileURLWithPath: folder)), options: options.check)
        // The translations are checked against the story already read, not story.json read again.
        let units = { file.story.flatMap { TranslationUnits.extract($0, lines: false) } ?? TranslationUnits.extract(storyFile: bytes, lines: false) }
        reports += (try? translations(ofFolder: folder, shownAs: shown, options: options, units: units)) ?? []
        return reports
    }

    /// A translation's bytes, whose story and LINGUAS are already known: the importer's files.
    public static func check(translation bytes: [UInt8], path: String, units: [TranslationUnit]?, listed: Set<String>?, options: Options = .init()) -> FileReport {
        translation(bytes, path: path, units: units, listed: listed, options: options)
    }

    // MARK: - Translations

    /// Every translation file of a story folder against its story.json (shown as `storyPath`);
    /// with `options.languages`, those only, and each must have a file.
    /// `units`: the story's strings, when the story is already read (made only if a translation
    /// is there to check).
    static func translations(
        ofFolder folder: String, shownAs storyPath: String, options: Options, units storyUnits: (() -> [TranslationUnit]?)? = nil
    ) throws(InputError) -> [FileReport] {
        checked(
            try prepareTranslations(translationFileNames(ofFolder: folder), ofFolder: folder, shownAs: storyPath, options: options), ofFolder: folder,
            options: options, units: storyUnits)
    }

    /// The reports of translations read and parsed, checked against the story's strings
    /// (`storyUnits`, or the folder's story.json read for them), only when there is one.
    static func checked(
        _ prepared: (files: [PreparedTranslation], listed: Set<String>?), ofFolder folder: String, options: Options,
        units storyUnits: (() -> [TranslationUnit]?)? = nil
    ) -> [FileReport] {
        guard !prepared.files.isEmpty else { return [] }
        let units = storyUnits?() ?? Self.storyUnits(folder + "/story.json")
        return prepared.files.map { translation($0.source, parsed: $0.parsed, path: $0.shown, units: units, listed: prepared.listed, options: options) }
    }

    /// A translation file read (`shown` as the report names it) and parsed, not yet checked.
    struct PreparedTranslation: Sendable {
        var shown: String
        /// Its bytes: a large file's mapped, its pages given back once it is read.
        var source: SourceBytes
        var parsed: Result<TranslationFile, TranslationReadError>
    }

    /// The names of the PO and XLIFF files in a story folder's translations/, sorted.
    static func translationFileNames(ofFolder folder: String) -> [String] {
        LocalFile.names(in: TranslationFolder(storyFolder: folder).path).filter { TranslationFile.Format(fileName: $0) != nil }.sorted()
    }

    /// The translation files `translations(ofFolder:)` checks (of `names`, the folder's), read
    /// and parsed, and LINGUAS's list.
    static func prepareTranslations(
        _ names: [String], ofFolder folder: String, shownAs storyPath: String, options: Options
    ) throws(InputError) -> (files: [PreparedTranslation], listed: Set<String>?) {
        let translations = TranslationFolder(storyFolder: folder)
        let shownFolder = storyPath.hasSuffix("story.json") ? String(storyPath.dropLast("story.json".count)) : ""
        let wanted = options.wanted
        let candidates = names.filter { name in
            wanted.isEmpty || TranslationValidation.language(ofFile: name).map { wanted.contains($0.lowercased()) } == true
        }
        for language in wanted.sorted() where !candidates.contains(where: { TranslationValidation.language(ofFile: $0)?.lowercased() == language }) {
            throw .noTranslation(folder: shownFolder + Linguas.folder, language: language)
        }
        guard !candidates.isEmpty else { return ([], nil) }
        var files: [PreparedTranslation] = []
        for name in candidates {
            let shown = shownFolder + Linguas.folder + "/" + name
            let source: SourceBytes
            do { source = try FileBytes.source(translations.file(name), displayPath: shown, limit: POFile.maximumSize) } catch { throw .unreadable(error) }
            let format = TranslationFile.Format(fileName: shown) ?? .po
            files.append(PreparedTranslation(shown: shown, source: source, parsed: Result { () throws(TranslationReadError) in try TranslationFile.read(source, format: format) }))
        }
        return (files, translations.listed)
    }

    /// One translation file named alone, against the story two folders up.
    static func translation(atPath path: String, options: Options) throws(InputError) -> [FileReport] {
        let bytes: [UInt8]
        do { bytes = try FileBytes.read(path, limit: POFile.maximumSize) } catch { throw .unreadable(error) }
        let translations = AtomicFile.parentFolder(of: path)
        let folder = AtomicFile.parentFolder(of: translations)
        let storyFile = (folder.hasSuffix("/") ? folder : folder + "/") + "story.json"
        guard FileStatus(storyFile) != nil else { throw .noStoryBeside(translation: path, story: storyFile) }
        return [translation(bytes, path: path, units: storyUnits(storyFile), listed: TranslationFolder(storyFolder: folder).listed, options: options)]
    }

    static func translation(_ bytes: [UInt8], path: String, units: [TranslationUnit]?, listed: Set<String>?, options: Options) -> FileReport {
        let format = TranslationFile.Format(fileName: path) ?? .po
        return translation(
            SourceBytes(keeping: bytes), parsed: Result { () throws(TranslationReadError) in try TranslationFile.read(bytes, format: format) }, path: path, units: units,
            listed: listed, options: options)
    }

    static func translation(
        _ bytes: SourceBytes, parsed: Result<TranslationFile, TranslationReadError>, path: String, units: [TranslationUnit]?, listed: Set<String>?, options: Options
    ) -> FileReport {
        let name = String(path.split(separator: "/").last ?? "")
        let language = TranslationValidation.language(ofFile: name)
        let isListed = language.map { listed?.contains($0.lowercased()) ?? true } ?? true
        let untranslated = language.map { options.wanted.contains($0.lowercased()) } ?? false
        return TranslationValidation.check(
            source: bytes, parsed: parsed, path: path, context: .init(language: language, units: units, reportUntranslated: untranslated, listed: isListed),
            options: options.check)
    }

    /// The story's strings, or nil when it cannot be read (its own report says why).
    static func storyUnits(_ path: String) -> [TranslationUnit]? {
        (try? FileBytes.read(path)).flatMap { TranslationUnits.extract(storyFile: $0, lines: false) }
    }
}
