import Foundation

/// A folder under the system's temporary directory, removed when the value is released.
public final class TemporaryFolder: @unchecked Sendable {
    public let url: URL

    public init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("cyd-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
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
