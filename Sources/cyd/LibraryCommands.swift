import ArgumentParser
import Foundation
import CydWords
import StoryCheck
import StoryFormat
import StoryStore
import TerminalUI

struct Add: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "add",
        abstract: "Add a story to the library (or refresh it, keeping every reader's place).",
        discussion: "SOURCE is a story folder, a story.json, an https URL of a story.json (downloaded; its repository pictures are fetched from beside it), or a git URL (https://, git://, ssh://, file:// or user@host:path: cloned bare into the cache with libgit2, read from the default branch; adding it again fetches). Stories are read leniently, as readers do; one with errors that make it unreadable is refused with the validator's findings.")

    @Argument(help: "A story folder, a story.json, an https URL of a story.json, or a git URL.") var source: String
    @Flag(help: "Put the story in place of a different story (another story id) that this source held before.") var replace = false
    @Flag(help: "Take a git repository's newest commit even though it was stored at a catalogue's checked commit and no catalogue lists it now.") var unpinned = false
    @Flag(help: "Take the commit an expired signed catalogue pins (it may be an old copy replayed by a mirror).") var allowExpired = false
    @OptionGroup var library: LibraryOptions

    func run() throws {
        let importer = try library.importer()
        do {
            let result = try importer.add(source, replace: replace, unpinned: unpinned, allowExpired: allowExpired)
            for line in ImportWords.added(result, source: source) { Terminal.standardOutput.write(line + "\n") }
        } catch .unreadable(let reports) {
            Terminal.standardError.write(ReportFormat.text.render(reports.filter { !$0.diagnostics.isEmpty }))
            throw CLIError("\(VisibleText.escape(source)) cannot be read as a story; nothing was added")
        } catch {
            throw CLIError(VisibleText.escape(Words.source(error)))
        }
    }
}

struct List: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list",
        abstract: "List the stories in the library, with your progress; with --available, the catalogue's too.")

    @Flag(help: "One JSON array of stories (with --available: an object with \"available\" and \"downloaded\").") var json = false
    @Flag(help: "Also list the catalogue's stories not downloaded yet (see `cyd sync`); their ids work with `cyd get`. With --json, every story of the catalogue, each with a \"downloaded\" flag.") var available = false
    @Option(help: "Only stories whose title or author contains this text (any case).") var match: String?
    @Option(help: "Only stories with this rating (G, PG, ...).") var rating: String?
    @Option(help: "Whose progress to show.") var profile = "default"
    @Argument(help: "Only these stories: library ids, catalogue ids (author/repository) or sources.") var stories: [String] = []
    @OptionGroup var library: LibraryOptions

    func run() throws {
        let library = try library.open()
        let ids = stories.isEmpty ? nil : Set(try stories.map { try CatalogueLookup.require($0, in: library).id })
        let listing = try LibraryListing(
            library, profile: profile, filter: .init(match: match, rating: rating, ids: ids), catalogue: available, everyEntry: json)
        // The published root the catalogue came from, when it did: its key, version and expiry.
        let inUse: (source: String, trust: CatalogueTrust)?? = try available ? .some(library.catalogueInUse()) : nil
        Terminal.standardOutput.write(ListWords.listing(listing, json: json, withCatalogue: inUse, now: Date().timeIntervalSince1970))
    }
}

struct Remove: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "remove",
        abstract: "Remove a story and its pictures from the library.",
        discussion: "Asks first on a terminal; elsewhere needs --yes. Reading progress, bookmarks and notes are kept (adding the story again resumes them) unless you confirm forgetting them, or pass --forget-progress.")

    @Argument(help: "A library id (see `cyd list`), a catalogue id (author/repository), or the story's folder or URL.") var story: String
    @Flag(name: .shortAndLong, help: "Do not ask.") var yes = false
    @Flag(help: "Also forget every profile's progress, bookmarks, notes and endings found.") var forgetProgress = false
    @OptionGroup var library: LibraryOptions

    func run() throws {
        let library = try library.open()
        let record = try CatalogueLookup.require(story, in: library)
        var forget = forgetProgress
        if !yes {
            guard Terminal.Stream(descriptor: STDIN_FILENO).isTerminal else { throw CLIError("removing needs confirmation: run it on a terminal, or pass --yes") }
            func confirm(_ question: String) -> Bool {
                Terminal.standardOutput.write(question + " [y/N] ")
                return readLine()?.lowercased().hasPrefix("y") == true
            }
            guard confirm("Remove \(VisibleText.escape(record.title)) and its pictures?") else { return Terminal.standardOutput.write("nothing removed\n") }
            forget = forget || confirm("Also forget reading progress, bookmarks and notes?")
        }
        try library.remove(record, forgetProgress: forget)
        Terminal.standardOutput.write("removed \(VisibleText.escape(record.title))\(forget ? " and its reading progress" : "; reading progress kept")\n")
    }
}

struct Search: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "search", abstract: "Search titles, summaries, authors and chapter text.")

    @Argument(parsing: .remaining, help: "Words to find (all of them, as prefixes).") var words: [String]
    @Flag(help: "One JSON array of matches.") var json = false
    @OptionGroup var library: LibraryOptions

    func validate() throws {
        if words.joined().isEmpty { throw ValidationError("give some words to search for") }
    }

    func run() throws {
        let hits = try library.open().search(words.joined(separator: " "))
        Terminal.standardOutput.write(json ? SearchWords.json(hits).encoded + "\n" : hits.isEmpty ? "no matches\n" : SearchWords.text(hits))
        if hits.isEmpty, !json { throw Exit.problemsFound }
    }
}

