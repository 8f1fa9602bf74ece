import Foundation
import LocalFiles
import Testing
import TestSupport

#if canImport(Glibc)
import Glibc
#endif

/// What a path names when it is not a regular file: cyd writes through a device or a FIFO, writes
/// a standard stream's name to its descriptor, refuses a disk or a socket, and never replaces any
/// of them with a file. Every node here is made in a temporary folder (`mknod` as root); the
/// machine's own /dev entries are only ever looked at.
@Suite("Writing to what is not a regular file")
struct NotAFileTests {
    let folder = try! TemporaryFolder()

    static let isRoot = getuid() == 0

    /// Linux's encoding of a device number (major, minor < 256 and 4096).
    static func device(_ major: UInt32, _ minor: UInt32) -> dev_t { dev_t(major << 8 | minor) }

    static func info(_ path: String, following: Bool = true) -> stat {
        var info = stat()
        if following { stat(path, &info) } else { lstat(path, &info) }
        return info
    }

    static func kind(_ path: String, following: Bool = true) -> mode_t { info(path, following: following).st_mode & S_IFMT }

    @Test("a private null device (mknod c 1 3, as /dev/null) stays that device: the bytes go through it", .enabled(if: isRoot, "mknod needs root"))
    func nullDevice() throws {
        let node = folder.path("null")
        #expect(mknod(node, S_IFCHR | 0o666, Self.device(1, 3)) == 0)
        let mode = Self.info(node).st_mode
        let placement = try AtomicFile.write(Array("twee text".utf8), to: node)
        #expect(placement == .writtenThrough)
        #expect(Self.kind(node) == S_IFCHR, "still a character device")
        #expect(Self.info(node).st_rdev == Self.device(1, 3), "still the null device")
        #expect(Self.info(node).st_mode == mode, "its mode untouched")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path) == ["null"], "no temporary file left beside it")
        // Streaming and private-mode writes take the same way.
        try AtomicFile.write(to: node) { write in write(Array("a".utf8)); write(Array("b".utf8)) }
        try AtomicFile.write(Array("secret".utf8), to: node, mode: 0o600)
        #expect(Self.kind(node) == S_IFCHR && Self.info(node).st_rdev == Self.device(1, 3))
    }

    @Test("a FIFO stays a FIFO and its reader gets every byte")
    func fifo() throws {
        let pipe = folder.path("pipe")
        #expect(mkfifo(pipe, 0o644) == 0)
        let received = Received()
        let reader = Thread {
            received.bytes = Self.readAll(pipe)
            received.done.signal()
        }
        reader.start()
        let text = Array(String(repeating: "passage\n", count: 20_000).utf8)  // more than a pipe holds at once
        #expect(try AtomicFile.write(text, to: pipe) == .writtenThrough)
        #expect(received.done.wait(timeout: .now() + 10) == .success)
        #expect(received.bytes == text)
        #expect(Self.kind(pipe) == S_IFIFO, "still a FIFO")
    }

    @Test("a link to a FIFO keeps both: the link still leads to the FIFO")
    func linkToFIFO() throws {
        let pipe = folder.path("pipe")
        #expect(mkfifo(pipe, 0o644) == 0)
        let link = try folder.link("out.twee", to: pipe).path
        let received = Received()
        Thread {
            received.bytes = Self.readAll(pipe)
            received.done.signal()
        }.start()
        try AtomicFile.write(Array("through".utf8), to: link)
        #expect(received.done.wait(timeout: .now() + 10) == .success)
        #expect(received.bytes == Array("through".utf8))
        #expect(Self.kind(link, following: false) == S_IFLNK && Self.kind(pipe) == S_IFIFO)
    }

    @Test("a standard stream's names go to its descriptor: /dev/fd/N, /proc/self/fd/N, and a link to one (as /dev/stdout links to /proc/self/fd/1)")
    func streams() throws {
        for name in ["/dev/fd/", "/proc/self/fd/", "link"] {
            var ends: [Int32] = [0, 0]
            #expect(pipe(&ends) == 0)
            defer { close(ends[0]) }
            let path: String
            if name == "link" {
                path = try folder.link("stdout-\(ends[1])", to: "/proc/self/fd/\(ends[1])").path
            } else {
                path = name + String(ends[1])
            }
            #expect(AtomicFile.streamDescriptor(path) == ends[1])
            let placement = try AtomicFile.write(Array("to the stream".utf8), to: path)
            close(ends[1])
            #expect(placement == .stream(descriptor: ends[1]), "\(path)")
            var buffer = [UInt8](repeating: 0, count: 64)
            let count = read(ends[0], &buffer, 64)
            #expect(count == 13 && Array(buffer[..<13]) == Array("to the stream".utf8), "\(path)")
            if name == "link" { #expect(Self.kind(path, following: false) == S_IFLNK, "the link stays a link") }
        }
        #expect(AtomicFile.streamDescriptor(AtomicFile.standardOutput) == 1)
        #expect(AtomicFile.streamDescriptor("/dev/stderr") == 2)
        #expect(AtomicFile.streamDescriptor(folder.path("story.json")) == nil)
        #expect(AtomicFile.streamDescriptor("/dev/fd/x") == nil)
    }

    @Test("a block device (a disk) is refused, never written or replaced", .enabled(if: isRoot, "mknod needs root"))
    func blockDevice() throws {
        let node = folder.path("disk")
        #expect(mknod(node, S_IFBLK | 0o600, Self.device(7, 250)) == 0)  // a loop device number; nothing is opened
        #expect(throws: AtomicFile.Failure.notAFile(.blockDevice)) { try AtomicFile.write(Array("x".utf8), to: node) }
        #expect(Self.kind(node) == S_IFBLK && Self.info(node).st_rdev == Self.device(7, 250))
    }

    @Test("a socket is refused and stays a socket")
    func socketNode() throws {
        let path = folder.path("s")
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in path.utf8.enumerated() where index < raw.count - 1 { raw[index] = byte }
        }
        let bound = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) } }
        #expect(bound == 0)
        #expect(throws: AtomicFile.Failure.notAFile(.socket)) { try AtomicFile.write(Array("x".utf8), to: path) }
        #expect(Self.kind(path) == S_IFSOCK)
    }

    @Test("the machine's /dev/null is still the null device, whatever ran before this test")
    func machineNullDevice() {
        #expect(Self.kind("/dev/null", following: false) == S_IFCHR)
        #expect(Self.info("/dev/null").st_rdev == Self.device(1, 3))
    }

    /// Everything a FIFO's reader gets until the writer closes it.
    static func readAll(_ path: String) -> [UInt8] {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { return [] }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = read(fd, &buffer, buffer.count)
            if count <= 0 { return bytes }
            bytes += buffer[..<count]
        }
    }

    final class Received: @unchecked Sendable {
        var bytes: [UInt8] = []
        let done = DispatchSemaphore(value: 0)
    }
}
