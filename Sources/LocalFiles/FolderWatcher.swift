#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Calls back when files in some folders change: with inotify on Linux (each folder watched for
/// writes closed, files created, moved in or out and deleted: an editor that saves by writing a
/// new file and renaming it over the old is seen), else by looking at the files' sizes and times
/// every `pollInterval`. Changes that come together (a save is several events) are one call,
/// `settle` after the last. The callback runs on the watcher's own thread.
public final class FolderWatcher: @unchecked Sendable {
    /// How the watcher learns of changes.
    public enum Method: Sendable, Equatable { case inotify, polling }

    public let folders: [String]
    public private(set) var method: Method = .polling
    public static let pollInterval = 0.1
    /// Quiet time after a change before the call, in seconds.
    public static let settle = 0.015

    private let onChange: @Sendable () -> Void
    /// Whether a change to `name` in the folder at `index` of `folders` matters (an editor's
    /// temporary file does not).
    private let matters: @Sendable (_ index: Int, _ name: String) -> Bool
    private var watches: [Int32: Int] = [:]
    private var descriptor: Int32 = -1
    private var stopped = false
    private var thread: pthread_t?

    /// Starts watching `folders`; `forcePolling` for tests and for file systems inotify does not
    /// see (network mounts). A folder missing now is watched from when it is made (or made again
    /// after it was deleted), and its making is a change.
    public init(
        folders: [String], forcePolling: Bool = false, matters: @escaping @Sendable (_ index: Int, _ name: String) -> Bool = { _, _ in true },
        onChange: @escaping @Sendable () -> Void
    ) {
        self.folders = folders
        self.onChange = onChange
        self.matters = matters
        #if os(Linux)
        if !forcePolling {
            let fd = inotify_init1(Int32(IN_CLOEXEC))
            if fd >= 0 {
                descriptor = fd
                _ = watchMissing()
                if !watches.isEmpty {
                    method = .inotify
                } else {
                    close(fd)
                    descriptor = -1
                }
            }
        }
        #endif
        let box = Unmanaged.passRetained(self)
        var handle = pthread_t()
        let started = pthread_create(&handle, nil, { pointer in
            #if canImport(Darwin)
            let watcher = Unmanaged<FolderWatcher>.fromOpaque(pointer).takeRetainedValue()
            #else
            let watcher = Unmanaged<FolderWatcher>.fromOpaque(pointer!).takeRetainedValue()
            #endif
            watcher.run()
            return nil
        }, box.toOpaque())
        if started == 0 { thread = handle } else { box.release() }
    }

    /// Stops the watcher; the callback is not called after this returns.
    public func stop() {
        stopped = true
        if let thread { pthread_join(thread, nil) }
        thread = nil
        if descriptor >= 0 { close(descriptor) }
        descriptor = -1
    }

    deinit { if descriptor >= 0 { close(descriptor) } }

    private func run() {
        method == .inotify ? watchEvents() : pollFiles()
    }

    /// Waits for events that matter (a quarter second at a time, to see `stop`), then for quiet.
    private func watchEvents() {
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while !stopped {
            guard wait(milliseconds: 250), readEvents(&buffer) else { continue }
            // A save is several events: drain them until the folder is quiet.
            while !stopped, wait(milliseconds: Int32(Self.settle * 1000)) { _ = readEvents(&buffer) }
            if !stopped { onChange() }
        }
    }

    /// Adds a watch for each folder that has none (missing at the start, deleted or moved away
    /// since); true when one was added. Events: written and closed, moved in or out, deleted,
    /// and created, which only makes the watcher look for its missing folders (a file is written
    /// after it is made, and an editor's temporary file is made first).
    private func watchMissing() -> Bool {
        #if os(Linux)
        let mask = UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM | IN_DELETE | IN_ATTRIB | IN_CREATE | IN_MOVE_SELF)
        let watched = Set(watches.values)
        var added = false
        for (index, folder) in folders.enumerated() where !watched.contains(index) {
            let watch = inotify_add_watch(descriptor, folder, mask)
            if watch >= 0 {
                watches[watch] = index
                added = true
            }
        }
        return added
        #else
        return false
        #endif
    }

    /// Reads the events waiting; true when one of them matters, or a missing folder was made.
    private func readEvents(_ buffer: inout [UInt8]) -> Bool {
        let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        guard count > 0 else { return false }
        var offset = 0
        var any = false
        var looked = false
        // struct inotify_event: wd, mask, cookie, len (4 bytes each), then len bytes of name.
        while offset + 16 <= count {
            let watch = buffer.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: offset, as: Int32.self) }
            let mask = buffer.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self) }
            let length = Int(buffer.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self) })
            let nameBytes = buffer[(offset + 16)..<min(count, offset + 16 + length)].prefix { $0 != 0 }
            offset += 16 + length
            #if os(Linux)
            if mask & UInt32(IN_IGNORED | IN_MOVE_SELF) != 0 {
                // The folder itself was deleted or moved away: what it held is gone, a change,
                // and the watch is dropped so that a folder made at its path is watched instead.
                if watches.removeValue(forKey: watch) != nil {
                    if mask & UInt32(IN_MOVE_SELF) != 0 { inotify_rm_watch(descriptor, watch) }
                    any = true
                }
                continue
            }
            if mask & UInt32(IN_CREATE) != 0 {
                if !looked, watches.count < folders.count { any = watchMissing() || any }
                looked = true
                continue
            }
            #endif
            if let index = watches[watch], matters(index, String(decoding: nameBytes, as: UTF8.self)) { any = true }
        }
        return any
    }

    private func wait(milliseconds: Int32) -> Bool {
        var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        return poll(&poller, 1, milliseconds) > 0
    }

    /// Every file's size and change time in the folders, as one fingerprint.
    private func fingerprint() -> [String: [Int]] {
        var seen: [String: [Int]] = [:]
        for (index, folder) in folders.enumerated() {
            for name in LocalFile.names(in: folder) where matters(index, name) {
                let path = folder + "/" + name
                var info = stat()
                guard stat(path, &info) == 0 else { continue }
                #if canImport(Darwin)
                seen[path] = [Int(info.st_size), Int(info.st_mtimespec.tv_sec), Int(info.st_mtimespec.tv_nsec), Int(info.st_ino)]
                #else
                seen[path] = [Int(info.st_size), Int(info.st_mtim.tv_sec), Int(info.st_mtim.tv_nsec), Int(info.st_ino)]
                #endif
            }
        }
        return seen
    }

    private func pollFiles() {
        var last = fingerprint()
        while !stopped {
            usleep(useconds_t(Self.pollInterval * 1_000_000))
            let now = fingerprint()
            if now != last, !stopped {
                last = now
                onChange()
            }
        }
    }
}
