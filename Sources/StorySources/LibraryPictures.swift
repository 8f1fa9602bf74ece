import StoryFormat
import StoryReader
import StoryStore

/// The reader's `PictureSource` for stories of every kind: https links from the web, repository
/// paths from the story's own source (its folder, its git clone at the stored commit, or beside
/// its story.json on the web).
public struct LibraryPictures: PictureSource {
    public var context: SourceContext
    public var maximumBytes = LocalStory.maximumPictureBytes

    public init(context: SourceContext) { self.context = context }

    public func isImmediate(_ path: String, of story: StoryRecord) -> Bool {
        // A file on this disk: the story's folder, or its bare clone in the cache.
        guard case .repository = MediaReference(path) else { return false }
        return story.source.kind != .url
    }

    public func picture(_ path: String, of story: StoryRecord) -> Result<StoredPicture, PictureFailure> {
        switch MediaReference(path) {
        case .web(let url):
            do {
                let bytes = try WebSource.download(url, limit: maximumBytes, httpsOnly: true, context: context, totalSeconds: 60)
                return .success(StoredPicture(path: path, data: bytes, mediaType: nil))
            } catch {
                return .failure(PictureFailure(Self.reason(error)))
            }
        case .repository(let relative):
            do {
                guard let bytes = try Sources.file(relative, of: story.source, at: story.version, in: context) else {
                    return .failure(PictureFailure("no file \(relative) in the story's \(story.source.kind == .git ? "repository" : "folder")"))
                }
                guard bytes.count <= maximumBytes else { return .failure(PictureFailure("larger than \(maximumBytes) bytes")) }
                return .success(StoredPicture(path: path, data: bytes, mediaType: nil))
            } catch {
                return .failure(PictureFailure(Self.reason(error)))
            }
        }
    }

    /// The failure without the source's name (the reader shows the picture's path beside it).
    static func reason(_ error: SourceError) -> String {
        switch error {
        case .transport(_, let failure): failure.description
        case .httpStatus(_, let status): "the server answered \(status)"
        case .unusableFile(let path, let reason): "\(path) in the story's folder cannot be read: \(reason)"
        case .pathLeavesStory: "the path leaves the story's folder"
        default: error.description
        }
    }
}
