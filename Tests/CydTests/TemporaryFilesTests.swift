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
}
