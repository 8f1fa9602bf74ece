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
import Transport

/// A published catalogue: one JSON file with every story a catalogue keeper's sync found, so a
/// hundred thousand readers ask one static file (conditionally) instead of GitHub.
///
///     { "cyd_catalogue_index": 1, "generated_at": 1795000000,
///       "stories": [ { "author": "alice", "repository": "tide", "url": "https://…/tide.git",
///                      "commit": "…", "story_id": "tide", "title": "Tide", "rating": "G",
///                      "summary": "…", "chapters": 12 } ] }
///
/// One file, not shards: 200 stories are 60 KB and a no-op sync is one 304; at 100,000 stories it
/// is about 30 MB, fetched only when it changed (shards would pay off past that).
public enum CatalogueIndex {
    public static let formatKey = "cyd_catalogue_index"
    public static let fileName = "index.json"

    /// Whether the bytes are an index rather than authors.json (the marker key, near the start).
    public static func isIndex(_ bytes: [UInt8]) -> Bool {
        let marker = Array("\"\(formatKey)\"".utf8)
        let head = bytes.prefix(4096)
        guard head.count >= marker.count else { return false }
        return head.indices.dropLast(marker.count - 1).contains { start in head[start..<(start + marker.count)].elementsEqual(marker) }
    }

    // MARK: Publishing

    /// Writes the catalogue's stories to `folder/index.json` (made whole, then renamed into place:
    /// a reader never sees half a file). Returns how many stories and bytes.
    public static func publish(_ library: StoryLibrary, to folder: String, at time: Double = Date().timeIntervalSince1970) throws(SyncError) -> (stories: Int, bytes: Int) {
        let entries: [CatalogueEntry]
        do { entries = try library.catalogue() } catch { throw .storage("cannot read the catalogue: \(words(error))") }
        let stories = entries.filter { $0.isStory == true && $0.headCommit != nil }.sorted { $0.id.lowercased() < $1.id.lowercased() }
        var out = "{\n  \"\(formatKey)\": 1,\n  \"generated_at\": \(Int(time)),\n  \"stories\": ["
        for (index, entry) in stories.enumerated() {
            out += index == 0 ? "\n" : ",\n"
            out += "    {"
            let fields: [(String, String)] = [
                ("author", entry.author), ("repository", entry.repository), ("url", entry.url), ("commit", entry.headCommit ?? ""),
                ("story_id", entry.storyKey ?? ""), ("title", entry.title ?? ""), ("rating", entry.rating ?? ""), ("summary", entry.summary ?? ""),
            ]
            out += fields.map { "\"\($0.0)\": \(JSONQuoting.quoted($0.1))" }.joined(separator: ", ")
            out += ", \"chapters\": \(entry.chapterCount ?? 0)}"
        }
        out += stories.isEmpty ? "]\n}\n" : "\n  ]\n}\n"
        let bytes = Array(out.utf8)
        try write(bytes, to: folder)
        return (stories.count, bytes.count)
    }

    static func write(_ bytes: [UInt8], to folder: String) throws(SyncError) {
        if FileStatus(folder) == nil { mkdir(folder, 0o755) }
        guard FileStatus(folder)?.isDirectory == true else { throw .storage("cannot publish into \(folder): it is not a folder") }
        let target = folder + "/" + fileName
        do {
            try AtomicFile.write(bytes, to: target)
        } catch {
            let reason: String
            switch error {
            case .system(let code): reason = LocalFile.reason(code)
            case .readOnly: reason = "it is read-only"
            case .hardLinked(let links): reason = "it has \(links) hard links"
            case .isFolder: reason = "it is a folder"
            case .noName, .changedSinceRead: reason = "it cannot be replaced"
            case .folderMissing(let folder), .notAFolder(let folder): reason = "'\(folder)' is not a folder"
            case .unreadable(let failure): reason = failure.description
            }
            throw .storage("cannot write \(target): \(reason)")
        }
    }

    // MARK: Reading

