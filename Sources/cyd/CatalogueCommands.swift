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
import LocalFiles
import StoryFormat
import StorySources
import StoryStore
import StorySync
import Transport
import TerminalUI

struct Sync: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Bring the catalogue of available stories up to date from authors.json.",
        discussion: Help.sync)

    @Option(help: ArgumentHelp(
        "authors.json or a published index.json: a path, a folder holding it, an https URL of it, or a git repository with it at the root (default: $CYD_CATALOGUE, else \(CatalogueSource.defaultLocation), branch master).",
        valueName: "source"))
    var catalogue: String?

    @Option(help: "Repositories checked at once (1 to 32).")
    var jobs = 6

    @Option(name: .customLong("github-api"), help: ArgumentHelp(
        "The GitHub REST API base URL (default: $GITHUB_API_URL, else \(GitHubAPI.defaultBaseURL)).", valueName: "url"))
    var githubAPI: String?

    @Option(name: .customLong("max-age"), help: ArgumentHelp(
        "Skip repositories checked successfully less than this long ago: seconds, or a number with s, m, h or d.", valueName: "age"))
    var maximumAge: String?

    @Option(name: .customLong("stall-timeout"), help: ArgumentHelp("Seconds a git transfer may go without receiving a byte before it is abandoned.", valueName: "seconds"))
    var stallTimeout: Double = 30

    @Option(help: ArgumentHelp(
        "The public key a published catalogue must be signed with: a .pub file from `cyd catalogue keygen` or signify, or its base64 line. Remembered for the catalogue; without it, a signed catalogue's own catalogue.pub is trusted on first use.",
        valueName: "key"))
    var trust: String?

    @Flag(name: .customLong("replace-key"), help: "Accept --trust in place of a different key remembered for the catalogue (the keeper changed keys).")
    var replaceKey = false

    @Flag(help: "Also list the repositories that did not change.")
    var verbose = false

    @Flag(help: "Print the report as one JSON object (progress still goes to standard error on a terminal).")
    var json = false

    @OptionGroup var library: LibraryOptions

    func validate() throws {
        guard (1...32).contains(jobs) else { throw ValidationError("--jobs takes a number from 1 to 32") }
        guard stallTimeout > 0 else { throw ValidationError("--stall-timeout takes a positive number of seconds") }
        if let maximumAge, Self.seconds(maximumAge) == nil {
            throw ValidationError("--max-age takes seconds or a number with s, m, h or d, like 90, 10m or 2h")
        }
    }

    /// A public key given on the command line: a file holding one, or its base64 line.
    static func publicKey(_ text: String) throws -> Signify.PublicKey {
        var bytes = Array(text.utf8)
        if FileStatus(text) != nil {
            do { bytes = try LocalFile.read(text, limit: 4096) } catch { throw CLIError("cannot read the key \(VisibleText.escape(text)): \(VisibleText.escape(String(describing: error)))") }
        }
        do { return try Signify.publicKey(bytes) } catch {
            throw CLIError("\(VisibleText.escape(text)) is not a public key: \(VisibleText.escape(SyncWords.trust(.signature(error)))) (give a .pub file from `cyd catalogue keygen` or signify)")
        }
    }

    static func seconds(_ text: String) -> Double? {
        let units: [Character: Double] = ["s": 1, "m": 60, "h": 3600, "d": 86400]
        if let last = text.last, let unit = units[last], let value = Double(text.dropLast()), value >= 0 { return value * unit }
        return Double(text).flatMap { $0 >= 0 ? $0 : nil }
    }

    func run() throws {
        let library = try library.open()
        let environment = ProcessInfo.processInfo.environment
        var options = SyncOptions(catalogue: catalogue ?? environment["CYD_CATALOGUE"].flatMap { $0.isEmpty ? nil : $0 } ?? CatalogueSource.defaultLocation)
        options.jobs = jobs
        options.githubAPI = GitHubAPI.baseURL(option: githubAPI, environment: environment)
        options.githubToken = environment["GITHUB_TOKEN"].flatMap { $0.isEmpty ? nil : $0 }
        options.maximumAge = maximumAge.flatMap(Self.seconds)
        options.stallSeconds = stallTimeout
        if let trust { options.trustedKey = try Self.publicKey(trust) }
        options.replaceKey = replaceKey
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
            if report.hasFailures { throw Exit.problemsFound }
            return
        }
        Terminal.standardOutput.print(
            CatalogueWords.lines(report, seconds: Date().timeIntervalSince(started), now: Date().timeIntervalSince1970, hasToken: options.githubToken != nil))
        if report.hasFailures { throw Exit.problemsFound }
    }
}

