import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Every command that writes a file the reader names (`-o`, `--output`) writes through a device
/// or a FIFO, sends `-` and /dev/stdout to standard output, and never puts a file where a device,
/// a FIFO or a link to one was. Nodes are made in a temporary folder, never the machine's /dev.
@Suite("cyd's output paths: devices, FIFOs and standard output")
struct OutputTargetTests {
    static let story = Command.packageRoot.path + "/Stories/seven-stairs"
    static let scratch = try! TemporaryFolder()
    /// A Twee file to import: a bundled story as cyd exports it.
    static let twee: String = {
        let path = scratch.path("seven-stairs.twee")
        _ = try? Command.cyd(["export", "twee", story, "-o", path])
        return path
    }()

    /// Each command with an output path, given where to write.
    static let writers: [(name: String, arguments: @Sendable (String) -> [String])] = [
        ("export twee", { ["export", "twee", story, "-o", $0] }),
        ("export twine", { ["export", "twine", story, "-o", $0] }),
        ("export epub", { ["export", "epub", story, "-o", $0] }),
        ("import twee", { ["import", "twee", twee, "-o", $0] }),
        ("graph", { ["graph", story, "-o", $0] }),
        ("validate", { ["validate", story, "--output", $0] }),
        ("l10n extract", { ["l10n", "extract", "--story", story, "-o", $0] }),
    ]

    /// One time for every run: a book records when it was made (dcterms:modified), so two runs
    /// that straddle a second would otherwise differ in those bytes and nothing else.
    static let fixedTime = ["SOURCE_DATE_EPOCH": "1700000000"]

    static func kind(_ path: String, following: Bool = true) -> mode_t {
        var info = stat()
        if following { stat(path, &info) } else { lstat(path, &info) }
        return info.st_mode & S_IFMT
    }

    @Test("-o naming a private null device (mknod c 1 3) leaves it a character device, for every command", .enabled(if: getuid() == 0, "mknod needs root"))
    func nullDevice() throws {
        let folder = try TemporaryFolder()
        for writer in Self.writers {
            let node = folder.path("null-" + writer.name.replacingOccurrences(of: " ", with: "-"))
            #expect(mknod(node, S_IFCHR | 0o666, dev_t(1 << 8 | 3)) == 0)
            let result = try Command.cyd(writer.arguments(node))
            #expect(result.status == 0, "\(writer.name): \(result.standardError)")
            var info = stat()
            stat(node, &info)
            #expect(info.st_mode & S_IFMT == S_IFCHR && info.st_rdev == dev_t(1 << 8 | 3), "\(writer.name) left \(node) a device")
        }
        let left = try FileManager.default.contentsOfDirectory(atPath: folder.url.path).filter { $0.hasPrefix(".") }
        #expect(left.isEmpty, "no temporary files: \(left)")
    }

    @Test("-o naming a FIFO: the reader waiting on it gets the whole output, and it stays a FIFO")
    func fifo() throws {
        let folder = try TemporaryFolder()
        for writer in Self.writers where writer.name != "export epub" {
            let pipe = folder.path("pipe")
            unlink(pipe)
            #expect(mkfifo(pipe, 0o644) == 0)
            let reader = try ChildProcess(["cat", pipe], takesInput: false)
            let result = try Command.cyd(writer.arguments(pipe), environment: Self.fixedTime)
            let read = reader.finish()
            #expect(result.status == 0, "\(writer.name): \(result.standardError)")
            #expect(Self.kind(pipe) == S_IFIFO, "\(writer.name) replaced the FIFO")
            let expected = try Command.cyd(writer.arguments("-"), environment: Self.fixedTime).standardOutput
            #expect(!read.standardOutput.isEmpty && read.standardOutput == expected, "\(writer.name): the FIFO's reader got what - prints")
        }
    }

    @Test("-o - and -o /dev/stdout print the file on standard output; what the command says goes to standard error; nothing is renamed")
    func standardOutput() throws {
        let folder = try TemporaryFolder()
        for writer in Self.writers {
            let dash = try Command.cyd(writer.arguments("-"), in: folder.url, environment: Self.fixedTime)
            #expect(dash.status == 0, "\(writer.name): \(dash.standardError)")
            #expect(!dash.standardOutput.isEmpty, "\(writer.name): - wrote standard output")
            #expect(!dash.standardOutput.contains("wrote -") && !dash.standardOutput.contains("-> -"), "\(writer.name)")
            if let device = try Self.inPrivateDev(writer.arguments("/dev/stdout"), in: folder.url) {
                #expect(device.status == 0, "\(writer.name): \(device.standardError)")
                #expect(device.standardOutput == dash.standardOutput, "\(writer.name): /dev/stdout is standard output")
                #expect(!device.standardOutput.contains("wrote /dev/stdout"), "\(writer.name)")
                #expect(device.standardError.contains("stdout is still a link"), "\(writer.name) replaced /dev/stdout: \(device.standardError)")
            }
            // A link a person made to it is standard output too, and stays a link.
            let link = try folder.link("out-link", to: "/dev/stdout").path
            let linked = try Command.cyd(writer.arguments(link), in: folder.url, environment: Self.fixedTime)
            #expect(linked.standardOutput == dash.standardOutput, "\(writer.name)")
            #expect(Self.kind(link, following: false) == S_IFLNK)
            try FileManager.default.removeItem(atPath: link)
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path).isEmpty, "no file named - or stdout made")
    }

    /// Runs cyd in a mount namespace of its own whose /dev is a fresh tmpfs holding only
    /// `stdout -> /proc/self/fd/1` and a null device, then says on standard error whether stdout
    /// is still a link: the machine's own /dev/stdout is never at stake, even if cyd regressed.
    /// Nil where namespaces cannot be made (not root, no unshare).
    static func inPrivateDev(_ arguments: [String], in directory: URL) throws -> CommandResult? {
        guard getuid() == 0, let unshare = Command.which("unshare") else { return nil }
        let quoted = ([Command.cyd.path] + arguments).map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }.joined(separator: " ")
        let script = """
            mount -t tmpfs tmpfs /dev && ln -s /proc/self/fd/1 /dev/stdout && ln -s /proc/self/fd/2 /dev/stderr && mknod -m 666 /dev/null c 1 3 || exit 99
            SOURCE_DATE_EPOCH=\(Self.fixedTime["SOURCE_DATE_EPOCH"]!) \(quoted); status=$?
            [ -L /dev/stdout ] && echo 'stdout is still a link' >&2
            exit $status
            """
        let result = try Command.run(unshare, ["--mount", "sh", "-c", script], in: directory)
        return result.status == 99 ? nil : result
    }

    @Test("-o naming a block device is refused in words, and the node is left as it was", .enabled(if: getuid() == 0, "mknod needs root"))
    func blockDevice() throws {
        let folder = try TemporaryFolder()
        let node = folder.path("disk")
        #expect(mknod(node, S_IFBLK | 0o600, dev_t(7 << 8 | 250)) == 0)
        let result = try Command.cyd(["export", "twee", Self.story, "-o", node])
        #expect(result.status == 2)
        #expect(result.standardError.contains("it is a block device (a disk)"), "\(result.standardError)")
        #expect(Self.kind(node) == S_IFBLK)
    }
}