    /// The stories of an index, or findings with line:column saying why it cannot be used.
    static func decode(_ contents: CatalogueSource.Contents) throws(SyncError) -> [IndexedStory] {
        let parsed = JSONParser(options: .init(lenient: true)).parse(contents.bytes)
        let lines = LineIndex(contents.bytes)
        func finding(_ offset: Int, _ message: String) -> SyncReport.Finding {
            let position = lines.position(of: offset)
            return SyncReport.Finding(file: contents.displayName, line: position.line, column: position.column, code: "index", message: message)
        }
        guard let document = parsed.document, let root = document.root, document.kind(root) == .object else {
            let first = parsed.diagnostics.first
            throw .invalidCatalogue(file: contents.displayName, findings: [finding(first?.range.lowerBound ?? 0, first?.message ?? "the index must hold an object")])
        }
        guard let version = document.member(root, formatKey), document.kind(version) == .number, document.number(version) == 1 else {
            throw .invalidCatalogue(file: contents.displayName, findings: [finding(document.range(root).lowerBound, "\(formatKey) must be 1; this cyd reads version 1 indexes")])
        }
        guard let list = document.member(root, "stories"), document.kind(list) == .array else {
            throw .invalidCatalogue(file: contents.displayName, findings: [finding(document.range(root).lowerBound, "the index has no \"stories\" array")])
        }
        var stories: [IndexedStory] = []
        var problems: [SyncReport.Finding] = []
        for element in document.elements(of: list) {
            guard document.kind(element) == .object else {
                problems.append(finding(document.range(element).lowerBound, "each story must be an object"))
                continue
            }
            func text(_ key: String) -> String? {
                guard let node = document.member(element, key), document.kind(node) == .string else {
                    problems.append(finding(document.range(element).lowerBound, "the story has no string \"\(key)\""))
                    return nil
                }
                return document.string(node)
            }
            let chapters = document.member(element, "chapters").flatMap { document.kind($0) == .number ? document.number($0) : nil }
            guard let author = text("author"), let repository = text("repository"), let url = text("url"), let commit = text("commit"),
                let storyKey = text("story_id"), let title = text("title"), let rating = text("rating"), let summary = text("summary")
            else { continue }
            guard GitSource.isGitURL(url), !WebSource.isPlainHTTP(url) else {
                problems.append(finding(document.range(element).lowerBound, "\"url\" must be an https:// or git:// repository URL"))
                continue
            }
            stories.append(IndexedStory(
                author: author, repository: repository, url: url, commit: commit, storyKey: storyKey, title: title, rating: rating, summary: summary,
                chapters: Int(chapters ?? 0)))
        }
        if !problems.isEmpty { throw .invalidCatalogue(file: contents.displayName, findings: Array(problems.prefix(5))) }
        return stories
    }

    // MARK: Syncing from an index

    /// Brings the catalogue to the index: no GitHub, no ls-remote. Stories whose commit changed
    /// and that this machine has fetched before (a clone in the cache) are fetched again, so
    /// `cyd update` and `cyd get` find them ready; the others are fetched when downloaded.
    static func sync(
        _ contents: CatalogueSource.Contents, options: SyncOptions, library: StoryLibrary, events: @escaping @Sendable (SyncEvent) -> Void
    ) throws(SyncError) -> SyncReport {
        let stories = try decode(contents)
        var report = SyncReport()
        report.fromIndex = true
        report.authors = Set(stories.map { $0.author.lowercased() }).count
        let before: [String: String?]
        do {
            try library.removeAuthors(notIn: Set(stories.map(\.author)))
            before = try library.applyIndex(stories, at: Date().timeIntervalSince1970)
        } catch {
            throw .storage("cannot update the library: \(words(error))")
        }
        var toFetch: [Int] = []
        for story in stories {
            let previous = before[story.url] ?? nil
            let outcome: SyncReport.Outcome = previous == nil ? .new : (previous == story.commit ? .unchanged : .updated)
            report.items.append(.init(id: story.id, url: story.url, outcome: outcome, title: story.title))
            let cache = GitSource.cachePath(for: story.url, cacheDirectory: library.location.cacheDirectory)
            if outcome != .unchanged, FileStatus(cache)?.isDirectory == true { toFetch.append(report.items.count - 1) }
        }
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
                    item.outcome = .failed(.storage(words(error)))
                }
            }
            let done = fetched.store(item, at: index)
            events(.finished(item, done: done, total: positions.count))
        }
        for (position, item) in zip(toFetch, fetched.items) { report.items[position] = item }
        return report
    }
}
