#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import LocalFiles
import StoryFormat
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The files of a story folder laid out like its repository, looked up the way a git server
/// would: names are case-sensitive, whatever the local file system does.
public final class StoryFolder: @unchecked Sendable {
    public let root: URL
    private var listings: [String: Set<String>] = [:]
    /// Folders that could not be listed, with the reason (permission denied, ...).
    private var unlistable: [String: String] = [:]
    /// Picture headers already read (several rules look at each picture).
    private var headers: [String: Result<PictureHeader, PictureHeader.Failure>?] = [:]
    private let lock = Lock()

    public init(root: URL) { self.root = root }

    /// Whether `path` (relative, '/'-separated) names a regular file, matching case exactly.
    public func fileExists(_ path: String) -> Bool {
        let components = path.split(separator: "/").map(String.init)
        guard !components.isEmpty, !components.contains("..") else { return false }
        var directory = ""
        for component in components where component != "." {
            guard listing(directory).contains(component) else { return false }
            directory = directory.isEmpty ? component : directory + "/" + component
        }
        return FileStatus(url(directory).path)?.isRegularFile == true && leavesFolder(path) == nil
    }

    /// Where `path` really leads when a symbolic link takes it outside the folder; nil when it
    /// stays inside (or does not exist). Such a file is never read: a link to /etc/passwd in
    /// a story folder is not a picture.
    public func leavesFolder(_ path: String) -> String? {
        if case .outside(let real) = LocalFile.containment(of: url(path).path, inside: root.path) { return real }
        return nil
    }

    /// A file whose path differs from `path` only in case, to suggest it.
    public func caseInsensitiveMatch(_ path: String) -> String? {
        var directory = ""
        for component in path.split(separator: "/").map(String.init) where component != "." {
            guard let match = listing(directory).first(where: { $0.lowercased() == component.lowercased() }) else { return nil }
            directory = directory.isEmpty ? match : directory + "/" + match
        }
        return directory
    }

    public func size(_ path: String) -> Int? { FileStatus(url(path).path)?.size }

    /// The first bytes of a regular file inside the folder, for recognising pictures.
    public func prefix(_ path: String, count: Int = 16) -> [UInt8] {
        guard leavesFolder(path) == nil else { return [] }
        let fd = open(url(path).path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { return [] }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return [] }
        var buffer = [UInt8](repeating: 0, count: count)
        let got = buffer.withUnsafeMutableBytes { POSIX.readBytes(fd, $0.baseAddress!, count) }
        return Array(buffer.prefix(max(0, got)))
    }

    /// The header of a picture of the folder, read once however many rules ask: its first 64 KiB,
    /// or its first MiB when a camera put more than that before the frame header. Nil when the
    /// file is not a PNG, JPEG, GIF or WebP, cannot be read, or has no header in its first MiB
    /// (then nothing is known, and nothing is said).
    public func pictureHeader(_ path: String) -> Result<PictureHeader, PictureHeader.Failure>? {
        if let cached = lock.withLock({ headers[path] }) { return cached }
        var header: Result<PictureHeader, PictureHeader.Failure>?
        for count in [64 << 10, PictureHeader.bytesNeeded] {
            let bytes = prefix(path, count: count)
            header = PictureHeader.read(bytes)
            guard case .failure? = header, bytes.count == count else { break }
            // Cut by us, not short: look further, and past the last try say nothing.
            header = count == PictureHeader.bytesNeeded ? nil : header
        }
        lock.withLock { headers[path] = header }
        return header
    }

    /// A regular file of the folder (a README), refused when a link takes it outside.
    public func read(_ path: String, limit: Int = 16 << 20) throws(LocalFile.Failure) -> [UInt8] {
        try LocalFile.read(path, inside: root.path, limit: limit)
    }

    public func url(_ path: String) -> URL { path.isEmpty ? root : root.appendingPathComponent(path) }

    /// Why a folder of the story (relative; "" for the root) cannot be listed, or nil when it can:
    /// an unreadable folder is not an empty one, and must not read as "no README.md".
    public func listingProblem(_ directory: String = "") -> String? {
        _ = listing(directory)
        return lock.withLock { unlistable[directory] }
    }

    private func listing(_ directory: String) -> Set<String> {
        lock.withLock {
            if let cached = listings[directory] { return cached }
            var names = Set<String>()
            if let handle = opendir(url(directory).path) {
                while let entry = readdir(handle) {
                    let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
                    if name != "." && name != ".." { names.insert(name) }
                }
                closedir(handle)
            } else {
                unlistable[directory] = LocalFile.reason(errno)
            }
            listings[directory] = names
            return names
        }
    }
}
