import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif
import CydWords
import StoryCheck
import StoryFormat
import StorySources
import StoryStore
import StorySync
import Transport
import TerminalUI

struct Add: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Add a story to the library (or refresh it, keeping every reader's place).",
        discussion: "SOURCE is a story folder, a story.json, an https URL of a story.json (downloaded; its repository pictures are fetched from beside it), or a git URL (https://, git://, ssh://, file:// or user@host:path: cloned bare into the cache with libgit2, read from the default branch; adding it again fetches). Stories are read leniently, as readers do; one with errors that make it unreadable is refused with the validator's findings.")

    @Argument(help: "A story folder, a story.json, an https URL of a story.json, or a git URL.")
    var source: String

    @Flag(help: "Put the story in place of a different story (another story id) that this source held before.")
    var replace = false

    @Flag(help: "Take a git repository's newest commit even though it was stored at a catalogue's checked commit and no catalogue lists it now.")
    var unpinned = false

    @Flag(help: "Take the commit an expired signed catalogue pins (it may be an old copy replayed by a mirror).")
    var allowExpired = false

    @OptionGroup var library: LibraryOptions

    func run() throws {
        let importer = try library.importer()
        do {
            let result = try importer.add(source, replace: replace, unpinned: unpinned, allowExpired: allowExpired)
            let story = result.story
            let verb = switch result.change {
                case .added: "added"
                case .updated: "updated"
                case .unchanged: "already up to date:"
                }
            Terminal.standardOutput.write("\(verb) \(VisibleText.escape(story.title)) (id \(story.id), \(story.chapterCount) chapters)\n")
            let totals = ReportTotals(result.reports)
            if totals.errors + totals.warnings > 0 {
                Terminal.standardOutput.write("  the story has \(totals.phrase); `cyd validate \(VisibleText.escape(source))` shows them\n")
            }
            reportDisplacedReaders(result.displacedReaders)
        } catch .unreadable(let reports) {
            Terminal.standardError.write(ReportFormat.text.render(reports.filter { !$0.diagnostics.isEmpty }))
            Terminal.standardError.write("cyd: \(VisibleText.escape(source)) cannot be read as a story; nothing was added\n")
            throw Exit.failure
        } catch {
            Terminal.standardError.write("cyd: \(VisibleText.escape(Words.source(error)))\n")
            throw Exit.failure
        }
    }
}

/// After a story was updated: the profiles whose chapter the new version no longer has.
func reportDisplacedReaders(_ profiles: [String]) {
    for reader in profiles {
        Terminal.standardOutput.write("  profile '\(VisibleText.escape(reader))' was at a chapter this version no longer has; they will be offered their last chapter that exists, or the start\n")
    }
}

