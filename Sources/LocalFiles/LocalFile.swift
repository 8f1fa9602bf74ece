#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reading files a user or a story names, safely: only regular files are opened (a FIFO, a
/// socket or a device named story.json would block or never end), the kind is checked on the
/// open descriptor before any read, and a file inside a story folder is read only when its real
/// path stays inside that folder (a symbolic link to /etc/passwd is not a picture).
public enum LocalFile {
    /// The names in a folder (not "." and ".."), unsorted; none when it cannot be read.
    public static func names(in folder: String) -> [String] {
        guard let handle = opendir(folder) else { return [] }
        defer { closedir(handle) }
        var names: [String] = []
        while let entry = readdir(handle) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
            }
            if name != ".", name != ".." { names.append(name) }
        }
        return names
    }

    /// Why a file was not read: what a person can act on, without the path (callers name it).
    public enum Failure: Error, Sendable, Equatable, CustomStringConvertible {
        case missing
        case notRegular(kind: String)
        case tooLarge(size: Int, limit: Int)
        case outsideFolder(realPath: String)
        case system(code: Int32)

        public var description: String {
            switch self {
            case .missing: "it does not exist"
            case .notRegular(let kind): "it is not a regular file (it is \(kind))"
            case .tooLarge(let size, let limit): "it is \(size) bytes, more than the limit of \(limit) bytes"
            case .outsideFolder(let realPath): "it is a link that leads outside the story folder (to \(realPath))"
            case .system(let code): LocalFile.reason(code)
            }
        }
    }

    /// Opens a regular file for reading (checked on the open descriptor, opened without
    /// blocking) and calls `body` with the descriptor and the file's size; closes it after.
    public static func withRegularFile<T>(_ path: String, limit: Int, _ body: (Int32, Int) throws(Failure) -> T) throws(Failure) -> T {
        // O_NONBLOCK: opening a FIFO for reading would otherwise wait for a writer forever.
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { throw errno == ENOENT ? .missing : .system(code: errno) }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw .system(code: errno) }
        guard info.st_mode & S_IFMT == S_IFREG else { throw .notRegular(kind: kindName(info.st_mode)) }
        let size = Int(info.st_size)
        guard size <= limit else { throw .tooLarge(size: size, limit: limit) }
        return try body(fd, size)
    }

    /// The whole file in one array (no intermediate copy, so a 75 MB story costs 75 MB).
    public static func read(_ path: String, limit: Int) throws(Failure) -> [UInt8] {
        try withRegularFile(path, limit: limit) { (fd, size) throws(Failure) in try readAll(fd, size: size) }
    }

    /// `size` bytes of an open file, read in one array.
    public static func readAll(_ fd: Int32, size: Int) throws(Failure) -> [UInt8] {
        var failure: Int32 = 0
        let bytes = [UInt8](unsafeUninitializedCapacity: size) { buffer, count in
            count = 0
            while count < size {
                #if canImport(Glibc)
                let got = Glibc.read(fd, buffer.baseAddress! + count, size - count)
                #elseif canImport(Darwin)
                let got = Darwin.read(fd, buffer.baseAddress! + count, size - count)
                #endif
                if got < 0 {
                    if errno == EINTR { continue }
                    failure = errno
                    return
                }
                if got == 0 { break }
                count += got
            }
        }
        if failure != 0 { throw .system(code: failure) }
        return bytes
    }

    /// A file of a story folder, by its '/'-separated path relative to the folder; refused when
    /// its real path (after every symbolic link) is outside the folder's real path.
    public static func read(_ relative: String, inside folder: String, limit: Int) throws(Failure) -> [UInt8] {
        try read(path(relative, inside: folder), limit: limit)
    }

    /// The path of a file of a story folder (as `read(_:inside:limit:)` takes it), refused when
    /// its real path is outside the folder's.
    public static func path(_ relative: String, inside folder: String) throws(Failure) -> String {
        let path = folder.hasSuffix("/") ? folder + relative : folder + "/" + relative
        if case .outside(let real) = containment(of: path, inside: folder) { throw .outsideFolder(realPath: real) }
        return path
    }

    public enum Containment: Sendable, Equatable {
        case inside, missing
        case outside(realPath: String)
    }

    /// Where a path really leads, compared with a folder: both resolved by realpath(3).
    public static func containment(of path: String, inside folder: String) -> Containment {
        guard let root = realPath(folder) else { return .missing }
        guard let real = realPath(path) else {
            // A dangling link still says where it points; a missing file is just missing.
            return .missing
        }
        return real == root || real.hasPrefix(root == "/" ? "/" : root + "/") ? .inside : .outside(realPath: real)
    }

    /// Whether `folder` is inside a git work tree (a `.git` in it or in a folder above it).
    public static func isInGitWorkTree(_ folder: String) -> Bool {
        var path = realPath(folder) ?? folder
        while true {
            if FileStatus(path + "/.git") != nil { return true }
            guard let slash = path.lastIndex(of: "/"), path != "/" else { return false }
            path = slash == path.startIndex ? "/" : String(path[..<slash])
        }
    }

    public static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// What a path is when it exists but is not a regular file ("a FIFO", "a folder"), through
    /// symbolic links; nil for a regular file or nothing at all.
    public static func irregularKind(_ path: String) -> String? {
        var info = stat()
        guard stat(path, &info) == 0, info.st_mode & S_IFMT != S_IFREG else { return nil }
        return kindName(info.st_mode)
    }

    static func kindName(_ mode: mode_t) -> String {
        switch mode & S_IFMT {
        case S_IFDIR: "a folder"
        case S_IFIFO: "a FIFO"
        case S_IFSOCK: "a socket"
        case S_IFCHR: "a character device"
        case S_IFBLK: "a block device"
        default: "not a regular file"
        }
    }

    /// errno in words, for the cases a person can act on.
    public static func reason(_ code: Int32) -> String {
        switch code {
        case EACCES, EPERM: "permission denied"
        case ENOENT: "it does not exist"
        case ENOTDIR: "a part of the path is not a folder"
        case EISDIR: "it is a folder"
        case ELOOP: "it is a loop of symbolic links"
        case ENAMETOOLONG: "the name is too long"
        case ENOSPC: "the disk is full"
        case EROFS: "the file system is read-only"
        case EIO: "the disk reported an input/output error"
        default: String(cString: strerror(code)).lowercased()
        }
    }
}
