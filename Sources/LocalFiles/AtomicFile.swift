#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writing a whole file all or nothing: a temporary file beside it, written, synced and renamed
/// into place. What a person had stays theirs: a symbolic link keeps pointing at the file it
/// named (the file it leads to is the one written), a file's permission bits and owner are kept,
/// a read-only file or one with other hard links is refused, and a file replaced after it was
/// read (`replace(_:with:)`) is compared with what was read just before the rename, so an edit
/// made by another program meanwhile is never lost. The catchable signals that end a process
/// wait while a temporary file exists, and the leftovers of processes killed outright
/// (SIGKILL, a power cut) are removed by the next write in that folder.
///
/// Only a regular file (or a new name) is replaced. Anything else a path can name is never
/// replaced, as coreutils and git never replace it: a character device (`/dev/null`, a terminal)
/// or a FIFO is written in place, through the path; a standard stream's name (`/dev/stdout`,
/// `/dev/stderr`, `/dev/fd/N`, `/proc/self/fd/N`, or a link leading to one) is written to that
/// descriptor; a block device or a socket is refused.
public enum AtomicFile {
    /// Why a file was not written, without the path (callers name it).
    public enum Failure: Error, Sendable, Equatable {
        case noName
        case isFolder
        case folderMissing(folder: String)
        case notAFolder(folder: String)
        /// The file exists and its permission bits let nobody write it.
        case readOnly
        /// The file has other names (hard links); replacing it would leave them with the old text.
        case hardLinked(links: Int)
        /// The file was changed (or replaced, or removed) since it was read.
        case changedSinceRead
        /// The file to be replaced could not be read.
        case unreadable(LocalFile.Failure)
        /// The path names something that is neither a file nor a stream cyd may write through.
        case notAFile(NodeKind)
        case system(code: Int32)
    }

    /// What a path names when it is not a regular file or a folder.
    public enum NodeKind: Sendable, Equatable {
        case blockDevice, socket, unknown

        init(mode: mode_t) {
            switch mode & S_IFMT {
            case S_IFBLK: self = .blockDevice
            case S_IFSOCK: self = .socket
            default: self = .unknown
            }
        }
    }

    /// How a write reached its target.
    public enum Placement: Sendable, Equatable {
        /// A regular file, created or replaced whole.
        case replaced
        /// A character device or a FIFO, written through in place (never replaced).
        case writtenThrough
        /// An open descriptor named by the path (`/dev/stdout` is 1), written at its position.
        case stream(descriptor: Int32)
    }

    /// The name the command line may give standard output (`-` is its own word for it).
    public static let standardOutput = "/dev/stdout"

    /// The descriptor a path names when it is one of the names of an open stream: `/dev/stdin`,
    /// `/dev/stdout`, `/dev/stderr`, `/dev/fd/N` or `/proc/self/fd/N`, given or reached through
    /// symbolic links (nil for anything else).
    public static func streamDescriptor(_ path: String) -> Int32? {
        var current = path
        for _ in 0..<40 {
            if let descriptor = namedStream(current) { return descriptor }
            var info = stat()
            guard lstat(current, &info) == 0, info.st_mode & S_IFMT == S_IFLNK else { return nil }
            var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
            let length = readlink(current, &buffer, buffer.count - 1)
            guard length > 0 else { return nil }
            let target = String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            current = target.hasPrefix("/") ? target : parentFolder(of: current) + "/" + target
        }
        return nil
    }

    private static func namedStream(_ path: String) -> Int32? {
        switch path {
        case "/dev/stdin": return 0
        case "/dev/stdout": return 1
        case "/dev/stderr": return 2
        default:
            for prefix in ["/dev/fd/", "/proc/self/fd/"] where path.hasPrefix(prefix) {
                if let number = Int32(path.dropFirst(prefix.count)), number >= 0 { return number }
            }
            return nil
        }
    }

    /// A file read in order to be replaced: its bytes (in memory, never a mapping another
    /// process can change under us) and what stat(2) said of it when they were read.
    public struct Original: Sendable {
        /// The path written: the file a symbolic link leads to, or the path itself.
        public let path: String
        public let bytes: [UInt8]
        let identity: Identity
    }

    struct Identity: Sendable, Equatable {
        var device: UInt64
        var inode: UInt64
        var size: Int
        var modifiedSeconds: Int
        var modifiedNanoseconds: Int
        var mode: UInt32
        var owner: UInt32
        var group: UInt32
        var links: Int

