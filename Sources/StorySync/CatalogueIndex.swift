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
import StoryTranslation
import StorySources
import StoryStore
import Transport

/// The stories of a published catalogue, as JSON: the whole list in `index.json` (what readers
/// before catalogue version 2 read, kept for them), and the same entries split into shards (see
/// `CatalogueRoot`). One entry:
///
///     { "author": "alice", "repository": "tide", "url": "https://…/tide.git", "commit": "…",
///       "story_sha256": "…", "pictures": { "pics/sea.png": "…" }, "story_id": "tide",
///       "title": "Tide", "rating": "G", "summary": "…", "chapters": 12,
///       "upstream": { "state": "broken", "since": 1795000000, "reason": "…" } }
///
/// `commit` is the version the keeper checked and readers get; `upstream` is there only when the
/// repository's newer commits cannot be read, and the entry is its last good version ("broken"),
/// or when the keeper could not reach the repository at all ("unreachable"), and the entry is the
/// version last checked, which a download may not reach.
public enum CatalogueIndex {
    public static let formatKey = "cyd_catalogue_index"
    public static let fileName = "index.json"

    /// Whether the bytes are an index rather than authors.json (the marker key, near the start).
    public static func isIndex(_ bytes: [UInt8]) -> Bool {
        let marker = Array("\"\(formatKey)\"".utf8)
        guard bytes.count >= marker.count else { return false }
        // Near the start, where publish writes it; else anywhere (an index whose first bytes are
        // something else, deep nesting say, is still an index and is told why it cannot be used).
        for limit in [min(bytes.count, 4096), bytes.count] {
            var start = 0
            while start + marker.count <= limit {
                if bytes[start] == marker[0], bytes[start..<(start + marker.count)].elementsEqual(marker) { return true }
                start += 1
            }
        }
        return false
    }

    // MARK: Writing

    /// One entry, as `index.json` and the shards hold it.
    static func entryJSON(_ entry: CatalogueEntry) -> JSONValue {
        var members: [(String, JSONValue)] = [
            ("author", .string(entry.author)), ("repository", .string(entry.repository)), ("url", .string(entry.url)),
            ("commit", .string(entry.headCommit ?? "")),
        ]
        if let hash = entry.storySHA256 { members.append(("story_sha256", .string(hash))) }
        let pictures = entry.pictureHashes
        if !pictures.isEmpty { members.append(("pictures", .object(pictures.sorted { $0.key < $1.key }.map { ($0.key, .string($0.value)) }))) }
        members += [
            ("story_id", .string(entry.storyKey ?? "")), ("title", .string(entry.title ?? "")), ("rating", .string(entry.rating ?? "")),
            ("summary", .string(entry.summary ?? "")), ("chapters", .number(Double(entry.chapterCount ?? 0))),
        ]
        let languages = entry.languagePercents
        if !languages.isEmpty { members.append(("languages", .object(languages.sorted { $0.key < $1.key }.map { ($0.key, .number(Double($0.value))) }))) }
        if let since = entry.brokenSince {
            members.append(("upstream", .object([("state", .string("broken")), ("since", .number(since.rounded())), ("reason", .string(entry.lastError ?? ""))])))
        } else if let since = entry.failingSince {
            members.append(("upstream", .object([("state", .string("unreachable")), ("since", .number(since.rounded())), ("reason", .string(entry.lastError ?? ""))])))
        }
        return .object(members)
    }

    /// A file of entries: `{ "KEY": 1, ...header, "stories": [ one entry a line ] }` (a published
    /// file diffs well).
    static func entriesFile(key: String, header: [(String, JSONValue)], entries: [CatalogueEntry]) -> [UInt8] {
        var bytes = Array("{\n  \"\(key)\": 1".utf8)
        for (name, value) in header {
            bytes += Array(",\n  \"\(name)\": ".utf8)
            value.write(to: &bytes)
        }
        bytes += Array(",\n  \"stories\": [".utf8)
        for (index, entry) in entries.enumerated() {
            bytes += Array((index == 0 ? "\n    " : ",\n    ").utf8)
            entryJSON(entry).write(to: &bytes)
        }
        bytes += Array((entries.isEmpty ? "]\n}\n" : "\n  ]\n}\n").utf8)
        return bytes
    }

    // MARK: Reading

    /// The most chapters an index may claim for a story (a number outside is an error in the
    /// entry, never a crash).
    static let maximumChapterCount = 10_000_000

