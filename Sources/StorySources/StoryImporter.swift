#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import StoryCheck
import StoryFormat
import StoryStore
import StoryTranslation
import StoryValidation

/// What adding or refreshing a story did.
public struct ImportResult: Sendable {
    public var story: StoryRecord
    public var change: StoreResult.Change
    /// Findings from reading the story leniently (warnings, and errors that do not stop reading,
    /// such as a choice to a missing chapter).
    public var reports: [FileReport]
    /// Profiles whose chapter the new version no longer has.
    public var displacedReaders: [String]
}

/// Reading, checking and storing, composed: fetch a source's story file, read it the way readers
/// do (lenient, so published stories with trailing commas load), check it, and store the story.
/// Storage knows nothing of checking; the checker nothing of storage.
public struct StoryImporter: Sendable {
    public let library: StoryLibrary
    public var context: SourceContext

    public init(library: StoryLibrary, certificateAuthorities: String? = nil) {
        self.library = library
        context = SourceContext(location: library.location, certificateAuthorities: certificateAuthorities)
    }

    /// Adds (or refreshes) the story `text` names: a folder, a story file, an https story.json
    /// or a git URL.
    public func add(_ text: String, author: String? = nil, replace: Bool = false, unpinned: Bool = false, allowExpired: Bool = false) throws(SourceError) -> ImportResult {
        try importStory(from: Sources.recognise(text), author: author, replace: replace, unpinned: unpinned, allowExpired: allowExpired)
    }

    /// Fetches a known source again and stores what it holds now. A git repository the
    /// catalogue lists is fetched at the catalogue's commit and checked against its hashes (the
    /// keeper's check is what readers get, never a newer push).
    ///
    /// A story once stored at a pinned commit is never taken at an unpinned one (the catalogue
    /// dropped it after a push nobody checked, say): that throws `.noLongerPinned`, unless the
    /// reader asks for the repository's newest commit (`unpinned`). A pin of a catalogue whose
    /// signed root has expired throws `.catalogueExpired` unless the reader accepts it.
    public func importStory(
        from source: StorySource, author: String? = nil, replace: Bool = false, unpinned: Bool = false, allowExpired: Bool = false
    ) throws(SourceError) -> ImportResult {
        let fetched: FetchedStory
        let pin = source.kind == .git ? pin(for: source.location) : nil
        if let pin {
            if !allowExpired, let inUse = try? library.catalogueInUse(), inUse.trust.expiresAt <= Date().timeIntervalSince1970 {
                throw .catalogueExpired(source: inUse.source, at: inUse.trust.expiresAt)
            }
            fetched = try GitSource.fetch(source.location, pinned: pin, in: context)
        } else {
            if source.kind == .git, !unpinned, let commit = try? library.pinnedCommit(location: source.location) {
                throw .noLongerPinned(url: source.location, commit: commit)
            }
            fetched = try Sources.fetch(source, in: context)
        }
        let displayName = fetched.displayName
        // The fetched bytes themselves, not a copy: a report with findings keeps them too.
        var file: LoadedFile? = LoadedFile.load(SourceBytes(keeping: fetched.bytes), fileName: displayName, options: .readers)
        // Findings never decide whether a story is stored (only a story without a first chapter
        // is refused, which the model says), so the checker runs on another core while the story
        // is built and stored: a 100,000-chapter story is added in the time of reading and
        // storing it. Both threads only read the file, whose bytes are in memory (fetching reads
        // them whole), so no pass over a mapped file is shared.
        let checking = BackgroundWork { [file, bytes = fetched.bytes] in Self.check(file!, bytes, displayName: displayName) }
        guard let story = file!.story?.model(), story.firstChapter != nil else { throw .unreadable(reports: checking.wait()) }
        // The syntax tree is let go here (the checker lets go of its own when it is done), before
        // the translations are read beside the story.
        file = nil
        // From here on the story's bytes are the checker's alone: they are let go once it is done
        // (a report without findings keeps none), before the translations, often larger than
        // the story, are read beside it.
        let fetchedVersion = fetched.version
        _ = consume fetched
        let (translated, translationFiles, translationReports) = translations(of: source, at: fetchedVersion, story: story)
        // A folder's or a web file's version is a hash of story.json: a changed translation must
        // change it too, or the library would keep the old one.
        var version = fetchedVersion
        if source.kind != .git, !translationFiles.isEmpty { version += "+" + contentVersion(Array(translationFiles.joined().utf8)) }
        let stored: StoreResult
        do {
            stored = try library.store(story, source: source, version: version, author: author, replace: replace, translations: translated)
        } catch {
            throw .library(error)
        }
        // The story and its languages are freed on another thread while the answer is given.
        var stories: (Story, [StoredTranslation])? = (consume story, consume translated)
        LargeValues.release(&stories)
        if source.kind == .git {
            do { try library.recordPinned(location: source.location, commit: pin?.commit) } catch { throw .library(.worded(error, path: library.location.databasePath) ?? .storage(path: library.location.databasePath, failure: .other(code: -1, message: String(describing: error)))) }
        }
        return ImportResult(
            story: stored.story, change: stored.change, reports: checking.wait() + translationReports, displacedReaders: stored.displacedReaders)
    }

