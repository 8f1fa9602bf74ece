import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif
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
        discussion: """
            Reads the catalogue and brings the list of available stories up to date. By default \
            that is the original reader's catalogue: authors.json at the root of \
            \(CatalogueSource.defaultLocation) (branch master); --catalogue or $CYD_CATALOGUE name \
            another. authors.json looks like { "authors": [ { "name": "alice" }, { "name": "bo", \
            "repos": ["https://github.com/bo/tide.git"] } ] }: each author's story repositories are \
            the `repos` listed (a listed repository without the tag in its README is still offered, \
            with a warning), or else the user's GitHub repositories whose README carries \
            #ChooseYourDestiny (one without a story.json is quietly not a story). Each repository is \
            checked with one cheap ls-remote (none at all for a GitHub repository not pushed since \
            its last good check): only one whose HEAD moved is fetched and its story.json read. A \
            broken author or repository is reported and skipped; the sync exits 1 when any failed. An \
            interrupted sync keeps what it finished.
            A published index (index.json from `cyd catalogue publish`, as a path, a folder or an \
            https URL) is read with one conditional request instead: no GitHub, no ls-remote.
            GitHub: set GITHUB_TOKEN for 5000 requests an hour instead of 60; answers are cached with \
            their ETags, so a repeated sync asks for little.
            """)

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
            switch error {
            case .invalidCatalogue(let file, let findings), .invalidIndex(let file, let findings):
                // One line for the file, one for each finding: each escaped on its own, so the
                // line breaks are ours and none comes from the file.
                let isIndex = if case .invalidIndex = error { true } else { false }
                let what = isIndex
                    ? "is not a usable catalogue index (write it with `cyd catalogue publish`)"
                    : "is not a usable authors.json (it should look like { \"authors\": [ { \"name\": \"alice\" } ] })"
                Terminal.standardError.write("cyd: \(VisibleText.escape(file)) \(what)\n")
                for finding in findings { Terminal.standardError.write("  \(VisibleText.escape(finding.description))\n") }
                throw Exit.problemsFound
            case .untrusted(_, let failure):
                let hint = switch failure {
                case .noKey: " (pass --trust with the keeper's public key, a .pub file)"
                case .keyChanged: "; if the keeper really changed keys, run again with --trust NEW.pub --replace-key"
                case .signature(.wrongKey):
                    "; if the keeper changed keys, their catalogue carries a handover signed by the old key (`cyd catalogue publish --sign NEW.sec --handover-from OLD.sec`) and cyd follows it; without one, get the new key from the keeper and run again with --trust NEW.pub --replace-key"
                case .notSigned: "; name the catalogue's catalogue.sig"
                default: ""
                }
                Terminal.standardError.write("cyd: \(VisibleText.escape(error.description))\(hint)\n")
                throw Exit.failure
            case .missing(let path):
                Terminal.standardError.write(
                    "cyd: cannot read the catalogue \(VisibleText.escape(path)): no such file (give --catalogue a path to authors.json or index.json, "
                        + "a folder holding one, an https URL of one, or a git repository)\n")
                throw Exit.failure
            default:
                Terminal.standardError.write("cyd: \(VisibleText.escape(error.description))\n")
                throw Exit.failure
            }
        }
        display.finish()
        if let handover = report.handedOver {
            Terminal.standardError.write("cyd: the keeper handed over from key \(handover.from) to key \(handover.to) (a handover signed by \(handover.from)); trusting \(handover.to) from now on\n")
        }
        if let key = report.trustedOnFirstUse {
            Terminal.standardError.write("cyd: trusting the catalogue's key \(key) from now on (first use); compare it with the one its keeper publishes, or pass --trust\n")
        }
        if json {
            Terminal.standardOutput.write(Self.json(report).encoded + "\n")
            if report.hasFailures { throw Exit.problemsFound }
            return
        }
        let out = Terminal.standardOutput
        // On a terminal every line is wrapped to the window, continuations indented.
        func say(_ text: String, indent: String = "    ") { TextLayout.write(text, to: out, indent: indent) }
        for warning in report.catalogueWarnings { say("warning: \(VisibleText.escape(warning.description))") }
        for item in report.items where item.warning != nil {
            say("warning: \(VisibleText.escape(item.id)): \(VisibleText.escape(item.detail ?? ""))")
        }
        say(Self.summary(report, seconds: Date().timeIntervalSince(started)))
        if let verification = report.verification { say(Self.verified(verification)) }
        let broken = report.items.filter { $0.change == .broken }
        if !broken.isEmpty {
            say("Kept at their last good version:")
            for item in broken { say("  \(VisibleText.escape(item.id)): \(VisibleText.escape(item.detail ?? ""))", indent: "      ") }
        }
        let unreachable = report.items.filter { $0.change == .unreachable }
        if !unreachable.isEmpty {
            say("Unreachable (the keeper's last checks failed):")
            for item in unreachable { say("  \(VisibleText.escape(item.id)): \(VisibleText.escape(item.detail ?? ""))", indent: "      ") }
        }
        let failures = report.items.filter { $0.change == .failed }
        if !failures.isEmpty || !report.authorFailures.isEmpty {
            say("Failed:")
            for failure in report.authorFailures {
                say("  author \(VisibleText.escape(failure.author)): \(VisibleText.escape(SyncWords.author(failure.failure, name: failure.author)))", indent: "      ")
            }
            for failure in failures {
                say("  \(VisibleText.escape(failure.id))\(failure.url.isEmpty ? "" : " (\(VisibleText.escape(failure.url)))"): \(VisibleText.escape(Words.detail(failure) ?? "failed"))", indent: "      ")
            }
        }
        if let limit = report.rateLimited {
            var when = "later"
            if let reset = limit.reset {
                let minutes = max(1, Int((reset - Date().timeIntervalSince1970 + 59) / 60))
                when = "in \(plural(minutes, "minute")) (\(Self.clock(reset)) UTC)"
            }
            say("\(VisibleText.escape(limit.message))\nDiscovery stopped there; stories already known were still checked. Try again \(when)\(options.githubToken == nil ? ", or set GITHUB_TOKEN for a larger allowance" : "").", indent: "")
        }
        if report.hasFailures { throw Exit.problemsFound }
    }

    /// "Synced 12 repositories of 3 authors in 1.2 s: 2 new, 1 updated, 8 unchanged, 1 not a story, 0 failed; 1 author failed."
    static func summary(_ report: SyncReport, seconds: Double) -> String {
        var parts = ["\(report.count(.new)) new", "\(report.count(.updated)) updated", "\(report.count(.unchanged)) unchanged"]
        if report.count(.recent) > 0 { parts.append("\(report.count(.recent)) checked recently (skipped)") }
        let notStories = report.count(.notStory)
        if notStories > 0 { parts.append(notStories == 1 ? "1 not a story" : "\(notStories) not stories") }
        // Removed and broken are said when there are any, each removal named.
        let removed = report.items.filter { $0.change == .removed }
        if !removed.isEmpty {
            parts.append("\(removed.count) removed (\(removed.prefix(5).map { VisibleText.escape($0.id) }.joined(separator: ", "))\(removed.count > 5 ? ", …" : ""))")
        }
        if report.count(.broken) > 0 { parts.append("\(report.count(.broken)) broken (kept at their last good version)") }
        if report.count(.unreachable) > 0 { parts.append("\(report.count(.unreachable)) unreachable (offered at the version last checked)") }
        parts.append("\(report.count(.failed)) failed")
        let authors = report.authors + report.authorFailures.count
        var line = "Synced \(plural(report.items.count - removed.count, "repository", "repositories")) of \(plural(authors, "author"))"
        if report.fromIndex { line += " from the index" }
        line += " in \(String(format: "%.1f", seconds)) s: \(parts.joined(separator: ", "))"
        if !report.authorFailures.isEmpty { line += "; \(plural(report.authorFailures.count, "author")) failed" }
        return line + "."
    }

    /// What was verified, in one sentence: "Signed by key 5e0c…, version 7, expires …".
    static func verified(_ verification: SyncReport.Verification) -> String {
        switch verification {
        case .signed(let key, let version, let expiresAt):
            "Signed by key \(key), version \(version), expires \(SyncWords.date(expiresAt))."
        case .unsigned:
            "Unsigned: no key is trusted for this catalogue, so its content is taken as served (pass --trust KEEPER.pub where its keeper publishes one)."
        }
    }

    static func json(_ report: SyncReport) -> JSONValue {
        let counts = [SyncReport.Change.new, .updated, .unchanged, .recent, .notStory, .failed, .broken, .removed, .unreachable].map { ($0.rawValue, JSONValue.number(Double(report.count($0)))) }
        return .object([
            "repositories": .array(report.items.map { item in
                .object([
                    "id": .string(item.id), "url": .string(item.url), "change": .string(item.change.rawValue),
                    "title": item.title.map { .string($0) } ?? .null, "detail": item.detail.map { .string($0) } ?? .null,
                    "warning": item.warning.map { .string(SyncWords.warning($0)) } ?? .null,
                ])
            }),
            "authorFailures": .array(report.authorFailures.map {
                .object(["author": .string($0.author), "reason": .string(SyncWords.author($0.failure, name: $0.author))])
            }),
            "warnings": .array(report.catalogueWarnings.map { .string($0.description) }),
            "rateLimited": report.rateLimited.map { limit in
                .object(["message": .string(limit.message), "reset": limit.reset.map { .number($0.rounded()) } ?? .null])
            } ?? .null,
            "counts": .object(Dictionary(uniqueKeysWithValues: counts)),
            "authors": .number(Double(report.authors + report.authorFailures.count)),
            "authorsFailed": .number(Double(report.authorFailures.count)),
            "fromIndex": .bool(report.fromIndex),
            "verification": report.verification.map { verification -> JSONValue in
                switch verification {
                case .signed(let key, let version, let expiresAt):
                    .object(["signed": .bool(true), "key": .string(key), "version": .number(Double(version)), "expiresAt": .number(expiresAt.rounded())])
                case .unsigned: .object(["signed": .bool(false)])
                }
            } ?? .null,
        ])
    }

    static func clock(_ time: Double) -> String { UTCTime(time).clock }
}

/// Finds a catalogue entry by id (author/repository), URL, or a title that only one story has.
func catalogueEntry(_ reference: String, in library: StoryLibrary) throws -> CatalogueEntry {
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
                let entry = try catalogueEntry(reference, in: library)
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
