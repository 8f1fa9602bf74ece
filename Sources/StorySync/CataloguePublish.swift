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

/// How a keeper publishes: the catalogue's name, how long readers may trust what is published,
/// and the key that signs it.
public struct PublishOptions: Sendable {
    public var name = "catalogue"
    /// Seconds after publishing that readers refuse the catalogue (a mirror replaying an old copy
    /// is refused once it is older than this).
    public var expiresAfter: Double = 7 * 86400
    public var key: Signify.SecretKey?
    /// The key signed with before `key`: a handover to `key`, signed by it, is published beside
    /// the root, so readers who trust the old key follow to the new one once.
    public var handoverFrom: Signify.SecretKey?
    public var now: Double = Date().timeIntervalSince1970

    public init() {}
}

/// What publishing wrote, and how the catalogue changed since the last publish in the folder.
public struct PublishResult: Sendable {
    public var stories = 0
    public var authors = 0
    public var version = 0
    public var expiresAt: Double = 0
    public var rootBytes = 0
    public var indexBytes = 0
    public var shards = 0
    /// Shards whose content changed (the others were left as they were, so their validators hold).
    public var shardsWritten = 0
    /// The signing key's number (hex), when signed.
    public var keyFingerprint: String?
    /// The key handed over from (its fingerprint), when this publish wrote a handover.
    public var handedOverFrom: String?
    /// Every story of the catalogue and every story of the last publish, each once: new, updated,
    /// unchanged, broken (kept at its last good version), removed or failed (never good, not published).
    public var items: [SyncReport.Item] = []
    /// The keeper's view of each story (for the report and the badges).
    public var status: [CatalogueStatus] = []

    public func count(_ change: SyncReport.Change) -> Int { items.count { $0.change == change } }
}

/// A catalogue as static files, for any static host or CDN:
///
///     catalogue.json    the root: name, version, expiry, and each shard's name, SHA-256 and size
///     catalogue.sig     the root with its signature embedded (signify -e), when signed
///     catalogue.pub     the public key, for readers to trust on first use
///     shards/XX.json    the stories of the authors whose name's SHA-256 starts with the byte XX
///     index.json        every story in one file, for readers older than the root
///
/// Shards by hash prefix rather than one per author: the root must stay small (it is what every
/// reader asks for), and with 10,000 authors a list of author files would be a megabyte; 256
/// prefixes keep it under 30 KB at any size while one changed author still changes one shard.
/// Files are written whole and renamed into place (shards first, the root last, so a reader who
/// sees a new root finds its shards), and a file whose content did not change is not written, so
/// its ETag holds and conditional requests keep answering 304.
public enum CatalogueRoot {
    public static let formatKey = "cyd_catalogue"
    public static let shardKey = "cyd_catalogue_shard"
    public static let rootFile = "catalogue.json"
    public static let signedRootFile = "catalogue.sig"
    public static let publicKeyFile = "catalogue.pub"
    /// The keeper's new public key file, signed (embedded, as catalogue.sig is) by the old key:
    /// `signify -V -e -p OLD.pub -x catalogue.handover -m NEW.pub` reads it.
    public static let handoverFile = "catalogue.handover"
    public static let shardFolder = "shards"
    /// The largest root a reader accepts, and the most shards.
    static let maximumRootBytes = 1 << 20
    static let maximumShards = 4096

    /// The shard an author's stories are in: the first byte of the SHA-256 of the name in lower
    /// case, in hex ("3f").
    public static func shardName(author: String) -> String {
        let digest = (try? Digest.sha256(Array(author.lowercased().utf8))) ?? [0]
        return Digest.hex([digest[0]])
    }

    static func shardPath(_ name: String) -> String { "\(shardFolder)/\(name).json" }

    static func isShardName(_ name: String) -> Bool { name.utf8.count == 2 && name.utf8.allSatisfy(CatalogueIndex.isLowercaseHex) }

    // MARK: Publishing