    /// An index read entry by entry: the usable stories, and each entry that was not usable
    /// (with the id and URL it claimed, when it had them) and why.
    struct Decoded {
        var stories: [IndexedStory] = []
        var rejected: [(id: String, url: String, finding: SyncReport.Finding)] = []
    }

    /// The stories of an index, or findings with line:column saying why it cannot be used at
    /// all. One bad entry (a missing key, a number out of range, a control character in an id,
    /// an id listed twice with different URLs) is rejected on its own; the others are used.
    static func decode(_ contents: CatalogueSource.Contents, format: String = formatKey, refuseEmpty: Bool = true) throws(SyncError) -> Decoded {
        let parsed = JSONParser(options: .readers).parse(contents.bytes)
        let lines = LineIndex(contents.bytes)
        func finding(_ offset: Int, _ message: String) -> SyncReport.Finding {
            let position = lines.position(of: offset)
            return SyncReport.Finding(file: contents.displayName, line: position.line, column: position.column, code: "index", message: message)
        }
        guard let document = parsed.document, let root = document.root, document.kind(root) == .object else {
            let first = parsed.diagnostics.first
            throw .invalidIndex(file: contents.displayName, findings: [finding(first?.range.lowerBound ?? 0, first?.message ?? "the index must hold an object")])
        }
        guard let version = document.member(root, format), document.kind(version) == .number, document.number(version) == 1 else {
            throw .invalidIndex(file: contents.displayName, findings: [finding(document.range(root).lowerBound, "\(format) must be 1; this cyd reads version 1")])
        }
        guard let list = document.member(root, "stories"), document.kind(list) == .array else {
            throw .invalidIndex(file: contents.displayName, findings: [finding(document.range(root).lowerBound, "the index has no \"stories\" array")])
        }
        var decoded = Decoded()
        // Rejections are located together at the end, in one pass over the file: an index is
        // often one line, and locating each on its own would cost rejections x file.
        var rejections: [(id: String, url: String, offset: Int, message: String)] = []
        var candidates: [(story: IndexedStory, offset: Int)] = []
        for (ordinal, element) in document.elements(of: list).enumerated() {
            let offset = document.range(element).lowerBound
            var claimedID = "entry \(ordinal + 1)"
            var claimedURL = ""
            func reject(_ message: String) { rejections.append((claimedID, claimedURL, offset, message)) }
            guard document.kind(element) == .object else {
                reject("each story must be an object")
                continue
            }
            var missing: String?
            func text(_ key: String) -> String {
                guard let node = document.member(element, key), document.kind(node) == .string else {
                    missing = missing ?? key
                    return ""
                }
                return document.string(node)
            }
            let (author, repository, url, commit) = (text("author"), text("repository"), text("url"), text("commit"))
            let (storyKey, title, rating, summary) = (text("story_id"), text("title"), text("rating"), text("summary"))
            if let problem = nameProblem(author, "author") ?? nameProblem(repository, "repository") {
                reject(problem)
                continue
            }
            claimedID = "\(author)/\(repository)"
            claimedURL = url.unicodeScalars.contains(where: VisibleText.isUnsafe) ? "" : url
            if let missing {
                reject("the story has no string \"\(missing)\"")
                continue
            }
            guard isFollowableURL(url) else {
                reject("\"url\" must be an https:// or git:// repository URL")
                continue
            }
            guard commit.isEmpty || ((commit.utf8.count == 40 || commit.utf8.count == 64) && commit.utf8.allSatisfy(isLowercaseHex)) else {
                reject("\"commit\" must be a commit id (40 or 64 lowercase hexadecimal digits)")
                continue
            }
            var chapters = 0
            if let node = document.member(element, "chapters") {
                guard document.kind(node) == .number, let value = document.number(node), value.rounded() == value, value >= 0, value <= Double(maximumChapterCount) else {
                    reject("\"chapters\" must be a whole number from 0 to \(maximumChapterCount)")
                    continue
                }
                chapters = Int(value)
            }
            var story = IndexedStory(
                author: author, repository: repository, url: url, commit: commit, storyKey: storyKey, title: title, rating: rating, summary: summary,
                chapters: chapters)
            if let node = document.member(element, "story_sha256") {
                guard document.kind(node) == .string, isSHA256(document.string(node)) else {
                    reject("\"story_sha256\" must be a SHA-256 (64 lowercase hexadecimal digits)")
                    continue
                }
                story.storySHA256 = document.string(node)
            }
            if let node = document.member(element, "pictures") {
                var problem: String?
                if document.kind(node) != .object { problem = "\"pictures\" must be an object of paths and SHA-256s" }
                for (keyNode, value) in document.kind(node) == .object ? Array(document.members(of: node)) : [] where problem == nil {
                    let key = document.string(keyNode)
                    guard Sources.isSafe(key), !key.unicodeScalars.contains(where: VisibleText.isUnsafe) else {
                        problem = "\"pictures\" names a path that leaves the repository or holds a control character"
                        break
                    }
                    guard document.kind(value) == .string, isSHA256(document.string(value)) else {
                        problem = "each picture's value must be a SHA-256 (64 lowercase hexadecimal digits)"
                        break
                    }
                    story.pictures[key] = document.string(value)
                }
                if let problem {
                    reject(problem)
                    continue
                }
            }
            if let node = document.member(element, "languages") {
                var problem: String?
                if document.kind(node) != .object { problem = "\"languages\" must be an object of language tags and percents" }
                for (keyNode, value) in document.kind(node) == .object ? Array(document.members(of: node).prefix(1000)) : [] where problem == nil {
                    let tag = document.string(keyNode)
                    guard tag.utf8.count <= 35, LanguageTag.isWellFormed(tag) else {
                        problem = "\"languages\" names '\(VisibleText.escape(String(tag.prefix(40))))', which is not a BCP 47 language tag"
                        break
                    }
                    guard document.kind(value) == .number, let percent = document.number(value), percent.rounded() == percent, percent >= 0, percent <= 100 else {
                        problem = "each language's value must be a whole percent from 0 to 100"
                        break
                    }
                    story.languages[tag] = Int(percent)
                }
                if let problem {
                    reject(problem)
                    continue
                }
            }
            if let node = document.member(element, "upstream") {
                guard document.kind(node) == .object, let state = document.member(node, "state"), document.kind(state) == .string,
                    case let stateName = document.string(state), stateName == "broken" || stateName == "unreachable",
                    let since = document.member(node, "since"), document.kind(since) == .number,
                    let time = document.number(since), time >= 0, time < 1e11
                else {
                    reject("\"upstream\" must be { \"state\": \"broken\" or \"unreachable\", \"since\": a Unix time, \"reason\": text }")
                    continue
                }
                let reason = document.member(node, "reason").flatMap { document.kind($0) == .string ? document.string($0) : nil } ?? ""
                if stateName == "broken" {
                    story.brokenSince = time
                    story.brokenReason = reason
                } else {
                    story.unreachableSince = time
                    story.unreachableReason = reason
                }
            }
            candidates.append((story, offset))
        }
        // An id (any case) or a URL listed twice: the same story twice is read once; two
        // different stories claiming one id are both refused, since no reader could tell which
        // one `cyd get ID` means.
        var byID: [String: [Int]] = [:]
        for (index, candidate) in candidates.enumerated() { byID[candidate.story.id.lowercased(), default: []].append(index) }
        var seenURLs: [String: Int] = [:]
        for (index, candidate) in candidates.enumerated() {
            let story = candidate.story
            let sameID = byID[story.id.lowercased()] ?? []
            if sameID.count > 1, Set(sameID.map { candidates[$0].story.url }).count > 1 {
                let firstLine = lines.line(of: candidates[sameID[0]].offset)
                rejections.append((story.id, story.url, candidate.offset,
                    "the id '\(story.id)' is listed \(sameID.count) times with different repositories (first at line \(firstLine)); none of them is offered until the index names one"))
                continue
            }
            if sameID.count > 1, sameID[0] != index { continue }  // the same story again
            if let first = seenURLs[story.url] {
                rejections.append((story.id, story.url, candidate.offset,
                    "the repository \(story.url) is already listed as '\(candidates[first].story.id)' (line \(lines.line(of: candidates[first].offset))); it is offered once"))
                continue
            }
            seenURLs[story.url] = index
            decoded.stories.append(story)
        }
        let located = LineIndex.locate(rejections.map(\.offset), in: contents.bytes)
        for (rejection, place) in zip(rejections, located) {
            let finding = SyncReport.Finding(
                file: contents.displayName, line: place.position.line, column: place.position.column, code: "index", message: rejection.message)
            decoded.rejected.append((rejection.id, rejection.url, finding))
        }
        // Not one usable entry: the index as a whole is refused and the catalogue left as it was.
        if refuseEmpty, decoded.stories.isEmpty, !decoded.rejected.isEmpty {
            throw .invalidIndex(file: contents.displayName, findings: decoded.rejected.prefix(5).map(\.finding))
        }
        return decoded
    }

