import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// A read-only file system and a full disk, made for real with small tmpfs mounts (root only:
/// these machines and CI run as root; elsewhere the suite is skipped and says why).
enum TmpfsMounts {
    static let available: Bool = {
        guard getuid() == 0, let folder = try? TemporaryFolder() else { return false }
        let ok = (try? Command.run(URL(fileURLWithPath: "/bin/mount"), ["-t", "tmpfs", "-o", "size=1m", "tmpfs", folder.url.path]))?.status == 0
        if ok { _ = try? Command.run(URL(fileURLWithPath: "/bin/umount"), [folder.url.path]) }
        return ok
    }()
}

@Suite("A read-only or full file system", .serialized, .enabled(if: TmpfsMounts.available, "needs root to mount a tmpfs"))
struct FileSystemFaultTests {

    /// A tmpfs of `size` at a fresh folder, unmounted when released.
    final class Mount {
        let folder = try! TemporaryFolder()
        init(size: String) throws {
            let result = try Command.run(URL(fileURLWithPath: "/bin/mount"), ["-t", "tmpfs", "-o", "size=\(size)", "tmpfs", folder.url.path])
            guard result.status == 0 else { throw TestSupportError("mount failed: \(result.standardError)") }
        }
        func remount(_ options: String) throws {
            _ = try Command.run(URL(fileURLWithPath: "/bin/mount"), ["-o", "remount,\(options)", folder.url.path])
        }
        deinit { _ = try? Command.run(URL(fileURLWithPath: "/bin/umount"), ["-l", folder.url.path]) }
    }

    static let sevenStairs = Command.packageRoot.appendingPathComponent("Stories/seven-stairs").path

    @Test("on a read-only file system the library is still listed and read; saving says why it cannot")
    func readOnly() throws {
        let mount = try Mount(size: "8m")
        let environment = ["CYD_HOME": mount.folder.path("library")]
        #expect(try Command.cyd(["add", Self.sevenStairs], environment: environment).status == 0)
        try mount.remount("ro")
        let list = try Command.cyd(["list"], environment: environment)
        #expect(list.status == 0, "\(list.standardError)")
        #expect(list.standardOutput.contains("Seven Stairs"))
        let read = try Command.cyd(["read", "1", "--name", "Ana"], environment: environment, input: "1\nq\n")
        #expect(read.status == 0, "\(read.standardError)")
        #expect(read.standardOutput.contains("your place was not saved"))
        #expect(read.standardOutput.contains("it is read-only"))
        #expect(!(read.standardOutput + read.standardError).contains("SQLite error"))
    }

    @Test("the disk fills while reading: the error is shown, reading goes on, and the next move after space is freed saves")
    func fullDisk() throws {
        let mount = try Mount(size: "3m")
        let environment = ["CYD_HOME": mount.folder.path("library")]
        #expect(try Command.cyd(["add", Self.sevenStairs], environment: environment).status == 0)

        let reader = try ChildProcess([Command.cyd.path, "read", "1", "--name", "Ana", "--plain"], environment: environment, errors: .intoStandardOutput)
        func send(_ line: String) {
            reader.send(line + "\n")
            usleep(400_000)
        }
        send("1")
        let filler = mount.folder.path("filler")
        _ = try Command.run(URL(fileURLWithPath: "/bin/dd"), ["if=/dev/zero", "of=\(filler)", "bs=64k"])
        send("2")  // to The Fifth Flight: the move is made, but cannot be saved
        send("n a note on a full disk")
        try FileManager.default.removeItem(atPath: filler)
        send("2")  // to Waiting: saved again
        send("q")
        let ended = reader.finish()
        let text = ended.standardOutput
        #expect(ended.status == 0, "\(text.suffix(800))")
        #expect(text.contains("your place was not saved"), "\(text.suffix(800))")
        #expect(text.contains("the disk is full") || text.contains("input/output error"))
        #expect(!text.contains("SQLite error"))
        let list = try Command.cyd(["list", "--json"], environment: environment).standardOutput
        #expect(list.contains(#""progress":"Waiting""#), "the move after space was freed is saved: \(list)")
        #expect(text.contains("The Fifth Flight") && text.contains("Waiting"), "reading went on")
    }

    @Test("a disk already full when cyd starts: the library is read all the same, and saving says why not")
    func fullAtStart() throws {
        let mount = try Mount(size: "3m")
        let environment = ["CYD_HOME": mount.folder.path("library")]
        #expect(try Command.cyd(["add", Self.sevenStairs], environment: environment).status == 0)
        _ = try Command.run(URL(fileURLWithPath: "/bin/dd"), ["if=/dev/zero", "of=\(mount.folder.path("filler"))", "bs=64k"])
        let read = try Command.cyd(["read", "1", "--name", "Ana"], environment: environment, input: "1\nq\n")
        #expect(read.status == 0, "\(read.standardError)")
        #expect(read.standardOutput.contains("your place was not saved"), "\(read.standardOutput.suffix(600))")
        #expect(!(read.standardOutput + read.standardError).contains("SQLite error"))
    }
}
