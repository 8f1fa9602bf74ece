#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where a running live preview and an editor's language server find each other: a folder of
/// the user's own (`$XDG_RUNTIME_DIR`, else `/tmp/cyd-UID`, mode 0700), and in it, per story
/// folder (named by a hash of its real path), the preview's address and the chapter the editor
/// last asked it to show. Files, not a socket: the language server needs no HTTP, and only the
/// user can write there.
public struct PreviewRendezvous: Sendable {
    public let storyFolder: String
    public let folder: String
    public let key: String

    /// For the story in `storyFolder`; nil when the folder does not exist.
    public init?(storyFolder: String, environment: [String: String]) {
        guard let real = realpath(storyFolder, nil) else { return nil }
        defer { free(real) }
        let resolved = String(cString: real)
        self.storyFolder = resolved
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in resolved.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        key = String(hash, radix: 16)
        if let runtime = environment["XDG_RUNTIME_DIR"], !runtime.isEmpty, FileStatus(runtime)?.isDirectory == true {
            folder = runtime + "/cyd"
        } else {
            folder = "/tmp/cyd-\(getuid())"
        }
    }

    public var addressFile: String { folder + "/preview-\(key).address" }
    public var chapterFile: String { folder + "/preview-\(key).chapter" }

    public enum Failure: Error, Sendable, Equatable {
        /// The folder could not be made, or is not one only the user can write.
        case unsafeFolder(path: String, reason: String)
        case file(path: String, AtomicFile.Failure)
    }

    /// Makes the folder (0700), refusing one that is not ours or that others may write.
    public func prepare() throws(Failure) {
        if mkdir(folder, 0o700) != 0, errno != EEXIST { throw .unsafeFolder(path: folder, reason: LocalFile.reason(errno)) }
        var info = stat()
        guard lstat(folder, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR, info.st_uid == getuid(), info.st_mode & 0o077 == 0 else {
            throw .unsafeFolder(path: folder, reason: "it is not a folder of yours that only you can write")
        }
    }

    /// Says the preview runs at `port` (nil: it stopped).
    public func announce(port: Int?) throws(Failure) {
        try prepare()
        guard let port else {
            unlink(addressFile)
            return
        }
        do { _ = try AtomicFile.write(Array("\(port)\n".utf8), to: addressFile) } catch { throw .file(path: addressFile, error) }
    }

    /// The running preview's port, when one says it runs.
    public func port() -> Int? {
        guard let bytes = try? LocalFile.read(addressFile, limit: 64) else { return nil }
        return Int(String(decoding: bytes, as: UTF8.self).split(separator: "\n").first ?? "")
    }

    /// Asks the preview to show `chapter` (the editor's "Preview this chapter").
    public func ask(chapter: String) throws(Failure) {
        try prepare()
        do { _ = try AtomicFile.write(Array(chapter.utf8), to: chapterFile) } catch { throw .file(path: chapterFile, error) }
    }

    /// The chapter last asked for, and takes the request away.
    public func takeAskedChapter() -> String? {
        guard let bytes = try? LocalFile.read(chapterFile, limit: 4096) else { return nil }
        unlink(chapterFile)
        return String(decoding: bytes, as: UTF8.self)
    }
}