    /// Why an author or repository name cannot be part of an id, or nil.
    static func nameProblem(_ name: String, _ key: String) -> String? {
        if name.isEmpty { return "the story has no string \"\(key)\"" }
        if name.unicodeScalars.contains(where: VisibleText.isUnsafe) { return "\"\(key)\" holds a control character (\(VisibleText.escape(name))); names are printable" }
        if name == "." || name == ".." || name.contains("/") || name.contains("\\") { return "\"\(key)\" must be a name, not a path ('\(VisibleText.escape(name))')" }
        if name.utf8.count > 100 { return "\"\(key)\" is longer than 100 bytes" }
        return nil
    }

    /// Whether an index may send readers to this URL: https:// or git:// (plain http only to
    /// this machine, for tests), a host that cannot be read as an option, nothing invisible.
    /// Never file://, ssh://, ext:: or a path: an index is published by someone else.
    static func isFollowableURL(_ url: String) -> Bool {
        let lower = url.lowercased()
        guard let scheme = ["https://", "git://", "http://"].first(where: { lower.hasPrefix($0) }) else { return false }
        if scheme == "http://", WebSource.isPlainHTTP(url) { return false }
        let rest = url.dropFirst(scheme.count)
        guard let first = rest.first, first != "-", first != "/" else { return false }
        return GitSource.isGitURL(url) && !url.unicodeScalars.contains { VisibleText.isUnsafe($0) || $0 == " " }
    }