    public static func publish(_ library: StoryLibrary, to folder: String, options: PublishOptions = PublishOptions()) throws(SyncError) -> PublishResult {
        let entries: [CatalogueEntry]
        do { entries = try library.catalogue() } catch {
            throw .storage(StorageProblem(.readingCatalogue, error: error, databasePath: library.location.databasePath))
        }
        try makeFolder(folder)
        try makeFolder(folder + "/" + shardFolder)
        var result = PublishResult()
        let stories = entries.filter { $0.isStory == true && $0.headCommit != nil }.map { ($0.id.lowercased(), $0) }.sorted { $0.0 < $1.0 }.map(\.1)
        result.stories = stories.count
        result.authors = Set(stories.map { $0.author.lowercased() }).count
        result.status = CatalogueStatus.of(entries)

        // What the last publish in this folder offered, to say what changed.
        let previousStories = previousStories(folder)
        let previous = previousStories.mapValues(\.commit)
        let published = Set(stories.map(\.url))
        for entry in stories {
            let outcome: SyncReport.Outcome
            if let since = entry.brokenSince {
                outcome = .broken(since: since, reason: entry.lastError ?? "")
            } else if let since = entry.failingSince {
                // Published at the version last checked, marked in the shard for readers.
                outcome = .unreachable(since: since, reason: entry.lastError ?? "")
            } else if let commit = previous[entry.url] {
                outcome = commit == entry.headCommit ? .unchanged : .updated
            } else {
                outcome = .new
            }
            result.items.append(.init(id: entry.id, url: entry.url, outcome: outcome, title: entry.title))
        }
        for status in result.status where !published.contains(status.url) {
            if case .failing(_, let reason) = status.state {
                result.items.append(.init(id: status.id, url: status.url, outcome: .failed(.lastCheck(reason)), title: status.title))
            }
        }
        for (url, _) in previous.sorted(by: { $0.key < $1.key }) where !published.contains(url) {
            // Named by its id: the catalogue may have forgotten it, the last publish has not.
            let id = entries.first { $0.url == url }?.id ?? previousStories[url]?.id ?? url
            result.items.append(.init(id: id, url: url, outcome: .removed, title: nil))
        }

        // Shards, then the index of older readers, then the root.
        var groups: [String: [CatalogueEntry]] = [:]
        for entry in stories { groups[shardName(author: entry.author), default: []].append(entry) }
        var shardList: [JSONValue] = []
        for name in groups.keys.sorted() {
            let bytes = CatalogueIndex.entriesFile(key: shardKey, header: [("shard", .string(name))], entries: groups[name] ?? [])
            if try writeIfChanged(bytes, to: folder + "/" + shardPath(name)) { result.shardsWritten += 1 }
            shardList.append(.object([
                ("name", .string(name)), ("sha256", .string(try hash(bytes))), ("bytes", .number(Double(bytes.count))),
                ("stories", .number(Double(groups[name]?.count ?? 0))),
            ]))
        }
        result.shards = groups.count
        // A shard removed (its last author gone, or deleted by hand and not needed) is a change too.
        result.shardsWritten += removeStaleShards(in: folder + "/" + shardFolder, keeping: Set(groups.keys))
        let index = CatalogueIndex.entriesFile(key: CatalogueIndex.formatKey, header: [("generated_at", .number(options.now.rounded(.down)))], entries: stories)
        _ = try writeIfChanged(index, to: folder + "/" + CatalogueIndex.fileName)
        result.indexBytes = index.count

        // The version never goes down, even when the folder is made afresh (a CI job): it is the
        // time of publishing, or one more than the last, whichever is higher.
        let previousVersion = previousRootVersion(folder) ?? 0
        result.version = max(previousVersion + 1, Int(options.now))
        result.expiresAt = (options.now + options.expiresAfter).rounded(.down)
        var root = Array("{\n".utf8)
        let header: [(String, JSONValue)] = [
            (formatKey, .number(2)), ("name", .string(options.name)), ("version", .number(Double(result.version))),
            ("generated_at", .number(options.now.rounded(.down))), ("expires_at", .number(result.expiresAt)),
            ("stories", .number(Double(result.stories))), ("authors", .number(Double(result.authors))),
            ("broken", .number(Double(result.count(.broken)))), ("index", .string(CatalogueIndex.fileName)),
        ]
        for (name, value) in header {
            root += Array("  \"\(name)\": ".utf8)
            value.write(to: &root)
            root += Array(",\n".utf8)
        }
        root += Array("  \"shards\": [".utf8)
        for (position, shard) in shardList.enumerated() {
            root += Array((position == 0 ? "\n    " : ",\n    ").utf8)
            shard.write(to: &root)
        }
        root += Array((shardList.isEmpty ? "]\n}\n" : "\n  ]\n}\n").utf8)
        result.rootBytes = root.count
        if let key = options.key {
            let signed: [UInt8]
            do {
                signed = try Signify.embed(root, signedWith: key, comment: "verify with \(publicKeyFile) (key \(key.publicKey.fingerprint))")
            } catch {
                throw .unavailable(source: folder, reason: "the root cannot be signed: \(SyncWords.trust(.signature(error)))")
            }
            if let old = options.handoverFrom, old.publicKey.fingerprint != key.publicKey.fingerprint {
                // Written before the root that the new key signs, so a reader who meets that
                // root can already find the way to it.
                let handover: [UInt8]
                do {
                    handover = try Signify.embed(
                        key.publicKey.file(comment: "\(options.name) catalogue public key"), signedWith: old,
                        comment: "handover from key \(old.publicKey.fingerprint) to key \(key.publicKey.fingerprint)")
                } catch {
                    throw .unavailable(source: folder, reason: "the handover cannot be signed: \(SyncWords.trust(.signature(error)))")
                }
                try write(handover, to: folder + "/" + handoverFile)
                result.handedOverFrom = old.publicKey.fingerprint
            }
            try write(key.publicKey.file(comment: "\(options.name) catalogue public key"), to: folder + "/" + publicKeyFile)
            try write(signed, to: folder + "/" + signedRootFile)
            result.keyFingerprint = key.publicKey.fingerprint
        } else {
            // An unsigned publish leaves no signed root behind that readers would take as current.
            unlink(folder + "/" + signedRootFile)
        }
        try write(root, to: folder + "/" + rootFile)
        return result
    }

