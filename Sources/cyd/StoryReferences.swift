import CydWords
import StoryFormat
import StorySources
import StoryStore
import StorySync

/// A command-line STORY, found through StorySources' `StoryReference` and worded here.
enum StoryReferences {
    /// The story, or an error saying what the reference is and how to get it.
    static func require(_ reference: String, in library: StoryLibrary) throws -> StoryRecord {
        if let story = try StoryReference.find(reference, in: library) { return story }
        throw CLIError(CatalogueLookup.notFound(reference, in: library))
    }

    /// For `cyd read`: a story in the library, or a source added on the way (so the place is kept).
    static func findOrAdd(_ reference: String, importer: StoryImporter) throws -> StoryRecord {
        if let story = try StoryReference.find(reference, in: importer.library) { return story }
        if try StoryReference.catalogueEntry(reference, in: importer.library) != nil { throw CLIError(CatalogueLookup.notFound(reference, in: importer.library)) }
        do {
            return try importer.add(reference).story
        } catch .unrecognised {
            throw CLIError(CatalogueLookup.notFound(reference, in: importer.library))
        } catch {
            throw CLIError("\(VisibleText.escape(reference)): \(VisibleText.escape(Words.source(error)))")
        }
    }

    /// A story named by a catalogue id or a URL, fetched but not stored (`cyd validate`); nil
    /// when the reference is neither.
    static func fetchUnstored(_ reference: String, library options: LibraryOptions) throws -> FetchedStory? {
        guard StoryReference.isCatalogueID(reference) || StoryReference.isURL(reference) else { return nil }
        do {
            return try StoryReference.fetchUnstored(reference, importer: try options.importer())
        } catch let failure as StoryReference.FetchFailure {
            switch failure {
            case .notInCatalogue:
                throw CLIError("\(VisibleText.escape(reference)) is neither a file nor a story in the catalogue; `cyd list --available` shows the catalogue's ids")
            case .unrecognised(let error):
                throw CLIError(VisibleText.escape(Words.source(error)))
            case .source(let error):
                throw CLIError("cannot read \(VisibleText.escape(reference)): \(VisibleText.escape(Words.source(error)))")
            }
        }
    }
}