        init(_ info: stat) {
            device = UInt64(info.st_dev)
            inode = UInt64(info.st_ino)
            size = Int(info.st_size)
            #if canImport(Darwin)
            modifiedSeconds = Int(info.st_mtimespec.tv_sec)
            modifiedNanoseconds = Int(info.st_mtimespec.tv_nsec)
            #else
            modifiedSeconds = Int(info.st_mtim.tv_sec)
            modifiedNanoseconds = Int(info.st_mtim.tv_nsec)
            #endif
            mode = UInt32(info.st_mode)
            owner = UInt32(info.st_uid)
            group = UInt32(info.st_gid)
            links = Int(info.st_nlink)
        }

        /// The same file, unchanged as far as stat(2) can tell.
        func isSameVersion(as other: Identity) -> Bool {
            device == other.device && inode == other.inode && size == other.size && modifiedSeconds == other.modifiedSeconds
                && modifiedNanoseconds == other.modifiedNanoseconds
        }
    }

    /// Reads a file that is going to be replaced: a regular file, through any symbolic links,
    /// refused when it cannot be written back (read-only, or hard-linked).
    public static func readForReplacing(_ path: String, limit: Int) throws(Failure) -> Original {
        let target = resolvedTarget(path)
        do {
            return try LocalFile.withRegularFile(target, limit: limit) { (fd, size) throws(LocalFile.Failure) in
                var info = stat()
                guard fstat(fd, &info) == 0 else { throw .system(code: errno) }
                let bytes = try LocalFile.readAll(fd, size: size)
                return Original(path: target, bytes: bytes, identity: Identity(info))
            }
        } catch {
            throw .unreadable(error)
        }
    }

    /// Replaces a file read by `readForReplacing` with `bytes`, unless it changed meanwhile.
    public static func replace(_ original: Original, with bytes: [UInt8]) throws(Failure) {
        try write(bytes, to: original.path, expecting: original)
    }

    /// Writes `bytes` to `path`, creating it or replacing it whole.
    @discardableResult
    public static func write(_ bytes: [UInt8], to path: String) throws(Failure) -> Placement {
        try write(bytes, to: path, expecting: nil)
    }

    /// Writes `bytes` to `path` whole (renamed into place), without waiting for the disk: for many
    /// small files written together (a catalogue's badges), made durable at once by the caller
    /// (`syncFileSystem`) instead of one flush each.
    @discardableResult
    public static func writeUnsynced(_ bytes: [UInt8], to path: String) throws(Failure) -> Placement {
        try write(to: path, expecting: nil, durable: false) { fd in bytes.withUnsafeBytes { POSIX.writeAll(fd, $0) } }
    }

    /// Flushes the file system holding `path` to the disk (after `writeUnsynced`).
    public static func syncFileSystem(of path: String) {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        if fd >= 0 {
            _ = linuxSyncfs(fd)
            close(fd)
        }
    }

    /// Writes `bytes` to a new file with this mode (0o600 for a secret: never readable by others,
    /// not even for a moment).
    @discardableResult
    public static func write(_ bytes: [UInt8], to path: String, mode: mode_t) throws(Failure) -> Placement {
        try write(to: path, expecting: nil, newMode: mode) { fd in bytes.withUnsafeBytes { POSIX.writeAll(fd, $0) } }
    }

    /// Writes what `produce` hands its writer, piece by piece, to `path`, creating it or
    /// replacing it whole once everything is written: a large report is never held in memory,
    /// and a reader of `path` sees the old file or the new one, never a part.
    @discardableResult
    public static func write(to path: String, streaming produce: (_ write: ([UInt8]) -> Void) -> Void) throws(Failure) -> Placement {
        try write(to: path, expecting: nil) { fd in
            var failure: Int32 = 0
            var written = 0
            var flushed = 0
            produce { piece in
                guard failure == 0 else { return }
                failure = piece.withUnsafeBytes { POSIX.writeAll(fd, $0) }
                written += piece.count
                // The disk starts on what is written while the rest is made: the sync at the end
                // then waits for the last pieces only, not for the whole file.
                if failure == 0, written - flushed >= 1 << 20 {
                    startWriteback(fd, from: flushed, count: written - flushed)
                    flushed = written
                }
            }
            return failure
        }
    }

    @discardableResult
    private static func write(_ bytes: [UInt8], to given: String, expecting original: Original?) throws(Failure) -> Placement {
        try write(to: given, expecting: original) { fd in bytes.withUnsafeBytes { POSIX.writeAll(fd, $0) } }
    }