    /// Where a story's translations are: translations/LANG.po or LANG.xlf, for each language
    /// translations/LINGUAS lists (a folder's files are found without it).
    public static let translationsFolder = Linguas.folder

    /// The story in every language its source has, read at the same version; a file that cannot
    /// be read is left out, with its finding.
    /// The story's translations applied, the content version of each file read, and what could
    /// not be read. A file's bytes are let go once it is read, before it is applied: a large
    /// translation is not held twice over.
    func translations(of source: StorySource, at version: String, story: Story) -> (stored: [StoredTranslation], files: [String], reports: [FileReport]) {
        // A story file beside others (tide.json) has no translations/ of its own.
        guard source.kind != .file else { return ([], [], []) }
        var names: [String] = []
        if let list = try? Sources.file(Self.translationsFolder + "/" + Linguas.fileName, of: source, at: version, in: context) {
            names = Linguas.languages(list)
        }
        if source.kind == .folder, let files = try? FileManager.default.contentsOfDirectory(atPath: source.location + "/" + Self.translationsFolder) {
            for file in files.sorted() where TranslationFile.Format(fileName: file) != nil && !file.hasSuffix(".pot") && !file.hasPrefix("story.") {
                let stem = String(file[..<(file.lastIndex(of: ".") ?? file.endIndex)])
                if !names.contains(stem) { names.append(stem) }
            }
        }
        var stored: [StoredTranslation] = []
        var files: [String] = []
        var reports: [FileReport] = []
        for (language, name) in Linguas.languageFiles(names) {
            for format in TranslationFile.Format.allCases {
                let path = "\(Self.translationsFolder)/\(name).\(format.fileExtension)"
                var found: SourceBytes?
                do {
                    found = try Sources.fileSource(path, of: source, at: version, limit: context.maximumStoryBytes, in: context)
                } catch {
                    // Said, and left out: the story is stored without this language.
                    let finding = Diagnostic(
                        code: .translationUnreadable, severity: .error, message: "the translation cannot be read: \(error.description)", range: 0..<0)
                    reports.append(FileReport(path: path, bytes: [UInt8](), kind: nil, diagnostics: [finding]))
                    break
                }
                guard let bytes = found.take() else { continue }
                // The hash (about 0.03 s for 150 MB) runs on another core while the file is read
                // and applied here.
                let hashing = BackgroundWork { contentVersion(bytes) }
                var entries: TranslationFile?
                do {
                    entries = try TranslationFile.read(bytes, format: format)
                } catch {
                    // The importer's lenient reading; LINGUAS was read above, so it is not said again.
                    reports.append(Validation.check(translation: bytes.array, path: path, units: nil, listed: nil, options: .init(check: .readers)))
                    files.append(hashing.take())
                    break
                }
                _ = consume bytes  // the hash's copy is the last
                let translated = Translations.apply(entries!, language: language, to: story)
                // Its hundreds of thousands of strings are freed on another thread while the story is stored.
                LargeValues.release(&entries)
                stored.append(
                    StoredTranslation(language: language, story: translated.story, translated: translated.status.translated, total: translated.status.total))
                files.append(hashing.take())
                break
            }
        }
        return (stored, files, reports)
    }

    /// The version the catalogue pins for a repository: its checked commit and hashes, when the
    /// catalogue lists it as a story and knows its story.json's hash.
    public func pin(for url: String) -> Pin? {
        guard let entry = try? library.catalogueEntry(url: url), entry.isStory == true, let commit = entry.headCommit, let hash = entry.storySHA256 else {
            return nil
        }
        return Pin(commit: commit, storySHA256: hash, pictures: entry.pictureHashes)
    }


    private static func check(_ file: LoadedFile, _ bytes: [UInt8], displayName: String) -> [FileReport] {
        Validation.check(loaded: file, bytes: bytes, path: displayName, options: .init(check: .readers)).map { report in
            // Findings are shown with their lines; a report without any needs no bytes.
            guard report.diagnostics.isEmpty else { return report }
            var kept = report
            kept.bytes = SourceBytes([UInt8]())
            return kept
        }
    }
}