struct List: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List the stories in the library, with your progress; with --available, the catalogue's too.")

    @Flag(help: "One JSON array of stories (with --available: an object with \"available\" and \"downloaded\").")
    var json = false

    @Flag(help: "Also list the catalogue's stories not downloaded yet (see `cyd sync`); their ids work with `cyd get`. With --json, every story of the catalogue, each with a \"downloaded\" flag.")
    var available = false

    @Option(help: "Only stories whose title or author contains this text (any case).")
    var match: String?

    @Option(help: "Only stories with this rating (G, PG, ...).")
    var rating: String?

    @Option(help: "Whose progress to show.")
    var profile = "default"

    @Argument(help: "Only these stories: library ids, catalogue ids (author/repository) or sources.")
    var stories: [String] = []

    @OptionGroup var library: LibraryOptions

    func keeps(title: String?, author: String?, rating storyRating: String?) -> Bool {
        if let match, !match.isEmpty {
            let needle = match.lowercased()
            guard (title?.lowercased().contains(needle) ?? false) || (author?.lowercased().contains(needle) ?? false) else { return false }
        }
        if let rating, storyRating?.lowercased() != rating.lowercased() { return false }
        return true
    }

    func run() throws {
        let library = try library.open()
        var stories = try library.stories().filter { keeps(title: $0.title, author: $0.author, rating: $0.rating) }
        if !self.stories.isEmpty {
            let wanted = Set(try self.stories.map { try StoryReferences.require($0, in: library).id })
            stories = stories.filter { wanted.contains($0.id) }
        }
        var rows: [JSONValue] = []
        var lines: [String] = []
        var availableRows: [JSONValue] = []
        var availableLines: [String] = []
        // What the last sync saw of each downloaded story's repository: a newer commit there is an
        // update waiting, marked in every listing.
        let catalogue = try library.catalogue().filter { $0.isStory == true }
        let newest = Dictionary(catalogue.compactMap { entry in entry.headCommit.map { (entry.source.key, $0) } }, uniquingKeysWith: { a, _ in a })
        func updateWaiting(_ story: StoryRecord) -> Bool { newest[story.source.key].map { $0 != story.version } ?? false }
        if available {
            let downloaded = Dictionary(stories.map { ($0.source.key, $0) }, uniquingKeysWith: { a, _ in a })
            for entry in catalogue where keeps(title: entry.title, author: entry.author, rating: entry.rating) {
                let local = downloaded[entry.source.key]
                let updateAvailable = local.map { $0.version != entry.headCommit } ?? false
                if local != nil, !updateAvailable, !json { continue }  // the text lists it under Downloaded
                availableRows.append(ListWords.availableJSON(entry, local: local, updateAvailable: updateAvailable))
                availableLines.append(ListWords.available(entry, local: local))
            }
        }
        let languages = try library.languagesByStory()
        for story in stories {
            let translations = languages[story.id] ?? []
            let progress = try library.progress(profile: profile, story: story)
            let found = try library.endingsFound(profile: profile, story: story).count
            let place = progress.flatMap { try? library.chapter($0.chapterKey, of: story)?.name }
            let waiting = updateWaiting(story)
            rows.append(ListWords.storyJSON(story, place: place, found: found, updateWaiting: waiting, languages: translations))
            lines.append(ListWords.story(story, place: place, found: found, updateWaiting: waiting, languages: translations))
        }
        if available {
            // The published root the catalogue came from, when it did: its key, version and
            // expiry; an expired one is marked, since get and update refuse what it pins.
            let inUse = try library.catalogueInUse()
            let now = Date().timeIntervalSince1970
            if json {
                let catalogue = inUse.map { ListWords.catalogueJSON($0, now: now) } ?? .null
                Terminal.standardOutput.write(JSONValue.object(["available": .array(availableRows), "downloaded": .array(rows), "catalogue": catalogue]).encoded + "\n")
            } else {
                Terminal.standardOutput.write(ListWords.withCatalogue(inUse, now: now, available: availableLines, downloaded: lines))
            }
            return
        }
        if json {
            Terminal.standardOutput.write(JSONValue.array(rows).encoded + "\n")
        } else if lines.isEmpty {
            Terminal.standardOutput.write("The library is empty. `cyd read` offers the bundled stories; `cyd add FOLDER` adds one.\n")
        } else {
            Terminal.standardOutput.write(lines.joined(separator: "\n") + "\n")
        }
    }
}

struct Remove: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Remove a story and its pictures from the library.",
        discussion: "Asks first on a terminal; elsewhere needs --yes. Reading progress, bookmarks and notes are kept (adding the story again resumes them) unless you confirm forgetting them, or pass --forget-progress.")

    @Argument(help: "A library id (see `cyd list`), a catalogue id (author/repository), or the story's folder or URL.")
    var story: String

    @Flag(name: .shortAndLong, help: "Do not ask.")
    var yes = false

    @Flag(help: "Also forget every profile's progress, bookmarks, notes and endings found.")
    var forgetProgress = false

    @OptionGroup var library: LibraryOptions

    func run() throws {
        let library = try library.open()
        let record: StoryRecord
        do {
            record = try StoryReferences.require(story, in: library)
        } catch let error as CLIError {
            Terminal.standardError.write("cyd: \(error.description)\n")
            throw Exit.failure
        }
        var forget = forgetProgress
        if !yes {
            guard Terminal.Stream(descriptor: STDIN_FILENO).isTerminal else {
                Terminal.standardError.write("cyd: removing needs confirmation: run it on a terminal, or pass --yes\n")
                throw Exit.failure
            }
            Terminal.standardOutput.write("Remove \(VisibleText.escape(record.title)) and its pictures? [y/N] ")
            guard readLine()?.lowercased().hasPrefix("y") == true else {
                Terminal.standardOutput.write("nothing removed\n")
                return
            }
            if !forget {
                Terminal.standardOutput.write("Also forget reading progress, bookmarks and notes? [y/N] ")
                forget = readLine()?.lowercased().hasPrefix("y") == true
            }
        }
        try library.remove(record, forgetProgress: forget)
        Terminal.standardOutput.write("removed \(VisibleText.escape(record.title))\(forget ? " and its reading progress" : "; reading progress kept")\n")
    }
}

struct Search: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Search titles, summaries, authors and chapter text.")

    @Argument(parsing: .remaining, help: "Words to find (all of them, as prefixes).")
    var words: [String]

    @Flag(help: "One JSON array of matches.")
    var json = false

    @OptionGroup var library: LibraryOptions

    func validate() throws {
        if words.joined().isEmpty { throw ValidationError("give some words to search for") }
    }

    func run() throws {
        let hits = try library.open().search(words.joined(separator: " "))
        if json {
            Terminal.standardOutput.write(SearchWords.json(hits).encoded + "\n")
            return
        }
        if hits.isEmpty {
            Terminal.standardOutput.write("no matches\n")
            throw Exit.problemsFound
        }
        Terminal.standardOutput.write(SearchWords.text(hits))
    }
}

