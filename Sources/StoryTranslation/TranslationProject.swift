import StoryCheck
import StoryFormat

/// A story being translated: its folder, its id and name, and every string a reader sees in
/// reading order (`TranslationUnits`), read leniently as readers read it.
public struct TranslationProject: Sendable {
    public var folder: String
    public var storyID: String
    public var name: String
    public var units: [TranslationUnit]

    public var translations: TranslationFolder { TranslationFolder(storyFolder: folder) }

    /// Why a path is not a story to translate.
    public enum LoadError: Error, Sendable {
        /// The path cannot be read (missing, not a file or folder, unreadable).
        case input(ValidationTarget.InputError)
        /// It names a file, not a story folder with story.json.
        case notAStoryFolder(String)
        /// Its story.json cannot be read as a story (`displayPath`, as the folder names it).
        case notAStory(displayPath: String)
    }

    public init(folder: String, storyID: String, name: String, units: [TranslationUnit]) {
        (self.folder, self.storyID, self.name, self.units) = (folder, storyID, name, units)
    }

    /// The story folder at `path` (a folder holding story.json, or its story.json).
    public static func load(_ path: String) throws(LoadError) -> TranslationProject {
        let target: ValidationTarget
        let bytes: [UInt8]
        do {
            target = try ValidationTarget.resolve(path)
            bytes = try target.read()
        } catch {
            throw .input(error)
        }
        guard let folder = target.folder, target.displayPath.hasSuffix("story.json") else { throw .notAStoryFolder(path) }
        let file = LoadedFile.asReadersRead(bytes)
        guard let syntax = file.story, let units = TranslationUnits.extract(syntax), let id = syntax.id?.value, let name = syntax.name?.value else {
            throw .notAStory(displayPath: target.displayPath)
        }
        return TranslationProject(folder: folder.root.path, storyID: id, name: name, units: units)
    }
}
