#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import LocalFiles
import StoryFormat

/// The stories that ship with cyd, in the package's Stories/ folder.
public enum BundledStories {
    /// The folder holding them: $CYD_STORIES, else a Stories/ folder beside or above the
    /// executable (as in a checkout), else ./Stories; nil when none holds a story.
    public static func root(executablePath: String, environment: [String: String]) -> String? {
        var candidates: [String] = []
        if let override = environment["CYD_STORIES"] { candidates.append(override) }
        var directory = executablePath.split(separator: "/").dropLast().map(String.init)
        while !directory.isEmpty {
            candidates.append("/" + directory.joined(separator: "/") + "/Stories")
            directory.removeLast()
        }
        candidates.append(FileManager.default.currentDirectoryPath + "/Stories")
        return candidates.first { folders(in: $0).count > 0 }
    }

    /// The story folders in `root` (those holding a story.json), by name.
    public static func folders(in root: String) -> [String] {
        LocalFile.names(in: root).sorted().map { root + "/" + $0 }.filter { FileStatus($0 + "/story.json")?.isRegularFile == true }
    }

    public static func folders(executablePath: String, environment: [String: String]) -> [String] {
        root(executablePath: executablePath, environment: environment).map { folders(in: $0) } ?? []
    }

    /// A bundled story, read as readers read it; nil when it cannot be read.
    public static func story(in folder: String) -> Story? {
        guard let bytes = try? LocalFile.read(folder + "/story.json", limit: JSONParser.Options().maximumSize) else { return nil }
        return LoadedFile.asReadersRead(bytes).story?.model()
    }

    /// Its title, else the folder's name.
    public static func title(of story: Story?, in folder: String) -> String {
        story.map(\.name) ?? folder.split(separator: "/").last.map(String.init) ?? folder
    }

    /// A chapter's title in it (its id when the story has no such chapter).
    public static func chapterTitle(_ key: String, of story: Story?) -> String {
        guard let name = story?.chapters.first(where: { $0.id == key })?.name, !name.isEmpty else { return key }
        return name
    }

    /// Adds the bundled stories in `folders` to an empty library, so a first `cyd serve` has
    /// something to read; how many were added (none when the library holds a story). A folder
    /// that cannot be read is passed over (`cyd read` offers it, and says why it cannot be).
    public static func addAll(_ folders: [String], toEmpty importer: StoryImporter) throws -> Int {
        guard try importer.library.stories().isEmpty else { return 0 }
        return folders.reduce(0) { added, folder in (try? importer.add(folder)) == nil ? added : added + 1 }
    }
}
