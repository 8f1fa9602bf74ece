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
    private var descriptor: Int32 = -1
    private var stopped = false
    private var thread: pthread_t?

    /// Starts watching `folders` (missing ones are skipped); `forcePolling` for tests and for
    /// file systems inotify does not see (network mounts).
    public init(folders: [String], forcePolling: Bool = false, onChange: @escaping @Sendable () -> Void) {
        self.folders = folders
        self.onChange = onChange
        #if os(Linux)
        if !forcePolling {
            let fd = inotify_init1(Int32(IN_CLOEXEC))
            if fd >= 0 {
                let mask = UInt32(IN_CLOSE_WRITE | IN_CREATE | IN_MOVED_TO | IN_MOVED_FROM | IN_DELETE | IN_ATTRIB)
                var watched = 0
                for folder in folders where inotify_add_watch(fd, folder, mask) >= 0 { watched += 1 }
                if watched > 0 {
                    descriptor = fd
                    method = .inotify
                } else {
                    close(fd)
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

    /// Waits for events (a quarter second at a time, to see `stop`), then for quiet.
    private func watchEvents() {
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while !stopped {
            guard wait(milliseconds: 250) else { continue }
            _ = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            // A save is several events: drain them until the folder is quiet.
            while !stopped, wait(milliseconds: Int32(Self.settle * 1000)) {
                _ = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            }
            if !stopped { onChange() }
        }
    }

    private func wait(milliseconds: Int32) -> Bool {
        var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        return poll(&poller, 1, milliseconds) > 0
    }

    /// Every file's size and change time in the folders, as one fingerprint.
    private func fingerprint() -> [String: [Int]] {
        var seen: [String: [Int]] = [:]
        for folder in folders {
            for name in LocalFile.names(in: folder) {
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
