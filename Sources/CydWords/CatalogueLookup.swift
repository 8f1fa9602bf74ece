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
}