    static func hash(_ bytes: [UInt8]) throws(SyncError) -> String {
        do { return try Digest.sha256Hex(bytes) } catch { throw .unavailable(source: "SHA-256", reason: error.description) }
    }

    public static func makeFolder(_ folder: String) throws(SyncError) {
        if FileStatus(folder) == nil { try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) }
        guard FileStatus(folder)?.isDirectory == true else { throw .storage(StorageProblem(.publishing(into: folder), .notAFolder(path: folder))) }
    }

    public static func write(_ bytes: [UInt8], to path: String) throws(SyncError) {
        do {
            try AtomicFile.write(bytes, to: path)
        } catch {
            throw .storage(StorageProblem(.publishing(into: path), .file(path: path, error)))
        }
    }

    /// Writes the file unless it already holds these bytes; whether it wrote. `durable: false`
    /// leaves flushing to the caller (many small files, then `AtomicFile.syncFileSystem`).
    public static func writeIfChanged(_ bytes: [UInt8], to path: String, durable: Bool = true) throws(SyncError) -> Bool {
        if let status = FileStatus(path), status.size == bytes.count, (try? LocalFile.read(path, limit: bytes.count + 1)) == bytes { return false }
        if durable {
            try write(bytes, to: path)
        } else {
            do { try AtomicFile.writeUnsynced(bytes, to: path) } catch { throw .storage(StorageProblem(.publishing(into: path), .file(path: path, error))) }
        }
        return true
    }

    /// Removes shard files (only names like "3f.json") that the new root does not list.
    /// Removes the shards no longer named; how many it removed.
    @discardableResult
    static func removeStaleShards(in folder: String, keeping names: Set<String>) -> Int {
        guard let listing = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return 0 }
        var removed = 0
        for file in listing where file.hasSuffix(".json") {
            let name = String(file.dropLast(5))
            if isShardName(name), !names.contains(name), unlink(folder + "/" + file) == 0 { removed += 1 }
        }
        return removed
    }

    /// The commits of the index last published in the folder, by URL (empty when there is none).
    static func previousIndex(_ folder: String) -> [String: String] { previousStories(folder).mapValues(\.commit) }

    /// The stories of the index last published in the folder, by URL: their commit and id.
    static func previousStories(_ folder: String) -> [String: (commit: String, id: String)] {
        let path = folder + "/" + CatalogueIndex.fileName
        guard let bytes = try? LocalFile.read(path, limit: CatalogueSource.maximumBytes),
            let decoded = try? CatalogueIndex.decode(CatalogueSource.Contents(bytes: bytes, displayName: path))
        else { return [:] }
        return Dictionary(decoded.stories.map { ($0.url, ($0.commit, $0.id)) }, uniquingKeysWith: { first, _ in first })
    }

    static func previousRootVersion(_ folder: String) -> Int? {
        guard let bytes = try? LocalFile.read(folder + "/" + rootFile, limit: maximumRootBytes), let value = JSONValue.parse(bytes) else { return nil }
        return value["version"]?.int
    }
}

