import StoryFormat
import StorySources
import StoryStore
import StorySync

/// What a reader's STORY names in the catalogue, or why it names nothing there, in cyd's words.
public enum CatalogueLookup {
    /// Finds a catalogue entry by id (author/repository), URL, or a title that only one story has.
    public static func entry(_ reference: String, in library: StoryLibrary) throws -> CatalogueEntry {
        let entries = try library.catalogue().filter { $0.isStory == true }
        let lower = reference.lowercased()
        if let entry = entries.first(where: { $0.url == reference }) { return entry }
        let byID = entries.filter { $0.id.lowercased() == lower }
        if byID.count > 1 {
            // Two repositories under one id (any case): never pick one at random.
            let urls = byID.prefix(8).map { VisibleText.escape($0.url) }
            throw CLIError("'\(VisibleText.escape(reference))' is ambiguous: \(byID.count) repositories have that id (\(urls.joined(separator: ", "))); give the repository URL")
        }
        if let entry = byID.first { return entry }
        let byTitle = entries.filter { $0.title?.lowercased() == lower }
        if byTitle.count == 1 { return byTitle[0] }
        let partial = entries.filter { $0.title?.lowercased().contains(lower) == true || $0.id.lowercased().contains(lower) }
        if partial.count == 1 { return partial[0] }
        if partial.count > 1 || byTitle.count > 1 {
            let names = (byTitle.isEmpty ? partial : byTitle).prefix(8).map { "\(VisibleText.escape($0.id)) (\(VisibleText.escape($0.title ?? "")))" }
            throw CLIError("'\(VisibleText.escape(reference))' matches several stories: \(names.joined(separator: ", ")); give the id")
        }
        // Known, but not offered: say why and since when.
        let all = try library.catalogue()
        if let failing = all.first(where: { $0.id.lowercased() == lower || $0.url == reference }), failing.isStory != true {
            var why = failing.lastError ?? "it has not been checked yet"
            if let since = failing.brokenSince ?? failing.failingSince { why += " (failing since \(SyncWords.date(since)))" }
            throw CLIError("'\(VisibleText.escape(failing.id))' is in the catalogue but not offered: \(VisibleText.escape(why)); `cyd validate \(VisibleText.escape(failing.id))` shows every finding")
        }
        throw CLIError("no story '\(VisibleText.escape(reference))' in the catalogue; `cyd list --available` shows the ids (run `cyd sync` first)")
    }

    public static func notFound(_ reference: String, in library: StoryLibrary) -> String {
        if let entry = try? StoryReference.catalogueEntry(reference, in: library) {
            return "'\(VisibleText.escape(entry.id))' is in the catalogue but not downloaded; `cyd get \(VisibleText.escape(entry.id))` downloads it"
        }
        return "no story '\(VisibleText.escape(reference))' in the library (a library id, a catalogue id like author/repository, a folder or a URL); `cyd list` shows the library"
    }

    /// A command-line STORY in the library, or an error saying what it is and how to get it.
    public static func require(_ reference: String, in library: StoryLibrary) throws -> StoryRecord {
        if let story = try StoryReference.find(reference, in: library) { return story }
        throw CLIError(notFound(reference, in: library))
    }

    /// For `cyd read`: a story in the library, or a source added on the way (so the place is kept).
    public static func findOrAdd(_ reference: String, importer: StoryImporter) throws -> StoryRecord {
        if let story = try StoryReference.find(reference, in: importer.library) {
            // A folder or a file is the author's or the translator's own, read as it is now: a
            // changed story.json or translation is stored again first (unchanged, nothing is).
            guard let source = try? Sources.recognise(reference), source.kind == .folder || source.kind == .file, Int64(reference) == nil else { return story }
            do {
                return try importer.add(reference).story
            } catch {
                throw CLIError("\(VisibleText.escape(reference)): \(VisibleText.escape(Words.source(error)))")
            }
        }
        if try StoryReference.catalogueEntry(reference, in: importer.library) != nil { throw CLIError(notFound(reference, in: importer.library)) }
        do {
            return try importer.add(reference).story
        } catch .unrecognised {
            throw CLIError(notFound(reference, in: importer.library))
        } catch {
            throw CLIError("\(VisibleText.escape(reference)): \(VisibleText.escape(Words.source(error)))")
        }
    }

    /// A story named by a catalogue id or a URL, fetched but not stored (`cyd validate`); nil
    /// when the reference is neither.
    public static func fetchUnstored(_ reference: String, importer: () throws -> StoryImporter) throws -> FetchedStory? {
        guard StoryReference.isCatalogueID(reference) || StoryReference.isURL(reference) else { return nil }
        do {
            return try StoryReference.fetchUnstored(reference, importer: try importer())
        } catch let failure as StoryReference.FetchFailure {
            switch failure {
            case .notInCatalogue:
                throw CLIError("\(VisibleText.escape(reference)) is neither a file nor a story in the catalogue; `cyd list --available` shows the catalogue's ids")
            case .unrecognised(let error): throw CLIError(VisibleText.escape(Words.source(error)))
            case .source(let error): throw CLIError("cannot read \(VisibleText.escape(reference)): \(VisibleText.escape(Words.source(error)))")
            }
        }
    }
}