    /// - Parameter fill: writes the contents to the temporary file; 0, or the errno that stopped it.
    private static func write(
        to given: String, expecting original: Original?, newMode: mode_t = 0o644, durable: Bool = true, fill: (Int32) -> Int32
    ) throws(Failure) -> Placement {
        guard !given.isEmpty else { throw .noName }
        if original == nil, let descriptor = streamDescriptor(given) {
            let failure = fill(descriptor)
            guard failure == 0 else { throw .system(code: failure) }
            return .stream(descriptor: descriptor)
        }
        let path = original?.path ?? resolvedTarget(given)
        var existing: Identity?
        var info = stat()
        if stat(path, &info) == 0 {
            switch info.st_mode & S_IFMT {
            case S_IFREG: break
            case S_IFDIR: throw .isFolder
            case S_IFCHR, S_IFIFO:
                guard original == nil else { throw .changedSinceRead }
                try writeThrough(path, fill: fill)
                return .writtenThrough
            default: throw .notAFile(NodeKind(mode: info.st_mode))
            }
            existing = Identity(info)
        } else if errno != ENOENT {
            throw .system(code: errno)
        }
        if let original {
            guard let existing, existing.isSameVersion(as: original.identity) else { throw .changedSinceRead }
        }
        if let existing {
            if existing.mode & 0o222 == 0 || access(path, W_OK) != 0 { throw .readOnly }
            if existing.links > 1 { throw .hardLinked(links: existing.links) }
        }
        let folder = parentFolder(of: path)
        var folderInfo = stat()
        guard stat(folder, &folderInfo) == 0 else {
            throw errno == ENOENT ? .folderMissing(folder: folder) : .system(code: errno)
        }
        guard folderInfo.st_mode & S_IFMT == S_IFDIR else { throw .notAFolder(folder: folder) }
        let name = path.split(separator: "/").last.map(String.init) ?? "file"
        removeLeftovers(of: name, in: folder)
        let temporary = (folder == "." && !path.hasPrefix("./") ? "" : folder + "/") + temporaryName(for: name, pid: getpid())

        // From here until the temporary file is renamed or removed, SIGINT, SIGTERM, SIGHUP and
        // SIGQUIT wait; one that came meanwhile ends the process right after, as it would have.
        // (In this thread: a process-wide signal can still be taken by another thread that does
        // not block it; what it leaves is removed by the next write in the folder.)
        var blocked = sigset_t()
        var previous = sigset_t()
        sigemptyset(&blocked)
        for signal in [SIGINT, SIGTERM, SIGHUP, SIGQUIT] { sigaddset(&blocked, signal) }
        pthread_sigmask(SIG_BLOCK, &blocked, &previous)
        defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }

        unlink(temporary)
        // Made private first, then given its final mode: a 0600 file is never readable by others,
        // not even for a moment.
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw .system(code: errno) }
        var failure = fill(fd)
        if failure == 0 {
            if let existing {
                if existing.owner != getuid() || existing.group != getgid() {
                    _ = fchown(fd, existing.owner, existing.group)  // kept where we may (as root, or our own group)
                }
                if fchmod(fd, mode_t(existing.mode & 0o7777)) != 0 { failure = errno }
            } else {
                let mask = umask(0)
                umask(mask)
                if fchmod(fd, newMode & ~mask) != 0 { failure = errno }
            }
        }
        if failure == 0, durable, fsync(fd) != 0 { failure = errno }
        if close(fd) != 0, failure == 0 { failure = errno }
        if failure == 0, let original {
            // The last look before the rename: the same file, holding what was read.
            if !unchanged(original) {
                unlink(temporary)
                throw .changedSinceRead
            }
        }
        // The last look before the rename: only a regular file (or nothing) is ever replaced, even
        // when something else was put at the path while the temporary file was written.
        if failure == 0, lstat(path, &info) == 0, info.st_mode & S_IFMT != S_IFREG, info.st_mode & S_IFMT != S_IFLNK {
            unlink(temporary)
            throw .changedSinceRead
        }
        if failure == 0, rename(temporary, path) != 0 { failure = errno }
        if failure != 0 {
            unlink(temporary)
            throw .system(code: failure)
        }
        let folderDescriptor = durable ? open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC) : -1
        if folderDescriptor >= 0 {
            _ = fsync(folderDescriptor)  // the rename itself survives a power cut
            close(folderDescriptor)
        }
        return .replaced
    }

    /// Writes into a character device or a FIFO through its path, as `cat > PATH` would: the
    /// node stays what it is (a FIFO's reader gets the bytes; /dev/null stays /dev/null).
    private static func writeThrough(_ path: String, fill: (Int32) -> Int32) throws(Failure) {
        let fd = open(path, O_WRONLY | O_NOCTTY | O_CLOEXEC)
        guard fd >= 0 else { throw .system(code: errno) }
        let failure = fill(fd)
        close(fd)
        if failure != 0 { throw .system(code: failure) }
    }

    /// Whether the file still is what was read: the same inode, size and time, and the same bytes.
    private static func unchanged(_ original: Original) -> Bool {
        guard let now = try? LocalFile.withRegularFile(original.path, limit: original.bytes.count, { (fd, size) throws(LocalFile.Failure) -> Bool in
            var info = stat()
            guard fstat(fd, &info) == 0, Identity(info).isSameVersion(as: original.identity) else { return false }
            return try LocalFile.readAll(fd, size: size) == original.bytes
        }) else { return false }
        return now
    }

    /// The file a path names: through a symbolic link to where it leads (a dangling link is
    /// replaced, as before), else the path itself.
    static func resolvedTarget(_ path: String) -> String {
        var info = stat()
        guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFLNK, let real = LocalFile.realPath(path) else { return path }
        return real
    }

    /// Gives `path` the content of `source` as a hard link, whole: a new name is linked at once;
    /// an existing regular file is replaced by a link made under a temporary name and renamed
    /// over it (a name already linked to `source` is left as it is). Anything that is not a
    /// regular file is never replaced. Where the file system has no hard links, or no more for
    /// `source` (EPERM, EXDEV, EMLINK, ENOTSUP), `bytes` (its content) are written as a file of
    /// their own, unflushed as `writeUnsynced` writes.
    public static func placeLink(to source: String, at path: String, orWrite bytes: [UInt8]) throws(Failure) {
        func writeCopy() throws(Failure) {
            var info = stat()
            // An old link to a badge of ours goes first: a file with other names is never rewritten.
            if lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_nlink > 1 { unlink(path) }
            try writeUnsynced(bytes, to: path)
        }
        let unlinkable: Set<Int32> = [EPERM, EXDEV, EMLINK, ENOTSUP, EOPNOTSUPP]
        if link(source, path) == 0 { return }
        guard errno == EEXIST else {
            if unlinkable.contains(errno) { return try writeCopy() }
            throw .system(code: errno)
        }
        var info = stat()
        guard lstat(path, &info) == 0 else { throw .system(code: errno) }
        guard info.st_mode & S_IFMT == S_IFREG else { throw .notAFile(NodeKind(mode: info.st_mode)) }
        var original = stat()
        if stat(source, &original) == 0, original.st_ino == info.st_ino, original.st_dev == info.st_dev { return }
        let slash = path.lastIndex(of: "/").map { path.index(after: $0) } ?? path.startIndex
        let temporary = String(path[..<slash]) + temporaryName(for: String(path[slash...]), pid: getpid())
        unlink(temporary)
        guard link(source, temporary) == 0 else {
            if unlinkable.contains(errno) { return try writeCopy() }
            throw .system(code: errno)
        }
        guard rename(temporary, path) == 0 else {
            let code = errno
            unlink(temporary)
            throw .system(code: code)
        }
    }

    static func temporaryName(for name: String, pid: pid_t) -> String { ".\(name).partial-\(pid)" }

    /// Removes `.NAME.partial-PID` files left in `folder` by processes that no longer run.
    static func removeLeftovers(of name: String, in folder: String) {
        guard let directory = opendir(folder) else { return }
        defer { closedir(directory) }
        let prefix = "." + name + ".partial-"
        var stale: [String] = []
        while let entry = readdir(directory) {
            let entryName = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            guard entryName.hasPrefix(prefix), let pid = Int32(entryName.dropFirst(prefix.count)), pid > 0 else { continue }
            if pid == getpid() || kill(pid, 0) == 0 || errno == EPERM { continue }  // still writing
            stale.append(entryName)
        }
        for leftover in stale { unlink(folder + "/" + leftover) }
    }

    public static func parentFolder(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        let folder = String(path[..<slash])
        return folder.isEmpty ? "/" : folder
    }
}

/// syncfs(2): Glibc declares it only under _GNU_SOURCE, which Swift's module does not set.
@_silgen_name("syncfs") private func linuxSyncfs(_ fd: Int32) -> Int32

#if os(Linux)
/// sync_file_range(2), declared only under _GNU_SOURCE too.
@_silgen_name("sync_file_range") private func linuxSyncFileRange(_ fd: Int32, _ offset: Int64, _ count: Int64, _ flags: UInt32) -> Int32
#endif

/// Asks the kernel to start writing `count` bytes from `offset` to the disk, without waiting
/// for them (a hint: the file's sync still makes it durable; where there is no such call, nothing).
private func startWriteback(_ fd: Int32, from offset: Int, count: Int) {
    #if os(Linux)
    _ = linuxSyncFileRange(fd, Int64(offset), Int64(count), 2)  // SYNC_FILE_RANGE_WRITE
    #endif
}