struct Get: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Download stories from the catalogue into the library.",
        discussion: "STORY is an id from `cyd list --available` (author/repository), a repository URL, or a title.")

    @Argument(help: "The stories to download.")
    var stories: [String]

    @Flag(help: "Take the commit an expired signed catalogue pins (it may be an old copy replayed by a mirror).")
    var allowExpired = false

    @OptionGroup var library: LibraryOptions

    func validate() throws {
        if stories.isEmpty { throw ValidationError("name a story to download; `cyd list --available` shows them") }
    }

    func run() throws {
        let importer = try library.importer()
        let library = importer.library
        var failed = false
        for reference in stories {
            do {
                let entry = try CatalogueLookup.entry(reference, in: library)
                if let since = entry.brokenSince {
                    Terminal.standardError.write(
                        "cyd: note: \(VisibleText.escape(entry.id))'s upstream is broken since \(SyncWords.date(since)); you get its last good version, \(String((entry.headCommit ?? "").prefix(12)))\n")
                } else if let since = entry.failingSince {
                    // Said first: the download that follows may fail for the same reason.
                    Terminal.standardError.write(
                        "cyd: note: \(VisibleText.escape(entry.id))'s repository has been unreachable since \(SyncWords.date(since)) (\(VisibleText.escape(entry.lastError ?? "its last checks failed"))); trying it anyway\n")
                }
                let result = try importer.importStory(from: entry.source, author: entry.author, allowExpired: allowExpired)
                let story = result.story
                let verb = result.change == .unchanged ? "already downloaded:" : "downloaded"
                Terminal.standardOutput.write("\(verb) \(VisibleText.escape(story.title)) (id \(story.id), \(story.chapterCount) chapters); `cyd read \(story.id)` opens it\n")
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
    static let configuration = CommandConfiguration(
        abstract: "Fetch newer versions of downloaded stories, keeping every reader's place.",
        discussion: "Without STORY, every story in the library is refreshed from where it came from: git repositories are fetched, URLs downloaded again, folders read again. A reader whose chapter is gone from the new version is offered their last chapter that still exists, or the start.")

    @Argument(help: "Library ids (see `cyd list`), catalogue ids (author/repository) or sources; all downloaded stories when none is given.")
    var stories: [String] = []

    @Flag(help: "Take the newest commit of a story that was downloaded at a catalogue's checked commit and that no catalogue lists now (a commit no keeper checked).")
    var unpinned = false

    @Flag(help: "Take the commits an expired signed catalogue pins (they may be an old copy replayed by a mirror).")
    var allowExpired = false

    @OptionGroup var library: LibraryOptions

    func run() throws {
        let importer = try library.importer()
        let library = importer.library
        let records = try stories.isEmpty ? library.stories() : stories.map { try StoryReferences.require($0, in: library) }
        var failures = 0
        var counts = (updated: 0, unchanged: 0, kept: 0)
        for story in records {
            do {
                let result = try importer.importStory(from: story.source, author: story.author, unpinned: unpinned, allowExpired: allowExpired)
                if result.change == .unchanged {
                    counts.unchanged += 1
                } else {
                    counts.updated += 1
                    Terminal.standardOutput.write("updated \(VisibleText.escape(result.story.title)) (id \(story.id)) to \(result.story.version.prefix(12))\n")
                    reportDisplacedReaders(result.displacedReaders)
                }
            } catch SourceError.noLongerPinned(_, let commit) {
                // Not a failure: the reader's story stays at what a keeper checked.
                counts.kept += 1
                Terminal.standardError.write(
                    "cyd: note: \(VisibleText.escape(story.title)) (id \(story.id)) is no longer in the catalogue that checked it; it stays at \(commit.prefix(12)), the commit its keeper checked (`cyd update --unpinned \(story.id)` takes the author's newest, which no keeper checked)\n")
            } catch {
                failures += 1
                let reason = if case SourceError.unreadable = error { "the new version cannot be read; the old one is kept (`cyd validate` shows why)" } else { Words.of(error) }
                Terminal.standardError.write("cyd: cannot update \(VisibleText.escape(story.title)) (id \(story.id)): \(VisibleText.escape(reason))\n")
            }
        }
        let kept = counts.kept > 0 ? ", \(counts.kept) kept at the checked version (no longer in the catalogue)" : ""
        Terminal.standardOutput.write("\(counts.updated) updated, \(counts.unchanged) already up to date\(kept)\(failures > 0 ? ", \(failures) failed" : "")\n")
        if failures > 0 { throw Exit.problemsFound }
    }
}

/// "1 repository", "2 repositories".
