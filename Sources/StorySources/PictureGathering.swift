import LocalFiles
import StoryCheck
import StoryFormat
import StoryStore

/// The pictures a story names, gathered for something made from it to be published (a static
/// site, a book): each read from the story's own source (its folder, or beside its story.json) or
/// fetched over https, through the same source kinds as every other read, and each checked to be
/// a picture. Nothing is dropped silently: a picture that cannot be had is `.leftOut` with why.
public struct PictureGathering: Sendable {
    /// One picture, gathered.
    public enum Gathered: Sendable {
        /// Its bytes, a PNG, JPEG, GIF or WebP picture.
        case bytes([UInt8])
        /// An https picture left where it is (fetching was not wanted).
        case link(String)
        /// Not to be had, and why.
        case leftOut(LeftOut)
    }

    /// Why a picture was left out.
    public enum LeftOut: Sendable {
        /// A web address that is not https.
        case notHTTPS
        /// Read, but not a picture of a format readers show.
        case notAPicture
        /// The story's source has no such file.
        case noSuchFile
        /// Reading or fetching it failed.
        case unavailable(SourceError)
    }

    /// Pictures are read up to this size, as the reader reads them.
    public static let maximumBytes = LocalStory.maximumPictureBytes

    public var fetch: Bool
    public var context: SourceContext

    /// `fetch`: whether https pictures are fetched now (else linked).
    public init(fetch: Bool, context: SourceContext) {
        self.fetch = fetch
        self.context = context
    }

    /// Each picture the story names (`pic_path` of the story and of its chapters), by path.
    public func pictures(of story: Story, from source: StorySource) -> [String: Gathered] {
        let paths = Set(([story.picPath] + story.chapters.map(\.picPath)).compactMap { $0 })
        var gathered: [String: Gathered] = [:]
        for path in paths { gathered[path] = picture(path, from: source) }
        return gathered
    }

    /// Each picture of `story`, read from `target` (its folder, or beside its story file) or fetched.
    public func pictures(of story: Story, at target: ValidationTarget) -> [String: Gathered] {
        let path = target.folder?.root.path ?? target.fileURL.path
        return pictures(of: story, from: StorySource(kind: target.folder == nil ? .file : .folder, location: LocalFile.realPath(path) ?? path))
    }

    /// One picture.
    public func picture(_ path: String, from source: StorySource) -> Gathered {
        let bytes: [UInt8]
        do {
            switch MediaReference(path) {
            case .web(let url):
                guard url.hasPrefix("https://") else { return .leftOut(.notHTTPS) }
                guard fetch else { return .link(url) }
                bytes = try WebSource.download(url, limit: Self.maximumBytes, httpsOnly: true, context: context, totalSeconds: 60)
            case .repository(let relative):
                // Local sources only: a version is what a git or web source needs, and a story
                // published from here is read from its files as they are.
                guard let read = try Sources.file(relative, of: source, at: "", limit: Self.maximumBytes, in: context) else {
                    return .leftOut(.noSuchFile)
                }
                bytes = read
            }
        } catch {
            return .leftOut(.unavailable(error))
        }
        guard PictureFormat.detect(Array(bytes.prefix(12))) != nil else { return .leftOut(.notAPicture) }
        return .bytes(bytes)
    }
}
