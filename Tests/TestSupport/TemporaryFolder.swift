import Foundation

/// A folder under the system's temporary directory, removed when the value is released.
public final class TemporaryFolder: @unchecked Sendable {
    public let url: URL

    public init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("cyd-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        // A folder kept for a whole run (a suite's `static let`) is never released: it goes at exit.
        RemovedAtExit.add(url.path)
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    @discardableResult
    public func write(_ path: String, _ bytes: [UInt8]) throws -> URL {
        let file = url.appendingPathComponent(path)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(bytes).write(to: file)
        return file
    }

    @discardableResult
    public func write(_ path: String, _ text: String) throws -> URL { try write(path, Array(text.utf8)) }

    /// An executable shell script at `path` (relative to the folder) running `body`. It is
    /// written by a child shell, not here: a file this process held open for writing could be
    /// inherited by a program another test starts at that moment, and while any process holds
    /// it so, running it fails with ETXTBSY ("text file busy").
    @discardableResult
    public func script(_ path: String, _ body: String) throws -> URL {
        let file = url.appendingPathComponent(path)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        let made = try ChildProcess.run(["/bin/sh", "-c", "cat > \"$1\" && chmod 755 \"$1\"", "sh", file.path], input: "#!/bin/sh\n" + body + "\n")
        guard made.status == 0 else { throw TestSupportError("cannot write the script \(file.path): \(made.standardError)") }
        return file
    }

    /// A symbolic link at `path` (relative to the folder) pointing at `target`, as given.
    @discardableResult
    public func link(_ path: String, to target: String) throws -> URL {
        let file = url.appendingPathComponent(path)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: file.path, withDestinationPath: target)
        return file
    }

    public func path(_ name: String) -> String { url.appendingPathComponent(name).path }
}