/// How one repository of the catalogue stands, as a keeper sees it.
public struct CatalogueStatus: Sendable, Equatable {
    public enum State: Sendable, Equatable {
        /// Good, no findings.
        case ok
        /// Good, with warnings (the count).
        case warnings(Int)
        /// Its newer commits cannot be read since then; the last good version is offered.
        case broken(since: Double, reason: String)
        /// Every check has failed since then (the host unreachable, the repository gone).
        case unreachable(since: Double, reason: String)
        /// Never good: it is not offered (why, and since when if known).
        case failing(since: Double?, reason: String)
        /// Discovered, not checked yet.
        case unchecked
    }

    public var id: String
    public var url: String
    public var title: String?
    public var state: State
    /// The commit offered to readers (the last good one).
    public var lastGoodCommit: String?
    public var errors: Int?
    public var warnings: Int?
    /// When the offered commit last changed, and when the repository was last checked.
    public var changedAt: Double?
    public var checkedAt: Double?

    public init(
        id: String, url: String, title: String? = nil, state: State, lastGoodCommit: String? = nil, errors: Int? = nil, warnings: Int? = nil,
        changedAt: Double? = nil, checkedAt: Double? = nil
    ) {
        (self.id, self.url, self.title, self.state, self.lastGoodCommit) = (id, url, title, state, lastGoodCommit)
        (self.errors, self.warnings, self.changedAt, self.checkedAt) = (errors, warnings, changedAt, checkedAt)
    }

    /// The keeper's view of each repository that is, or tried to be, a story (quietly not-a-story
    /// repositories are left out), in id order.
    public static func of(_ entries: [CatalogueEntry]) -> [CatalogueStatus] {
        entries.compactMap { entry -> CatalogueStatus? in
            let state: State
            let good = entry.isStory == true && entry.headCommit != nil
            if good, let since = entry.brokenSince {
                state = .broken(since: since, reason: entry.lastError ?? "")
            } else if let since = entry.failingSince {
                state = good ? .unreachable(since: since, reason: entry.lastError ?? "") : .failing(since: since, reason: entry.lastError ?? "")
            } else if good {
                let warnings = (entry.warningCount ?? 0) + (entry.warning == nil ? 0 : 1)
                state = warnings > 0 ? .warnings(warnings) : .ok
            } else if entry.isStory == false, entry.outcome == .invalidStory || entry.outcome == .failed || (entry.outcome == .noStoryFile && entry.discovery == .listed) {
                state = .failing(since: entry.brokenSince, reason: entry.lastError ?? "")
            } else if entry.isStory == nil {
                if let error = entry.lastError {
                    state = .failing(since: entry.failingSince, reason: error)
                } else {
                    state = .unchecked
                }
            } else {
                return nil
            }
            return CatalogueStatus(
                id: entry.id, url: entry.url, title: entry.title, state: state, lastGoodCommit: good ? entry.headCommit : nil,
                errors: good ? entry.errorCount : nil, warnings: good ? entry.warningCount : nil, changedAt: entry.changedAt, checkedAt: entry.checkedAt)
        }.map { ($0.id.lowercased(), $0) }.sorted { $0.0 < $1.0 }.map(\.1)
    }
}
