import StoryFormat
import StorySources
import StoryStore
import StorySync

/// What a command-line STORY names, in the order tried: a library id (`cyd list`), a catalogue id
/// (`author/repository`, from `cyd list --available`), or a source (a folder, a story file, an
/// https story.json or a git URL). Every command that takes a downloaded story takes all three.
enum StoryReference {
    /// The story in the library; nil when the reference names none (yet).
    static func find(_ reference: String, in library: StoryLibrary) throws -> StoryRecord? {
        if let id = Int64(reference), let story = try library.story(id: id) { return story }
        if let entry = try catalogueMatch(reference, in: library) {
            return try library.story(source: entry.source)
        }
        guard let source = try? Sources.recognise(reference) else { return nil }
        return try library.story(source: source)
    }

    /// The story, or an error saying what the reference is and how to get it.
    static func require(_ reference: String, in library: StoryLibrary) throws -> StoryRecord {
        if let story = try find(reference, in: library) { return story }
        throw CLIError(notFound(reference, in: library))
    }

    /// For `cyd read`: a story in the library, or a source added on the way (so the place is kept).
    static func findOrAdd(_ reference: String, importer: StoryImporter) throws -> StoryRecord {
        if let story = try find(reference, in: importer.library) { return story }
        if try catalogueMatch(reference, in: importer.library) != nil { throw CLIError(notFound(reference, in: importer.library)) }
        do {
            return try importer.add(reference).story
        } catch .unrecognised {
            throw CLIError(notFound(reference, in: importer.library))
        } catch {
            throw CLIError("\(VisibleText.escape(reference)): \(VisibleText.escape(Words.source(error)))")
        }
    }

    /// The catalogue entry whose id is `reference` (any case), if any.
    static func catalogueMatch(_ reference: String, in library: StoryLibrary) throws -> CatalogueEntry? {
        guard reference.contains("/"), !reference.hasPrefix("/"), !reference.hasPrefix(".") else { return nil }
        let lower = reference.lowercased()
        return try library.catalogue().first { $0.id.lowercased() == lower && $0.isStory == true }
    }

    static func notFound(_ reference: String, in library: StoryLibrary) -> String {
        if let entry = try? catalogueMatch(reference, in: library) {
            return "'\(VisibleText.escape(entry.id))' is in the catalogue but not downloaded; `cyd get \(VisibleText.escape(entry.id))` downloads it"
        }
        return "no story '\(VisibleText.escape(reference))' in the library (a library id, a catalogue id like author/repository, a folder or a URL); `cyd list` shows the library"
    }
}
