import ArgumentParser
import Foundation
import CydWords
import LocalFiles
import StoryFormat
import StorySources
import StorySync
import TerminalUI

struct Sync: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "sync",
        abstract: "Bring the catalogue of available stories up to date from authors.json.",
        discussion: Help.sync)

    @Option(help: ArgumentHelp(
        "authors.json or a published index.json: a path, a folder holding it, an https URL of it, or a git repository with it at the root (default: $CYD_CATALOGUE, else \(CatalogueSource.defaultLocation), branch master).",
        valueName: "source"))
    var catalogue: String?
    @Option(help: "Repositories checked at once (1 to 32).") var jobs = 6
    @Option(name: .customLong("github-api"), help: ArgumentHelp(
        "The GitHub REST API base URL (default: $GITHUB_API_URL, else \(GitHubAPI.defaultBaseURL)).", valueName: "url"))
    var githubAPI: String?
    @Option(name: .customLong("max-age"), help: ArgumentHelp(
        "Skip repositories checked successfully less than this long ago: seconds, or a number with s, m, h or d.", valueName: "age"))
    var maximumAge: String?
    @Option(name: .customLong("stall-timeout"), help: ArgumentHelp("Seconds a git transfer may go without receiving a byte before it is abandoned.", valueName: "seconds")) var stallTimeout: Double = 30
    @Option(help: ArgumentHelp(
        "The public key a published catalogue must be signed with: a .pub file from `cyd catalogue keygen` or signify, or its base64 line. Remembered for the catalogue; without it, a signed catalogue's own catalogue.pub is trusted on first use.",
        valueName: "key"))
    var trust: String?
    @Flag(name: .customLong("replace-key"), help: "Accept --trust in place of a different key remembered for the catalogue (the keeper changed keys).") var replaceKey = false
    @Flag(help: "Also list the repositories that did not change.") var verbose = false
    @Flag(help: "Print the report as one JSON object (progress still goes to standard error on a terminal).") var json = false
    @OptionGroup var library: LibraryOptions

    func validate() throws {
        guard (1...32).contains(jobs) else { throw ValidationError("--jobs takes a number from 1 to 32") }
        guard stallTimeout > 0 else { throw ValidationError("--stall-timeout takes a positive number of seconds") }
        if let maximumAge, Words.seconds(maximumAge) == nil {
            throw ValidationError("--max-age takes seconds or a number with s, m, h or d, like 90, 10m or 2h")
        }
    }

    /// A signify key given on the command line: a file holding one (or, for a public key, its
    /// base64 line), read by `parse`.
    static func key<Key>(_ given: String, secret: Bool, _ parse: ([UInt8]) throws(Signify.Failure) -> Key) throws -> Key {
        var bytes = Array(given.utf8)
        if secret || FileStatus(given) != nil {
            do { bytes = try LocalFile.read(given, limit: 4096) } catch { throw CLIError(CatalogueWords.unreadableKey(given, secret: secret, error)) }
        }
        do { return try parse(bytes) } catch { throw CLIError(CatalogueWords.unusableKey(given, secret: secret, error)) }
    }

    func run() throws {
        CatalogueSync.prepare()
        let library = try library.open()
        var options = SyncOptions(catalogue: catalogue, githubAPI: githubAPI, environment: ProcessInfo.processInfo.environment)
        (options.jobs, options.maximumAge, options.stallSeconds, options.replaceKey) = (jobs, maximumAge.flatMap(Words.seconds), stallTimeout, replaceKey)
        if let trust { options.trustedKey = try Self.key(trust, secret: false, Signify.publicKey) }
        let display = SyncDisplay(stream: Terminal.standardError, verbose: verbose)
        Terminal.stopOnInterrupt(saying: "cyd: sync interrupted; what finished is kept, and `cyd sync` carries on from there")
        let started = Date()
        let report: SyncReport
        do {
            report = try CatalogueSync.run(options, library: library) { display.handle($0) }
        } catch {
            display.finish()
            let (lines, problems) = CatalogueWords.syncFailure(error)
            for line in lines { Terminal.standardError.write(line + "\n") }
            throw problems ? Exit.problemsFound : Exit.failure
        }
        display.finish()
        for line in CatalogueWords.trustNotes(report) { Terminal.standardError.write(line + "\n") }
        if json {
            Terminal.standardOutput.write(CatalogueWords.json(report).encoded + "\n")
        } else {
            Terminal.standardOutput.print(
                CatalogueWords.lines(report, seconds: Date().timeIntervalSince(started), now: Date().timeIntervalSince1970, hasToken: options.githubToken != nil))
        }
        if report.hasFailures { throw Exit.problemsFound }
    }
}

struct Get: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "get",
        abstract: "Download stories from the catalogue into the library.",
        discussion: "STORY is an id from `cyd list --available` (author/repository), a repository URL, or a title.")

    @Argument(help: "The stories to download.") var stories: [String]
    @Flag(help: "Take the commit an expired signed catalogue pins (it may be an old copy replayed by a mirror).") var allowExpired = false
    @OptionGroup var library: LibraryOptions

    func validate() throws {
        if stories.isEmpty { throw ValidationError("name a story to download; `cyd list --available` shows them") }
    }

    func run() throws {
        let importer = try library.importer()
        var failed = false
        for reference in stories {
            do {
                let entry = try CatalogueLookup.entry(reference, in: importer.library)
                if let note = ImportWords.catalogueNote(entry) { Terminal.standardError.write(note + "\n") }
                let result = try importer.importStory(from: entry.source, author: entry.author, allowExpired: allowExpired)
                Terminal.standardOutput.write(ImportWords.downloaded(result) + "\n")
            } catch let error as CLIError {
                Terminal.standardError.write("cyd: \(error.description)\n")
                failed = true
            } catch let error as SourceError {
                Terminal.standardError.write("cyd: cannot download \(VisibleText.escape(reference)): \(VisibleText.escape(Words.source(error)))\n")
                failed = true
            }
        }
        if failed { throw Exit.problemsFound }
    }
}

struct Update: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "update",
        abstract: "Fetch newer versions of downloaded stories, keeping every reader's place.",
        discussion: "Without STORY, every story in the library is refreshed from where it came from: git repositories are fetched, URLs downloaded again, folders read again. A reader whose chapter is gone from the new version is offered their last chapter that still exists, or the start.")

    @Argument(help: "Library ids (see `cyd list`), catalogue ids (author/repository) or sources; all downloaded stories when none is given.") var stories: [String] = []
    @Flag(help: "Take the newest commit of a story that was downloaded at a catalogue's checked commit and that no catalogue lists now (a commit no keeper checked).") var unpinned = false
    @Flag(help: "Take the commits an expired signed catalogue pins (they may be an old copy replayed by a mirror).") var allowExpired = false
    @OptionGroup var library: LibraryOptions

    func run() throws {
        let importer = try library.importer()
        let records = try stories.isEmpty ? importer.library.stories() : stories.map { try CatalogueLookup.require($0, in: importer.library) }
        let outcomes = records.map { story in
            let outcome = Result { () throws(SourceError) in try importer.importStory(from: story.source, author: story.author, unpinned: unpinned, allowExpired: allowExpired) }
            let (out, errors) = ImportWords.updated(story, outcome)
            for line in out { Terminal.standardOutput.write(line + "\n") }
            for line in errors { Terminal.standardError.write(line + "\n") }
            return outcome
        }
        let (totals, failed) = ImportWords.updateTotals(outcomes)
        Terminal.standardOutput.write(totals + "\n")
        if failed > 0 { throw Exit.problemsFound }
    }
}