    static func isSHA256(_ text: String) -> Bool { text.utf8.count == 64 && text.utf8.allSatisfy(isLowercaseHex) }

    static func isLowercaseHex(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "f"))
    }

    // MARK: Syncing from an index

    /// Brings the catalogue to the index: no GitHub, no ls-remote. Stories whose commit changed
    /// and that this machine has fetched before (a clone in the cache) are fetched again, so
    /// `cyd update` and `cyd get` find them ready; the others are fetched when downloaded.
    static func sync(
        _ contents: CatalogueSource.Contents, options: SyncOptions, library: StoryLibrary, events: @escaping @Sendable (SyncEvent) -> Void
    ) throws(SyncError) -> SyncReport {
        var report = SyncReport()
        report.fromIndex = true
        let fingerprint = "\(contents.bytes.count)-" + String(FNV1a.hash(contents.bytes), radix: 16)
        // The same bytes as the index applied last time: nothing can have changed, so nothing is
        // read again (a no-op sync of 100,000 stories costs reading and hashing the file).
        if (try? library.appliedIndexFingerprint(source: contents.displayName)) == fingerprint, let entries = try? library.indexEntries() {
            report.verification = .unsigned
            report.authors = Set(entries.map { $0.author.lowercased() }).count
            report.items = entries.map { .init(id: "\($0.author)/\($0.repository)", url: $0.url, outcome: .unchanged, title: $0.title) }
            events(.checking(total: 0))
            return report
        }
        let decoded = try decode(contents)
        report = try apply(decoded, options: options, library: library, events: events)
        report.verification = .unsigned
        if decoded.rejected.isEmpty, !report.hasFailures {
            // Only a wholly usable index is remembered as applied: one with rejected entries is
            // read again next time, so its failures are reported again until they are fixed.
            try? library.recordAppliedIndex(source: contents.displayName, fingerprint: fingerprint, at: Date().timeIntervalSince1970)
        }
        return report
    }

    /// Brings the catalogue to the stories of an index: stories new, updated, unchanged, broken
    /// (kept at their last good version), removed, and the entries that could not be used.
    static func apply(
        _ decoded: Decoded, options: SyncOptions, library: StoryLibrary, events: @escaping @Sendable (SyncEvent) -> Void
    ) throws(SyncError) -> SyncReport {
        try apply(parts: 1, expected: decoded.stories.count + decoded.rejected.count, { _, _ in decoded }, options: options, library: library, events: events)
    }

    /// The same, from parts (a root's shards) decoded one at a time inside one transaction, so
    /// memory is bounded by a part: `part(index, applier)` decodes part `index` (reading the
    /// library, if it must, through the applier). A repository in two parts is offered once.
    static func apply(
        parts count: Int, expected: Int, _ part: (Int, IndexApplier) throws(SyncError) -> Decoded, options: SyncOptions, library: StoryLibrary,
        events: @escaping @Sendable (SyncEvent) -> Void
    ) throws(SyncError) -> SyncReport {
        var report = SyncReport()
        report.fromIndex = true
        report.items.reserveCapacity(min(expected, 10_000_000))
        let earlier = (try? library.indexStoryReferences()) ?? []
        var previousURL: [String: String] = [:]
        for entry in earlier { previousURL[entry.id.lowercased()] = entry.url }
        var authors = Set<String>()
        var storyAuthors = Set<String>()
        var toFetch: [Int] = []
        do {
            try library.applyIndexInParts(keeping: [], at: Date().timeIntervalSince1970) { applier in
                for index in 0..<count {
                    var decoded = try part(index, applier)
                    var stories: [IndexedStory] = []
                    stories.reserveCapacity(decoded.stories.count)
                    var inPart = Set<String>()
                    for story in decoded.stories {
                        // The applier knows every URL applied so far (no second map of 100,000).
                        if applier.hasApplied(story.url) || !inPart.insert(story.url).inserted {
                            let finding = SyncReport.Finding(file: "shards", line: 1, column: 1, code: "index", message: "the repository \(story.url) is listed twice; it is offered once, under the first id")
                            decoded.rejected.append((story.id, "", finding))
                            continue
                        }
                        stories.append(story)
                    }
                    for rejected in decoded.rejected {
                        // A rejected entry's story stays as it was last synced, rather than vanishing.
                        if !rejected.url.isEmpty {
                            applier.keep(rejected.url)
                            if let author = rejected.id.split(separator: "/").first { authors.insert(String(author)) }
                        }
                        report.items.append(.init(id: rejected.id, url: rejected.url, outcome: .failed(.invalidIndexEntry(rejected.finding)), title: nil))
                    }
                    let before = try applier.applyNoting(stories)
                    for (story, (previous, changed)) in zip(stories, before) {
                        authors.insert(story.author)
                        storyAuthors.insert(story.author.lowercased())
                        // An entry changed at the same commit (a title, a pin) is updated too: a
                        // count of "unchanged" must mean nothing changed.
                        var outcome: SyncReport.Outcome = previous == nil ? .new : (previous == story.commit && !changed ? .unchanged : .updated)
                        if let since = story.brokenSince { outcome = .broken(since: since, reason: story.brokenReason ?? "") }
                        if let since = story.unreachableSince { outcome = .unreachable(since: since, reason: story.unreachableReason ?? "") }
                        var item = SyncReport.Item(id: story.id, url: story.url, outcome: outcome, title: story.title)
                        if let was = previousURL[story.id.lowercased()], was != story.url { item.warning = .moved(from: was) }
                        report.items.append(item)
                        if previous != story.commit, FileStatus(GitSource.cachePath(for: story.url, cacheDirectory: library.location.cacheDirectory))?.isDirectory == true {
                            toFetch.append(report.items.count - 1)
                        }
                    }
                }
            }
            try library.removeAuthors(notIn: authors)
        } catch let error as SyncError {
            throw error
        } catch {
            throw .storage(StorageProblem(.updatingLibrary, error: error, databasePath: library.location.databasePath))
        }
        report.authors = storyAuthors.count
        events(.checking(total: toFetch.count))
        let items = report.items
        let positions = toFetch
        let fetched = ResultList(count: toFetch.count)
        let (connect, stall) = (options.connectSeconds, options.stallSeconds)
        runConcurrently(jobs: options.jobs, count: positions.count) { index in
            var item = items[positions[index]]
            events(.started(id: item.id))
            GitRepository.withNetworkTimeouts(connectSeconds: connect, stallSeconds: stall) {
                do {
                    _ = try GitSource.update(item.url, cache: GitSource.cachePath(for: item.url, cacheDirectory: library.location.cacheDirectory))
                } catch let error as GitError {
                    item.outcome = .failed(.transport(.git(error)))
                } catch {
                    item.outcome = .failed(.storage(StorageProblem(.storingRepository, error: error, databasePath: library.location.databasePath)))
                }
            }
            let done = fetched.store(item, at: index)
            events(.finished(item, done: done, total: positions.count))
        }
        for (position, item) in zip(toFetch, fetched.items) { report.items[position] = item }
        report.items += CatalogueSync.removals(before: earlier.map { ($0.id, $0.url, nil) }, library: library)
        return report
    }
}
