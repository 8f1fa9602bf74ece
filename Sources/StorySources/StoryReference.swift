import StoryFormat
import StoryStore

/// What a reader's STORY names, in the order tried: a library id, a catalogue id
/// (`author/repository`), or a source (a folder, a story file, an https story.json, a git URL).
/// The one rule for each, for every command that takes a story.
public enum StoryReference {
    /// Whether `text` has the shape of a catalogue id: `author/repository`, two names, neither
    /// starting a path (`./x/y` and `/x/y` are paths).
    public static func isCatalogueID(_ text: String) -> Bool {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        return parts.count == 2 && parts.allSatisfy { !$0.isEmpty } && !text.hasPrefix(".") && !isURL(text)
    }

    /// Whether `text` is a URL a story can be read from: git, https or http.
    public static func isURL(_ text: String) -> Bool {
        let lower = text.lowercased()
        return GitSource.isGitURL(text) || lower.hasPrefix("https://") || lower.hasPrefix("http://")
    }

    /// The catalogue entry listed as a story whose id is `reference` (any case), if any.
    public static func catalogueEntry(_ reference: String, in library: StoryLibrary) throws -> CatalogueEntry? {
        guard isCatalogueID(reference) else { return nil }
        let lower = reference.lowercased()
        return try library.catalogue().first { $0.id.lowercased() == lower && $0.isStory == true }
    }

    /// The story in the library that `reference` names; nil when it names none (yet).
    public static func find(_ reference: String, in library: StoryLibrary) throws -> StoryRecord? {
        if let id = Int64(reference), let story = try library.story(id: id) { return story }
        if let entry = try catalogueEntry(reference, in: library) { return try library.story(source: entry.source) }
        guard let source = try? Sources.recognise(reference) else { return nil }
        return try library.story(source: source)
    }

    /// Why a story named by a catalogue id or a URL could not be fetched.
    public enum FetchFailure: Error, Sendable {
        /// A catalogue id the synced catalogue does not list.
        case notInCatalogue(String)
        /// The URL names no source cyd can read (or one it refuses, as plain http elsewhere).
        case unrecognised(SourceError)
        /// The source could not be read.
        case source(SourceError)
    }

    /// A story named by a catalogue id or a URL, fetched as `get` fetches it (a catalogue story
    /// at the catalogue's commit, checked against its hashes) but not stored; nil when
    /// `reference` is neither.
    public static func fetchUnstored(_ reference: String, importer: StoryImporter) throws(FetchFailure) -> FetchedStory? {
        let source: StorySource
        if isCatalogueID(reference) {
            let lower = reference.lowercased()
            let entries: [CatalogueEntry]
            do {
                entries = try importer.library.catalogue()
            } catch {
                let path = importer.library.location.databasePath
                throw .source(.library(.worded(error, path: path) ?? .storage(path: path, failure: .other(code: -1, message: String(describing: error)))))
            }
            guard let entry = entries.first(where: { $0.id.lowercased() == lower }) else { throw .notInCatalogue(reference) }
            source = entry.source
        } else if isURL(reference) {
            do { source = try Sources.recognise(reference) } catch { throw .unrecognised(error) }
        } else {
            return nil
        }
        let pin = source.kind == .git ? importer.pin(for: source.location) : nil
        do {
            if let pin { return try GitSource.fetch(source.location, pinned: pin, in: importer.context) }
            return try Sources.fetch(source, in: importer.context)
        } catch {
            throw .source(error)
        }
    }
}
