import Foundation
import TestSupport
import Testing

/// A run of the suite leaves nothing in the system's temporary folder: folders kept for the whole
/// run (a suite's corpus in a `static let`, a test certificate and its key) are removed when the
/// test process exits, and a test's own folder as soon as it is released.
@Suite("The suite's temporary files")
struct TemporaryFilesTests {
    @Test("a temporary folder is removed when released, and is to be removed at exit if it never is")
    func folders() throws {
        var path = ""
        do {
            let folder = try TemporaryFolder()
            path = folder.url.path
            try folder.write("a/b.txt", "x")
            #expect(RemovedAtExit.holds(path))
            #expect(FileManager.default.fileExists(atPath: path + "/a/b.txt"))
        }
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    @Test("a test certificate's folder, its private key in it, is to be removed at exit")
    func certificate() throws {
        let certificate = try TestCertificate()
        #expect(certificate.key.hasPrefix(certificate.folder + "/") && certificate.certificate.hasPrefix(certificate.folder + "/"))
        #expect(FileManager.default.fileExists(atPath: certificate.key))
        #expect(RemovedAtExit.holds(certificate.folder))
    }

    @Test("a git server's daemon is stopped at exit if the server is never released (a suite's static one), and left to its owner once it is")
    func gitServer() throws {
        var pid: pid_t = 0
        var root = ""
        do {
            let server = try TestGitServer()
            pid = try #require(server.daemonID)
            root = server.root.path
            #expect(RemovedAtExit.stops(group: pid))
            #expect(RemovedAtExit.holds(root))
            #expect(kill(pid, 0) == 0, "the daemon runs")
        }
        #expect(!RemovedAtExit.stops(group: pid), "released: its owner stopped it, and its id may be another's at exit")
        #expect(!FileManager.default.fileExists(atPath: root))
    }
}

