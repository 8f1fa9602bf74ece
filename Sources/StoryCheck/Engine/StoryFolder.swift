import Foundation

/// The files of a story folder laid out like its repository, looked up the way a git server
/// would: names are case-sensitive, whatever the local file system does.
public final class StoryFolder: @unchecked Sendable {
    public let root: URL
    private var listings: [String: Set<String>] = [:]
    private let lock = NSLock()

    public init(root: URL) { self.root = root }

    /// Whether `path` (relative, '/'-separated) names a regular file, matching case exactly.
    public func fileExists(_ path: String) -> Bool {
        let components = path.split(separator: "/").map(String.init)
        guard !components.isEmpty, !components.contains("..") else { return false }
        var directory = ""
        for component in components where component != "." {
            guard listing(directory).contains(component) else { return false }
            directory = directory.isEmpty ? component : directory + "/" + component
        }
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: url(directory).path, isDirectory: &isDirectory) && !isDirectory.boolValue
    }

    /// A file whose path differs from `path` only in case, to suggest it.
    public func caseInsensitiveMatch(_ path: String) -> String? {
        var directory = ""
        for component in path.split(separator: "/").map(String.init) where component != "." {
            guard let match = listing(directory).first(where: { $0.lowercased() == component.lowercased() }) else { return nil }
            directory = directory.isEmpty ? match : directory + "/" + match
        }
        return directory
    }

    public func size(_ path: String) -> Int? {
        (try? FileManager.default.attributesOfItem(atPath: url(path).path)[.size] as? NSNumber)?.intValue
    }

    /// The first bytes of a file, for recognising pictures.
    public func prefix(_ path: String, count: Int = 16) -> [UInt8] {
        guard let handle = try? FileHandle(forReadingFrom: url(path)) else { return [] }
        defer { try? handle.close() }
        return Array((try? handle.read(upToCount: count)) ?? Data())
    }

    public func read(_ path: String) -> Data? { try? Data(contentsOf: url(path)) }

    public func url(_ path: String) -> URL { path.isEmpty ? root : root.appendingPathComponent(path) }

    private func listing(_ directory: String) -> Set<String> {
        lock.lock()
        defer { lock.unlock() }
        if let cached = listings[directory] { return cached }
        let names = Set((try? FileManager.default.contentsOfDirectory(atPath: url(directory).path)) ?? [])
        listings[directory] = names
        return names
    }
}
