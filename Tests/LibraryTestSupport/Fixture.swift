import Foundation
import StorySources
import StoryStore
import TestSupport

/// A story written from (id, [targets]) pairs; the first chapter is the start (TestStory.graph).
public func storyJSON(title: String = "Tide", id: String = "s1", _ chapters: [(String, [String])], picture: String? = nil, text: String = "Hello, [[name]].") -> String {
    TestStory.graph(chapters, id: id, title: title, text: text, picture: picture).json
}

/// A library in a temporary folder of its own, and a story folder beside it to add from; both
/// removed when released. Shared by the store's and the reader's tests.
public final class Fixture {
    public let folder: URL
    public let library: StoryLibrary

    /// A story of six chapters, two of them choices: a-b-c-d/e, and a-x.
    public static let chain = [("a", ["b", "x"]), ("b", ["c"]), ("c", ["d", "e"]), ("d", []), ("e", []), ("x", [])]

    public init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("cyd-store-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("story"), withIntermediateDirectories: true)
        library = try StoryLibrary(location: LibraryLocation(home: folder.appendingPathComponent("library").path))
    }

    deinit { try? FileManager.default.removeItem(at: folder) }

    public var storyFolder: String { folder.appendingPathComponent("story").path }

    public func write(_ json: String, name: String = "story.json") throws {
        try Data(json.utf8).write(to: folder.appendingPathComponent("story/\(name)"))
    }

    @discardableResult
    public func add(_ json: String) throws -> ImportResult {
        try write(json)
        return try library.importFolder(storyFolder)
    }
}

extension StoryLibrary {
    /// Adds a folder or story file the way `cyd add` does: read, checked, stored.
    @discardableResult
    public func importFolder(_ path: String, replace: Bool = false) throws(SourceError) -> ImportResult {
        try StoryImporter(library: self).add(path, replace: replace)
    }
}
