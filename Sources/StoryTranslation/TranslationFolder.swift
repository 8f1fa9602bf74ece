#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import LocalFiles
import StoryCheck
import StoryFormat

/// A story's translations/ folder as the translator's tools see it: its language files
/// (LANG.po, LANG.xlf), the languages LINGUAS lists, and the bytes of a file brought up to date.
/// It reads; the command line writes what it returns and words what fails.
public struct TranslationFolder: Sendable {
    /// A translation file of the folder.
    public struct LanguageFile: Sendable, Equatable {
        public var language: String
        public var path: String
        public var format: TranslationFile.Format
    }

    /// Why a language file could not be read.
    public enum ReadFailure: Error, Sendable, Equatable {
        /// The file itself could not be read.
        case unreadable(path: String, LocalFile.Failure)
        /// It was read and is not valid PO or XLIFF, at this place.
        case syntax(path: String, TranslationReadError)
    }

    /// The translations/ folder's path.
    public var path: String

    /// The translations folder of the story folder `storyFolder`.
    public init(storyFolder: String) {
        var folder = storyFolder
        while folder.count > 1, folder.hasSuffix("/") { folder.removeLast() }
        path = (folder == "/" ? "" : folder) + "/" + Linguas.folder
    }

    public func file(_ name: String) -> String { path + "/" + name }

    /// Its LANG.po and LANG.xlf files, by name; other files are not translations.
    public var languageFiles: [LanguageFile] {
        LocalFile.names(in: path).sorted().compactMap { name in
            guard let format = TranslationFile.Format(fileName: name), let language = TranslationValidation.language(ofFile: name) else { return nil }
            return LanguageFile(language: language, path: file(name), format: format)
        }
    }

    /// The languages LINGUAS lists that have no LANG.po or LANG.xlf, as LINGUAS writes them, in
    /// its order: readers are promised a language that is not there.
    public var listedWithoutFile: [String] {
        guard let bytes = try? LocalFile.read(file(Linguas.fileName), limit: 1 << 20) else { return [] }
        let present = Set(languageFiles.map { LanguageTag.normalise($0.language).lowercased() })
        var seen = Set<String>()
        return Linguas.languages(bytes).filter { language in
            let key = LanguageTag.normalise(language).lowercased()
            return !present.contains(key) && seen.insert(key).inserted
        }
    }

    /// The languages LINGUAS lists, lower case; nil when the folder has no LINGUAS.
    public var listed: Set<String>? {
        (try? LocalFile.read(file(Linguas.fileName), limit: 1 << 20)).map(Linguas.listed)
    }

    /// LINGUAS with `language` added at its end (nil when it is listed already); `header` starts
    /// a LINGUAS that does not exist yet.
    public func linguas(adding language: String, header: String) -> String? {
        var text = (try? LocalFile.read(file(Linguas.fileName), limit: 1 << 20)).map { String(decoding: $0, as: UTF8.self) } ?? header
        guard !Linguas.listed(Array(text.utf8)).contains(language.lowercased()) else { return nil }
        if !text.isEmpty, !text.hasSuffix("\n") { text += "\n" }
        return text + language + "\n"
    }

    /// A language file read, with its PO header when it is PO.
    public static func read(_ file: LanguageFile) throws(ReadFailure) -> (file: TranslationFile, header: POEntry?) {
        if file.format == .po { return try readPO(file.path) }
        let bytes: [UInt8]
        do {
            bytes = try LocalFile.read(file.path, limit: POFile.maximumSize)
        } catch {
            throw .unreadable(path: file.path, error)
        }
        do {
            let translation = try TranslationFile.read(bytes, format: file.format)
            return (translation, translation.poHeader)
        } catch {
            throw .syntax(path: file.path, error)
        }
    }

    /// A PO file read where it is: a large one is mapped, not copied into memory (no copy of
    /// its bytes to make, no memory to clear for them), and its pages go back once it is read.
    static func readPO(_ path: String) throws(ReadFailure) -> (file: TranslationFile, header: POEntry?) {
        let source: SourceBytes
        do {
            source = try SourceBytes.open(path, limit: POFile.maximumSize)
        } catch {
            throw .unreadable(path: path, error)
        }
        do {
            let translation = try TranslationFile.read(source, format: .po)
            return (translation, translation.poHeader)
        } catch {
            throw .syntax(path: path, error)
        }
    }

    /// The bytes of a file holding `merge`: PO (with the story's id and name, the old header
    /// kept, the revision date now) or XLIFF 2.1.
    public static func render(
        _ merge: TranslationMerge, storyID: String, storyName: String, language: String?, format: TranslationFile.Format, sourceLanguage: String,
        header: POEntry?, comments: [String], now: Int = time(nil)
    ) -> [UInt8] {
        switch format {
        case .po:
            POFile.make(
                merge, storyID: storyID, storyName: storyName, language: language, header: header, revisionDate: revisionDate(now), comments: comments
            ).bytes
        case .xliff: Array(XLIFF.make(merge, sourceLanguage: sourceLanguage, targetLanguage: language).utf8)
        }
    }

    /// A moment as PO headers write it, in UTC: `2026-11-26 14:05+0000`.
    public static func revisionDate(_ seconds: Int) -> String { UTCTime(Double(seconds)).poRevisionDate }
}
