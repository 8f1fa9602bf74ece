#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Dispatch
#if canImport(Glibc)
import Glibc
#endif
import LocalFiles
import StoryFormat
import StorySources

/// The badge of each story in a published catalogue: badges/AUTHOR/REPOSITORY.svg.
///
/// Which badge each story has is kept in badges/.cyd-badges.json, so a publish writes only the
/// badges that changed (and removes those of stories gone) without reading 100,000 files. A
/// catalogue has a handful of distinct badges ("valid", "2 warnings", "broken"): each is written
/// once, as badges/.cyd-badge-HASH-SIZE-N.svg, and every story's badge is a hard link to it,
/// placed whole (a link to a new name renamed over the old one), so a fresh publish of 100,000
/// stories makes 100,000 directory entries rather than 100,000 files to write and flush.
public enum CatalogueBadges {
    /// A file system allows only so many names for one file (ext4: 65,000): a distinct badge gets
    /// a copy of its own per this many links.
    public static let linksPerCopy = 50_000

    /// Writes the badges under `folder` (made if missing): `badges` gives each story id
    /// (`author/repository`; other ids have no badge) the badge it shows, by its message;
    /// `draw` makes a message's SVG, once per distinct message written.
    public static func write(_ badges: [(id: String, message: String)], draw: (String) -> [UInt8], into folder: String) throws(SyncError) {
        try CatalogueRoot.makeFolder(folder)
        let manifestPath = folder + "/.cyd-badges.json"
        var previous: [String: String] = [:]
        if let bytes = try? LocalFile.read(manifestPath, limit: 256 << 20), case .object(let members)? = JSONValue.parse(bytes) {
            for (path, message) in members { if let message = message.string { previous[path] = message } }
        }
        var current: [(String, JSONValue)] = []
        // Each story's badge path and which distinct badge it shows (an index into `drawn`).
        var toWrite: [(path: String, badge: Int)] = []
        var drawn: [[UInt8]] = []
        var drawnIndex: [String: Int] = [:]
        var authors = Set<String>()
        for (id, message) in badges {
            guard let relative = path(of: id) else { continue }
            current.append((relative, .string(message)))
            if previous[relative] == message, FileStatus(folder + "/" + relative) != nil { continue }
            authors.insert(String(relative[..<(relative.firstIndex(of: "/") ?? relative.endIndex)]))
            let badge = drawnIndex[message] ?? {
                drawn.append(draw(message))
                drawnIndex[message] = drawn.count - 1
                return drawn.count - 1
            }()
            toWrite.append((folder + "/" + relative, badge))
        }
        for author in authors.sorted() { try CatalogueRoot.makeFolder(folder + "/" + author) }
        // Each distinct badge once per `linksPerCopy` links, then a link to it for each story.
        var sources: [String] = []
        var uses = [Int](repeating: 0, count: drawn.count)
        for (_, badge) in toWrite {
            let bytes = drawn[badge]
            let copy = uses[badge] / linksPerCopy
            uses[badge] += 1
            // Named by its content: a source already there holds these bytes and is kept (its
            // other names are stories' badges), never rewritten.
            let path = folder + "/.cyd-badge-" + String(FNV1a.hash(bytes), radix: 16) + "-\(bytes.count)-\(copy).svg"
            sources.append(path)
            guard uses[badge] == copy * linksPerCopy + 1 else { continue }
            if FileStatus(path)?.size != bytes.count || (try? LocalFile.read(path, limit: bytes.count + 1)) != bytes {
                unlink(path)
                try CatalogueRoot.write(bytes, to: path)
            }
        }
        let failures = FirstFailure()
        let work = zip(toWrite, sources).map { (path: $0.path, source: $1, bytes: drawn[$0.badge]) }
        DispatchQueue.concurrentPerform(iterations: 2) { lane in
            for index in stride(from: lane, to: work.count, by: 2) {
                do throws(AtomicFile.Failure) { try AtomicFile.placeLink(to: work[index].source, at: work[index].path, orWrite: work[index].bytes) } catch {
                    failures.note(work[index].path, error)
                }
            }
        }
        if let (path, error) = failures.first { throw .storage(StorageProblem(.publishing(into: path), .file(path: path, error))) }
        AtomicFile.syncFileSystem(of: folder)
        // Badge sources no story links to any more go (a link's own name stays until replaced).
        let used = Set(sources.map { $0.split(separator: "/").last.map(String.init) ?? $0 })
        for file in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [] where file.hasPrefix(".cyd-badge-") && !used.contains(file) {
            let path = folder + "/" + file
            var info = stat()
            if lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_nlink == 1 { unlink(path) }
        }
        // Badges of stories no longer listed are removed; nothing else is touched.
        let kept = Set(current.map(\.0))
        for path in previous.keys where !kept.contains(path) && Sources.isSafe(path) {
            unlink(folder + "/" + path)
            // The author's folder goes with their last badge (rmdir leaves a folder that holds any).
            if let slash = path.lastIndex(of: "/") { rmdir(folder + "/" + String(path[..<slash])) }
        }
        var manifest: [UInt8] = []
        JSONValue.object(current).write(to: &manifest)
        try CatalogueRoot.write(manifest, to: manifestPath)
    }

    /// The badge's path inside the folder for a story id `author/repository`; nil for an id
    /// that is not two plain file names (ids from GitHub and URLs always are).
    public static func path(of id: String) -> String? {
        let parts = id.split(separator: "/", maxSplits: 1).map(String.init)
        guard parts.count == 2, parts.allSatisfy({ Sources.isSafe($0) && !$0.contains("/") && !$0.hasPrefix(".") }) else { return nil }
        return parts[0] + "/" + parts[1] + ".svg"
    }

    /// The first badge that could not be placed (from the writing threads).
    private final class FirstFailure: @unchecked Sendable {
        private let lock = Lock()
        private var noted: (String, AtomicFile.Failure)?
        var first: (String, AtomicFile.Failure)? { lock.withLock { noted } }
        func note(_ path: String, _ error: AtomicFile.Failure) { lock.withLock { if noted == nil { noted = (path, error) } } }
    }
}
