import CydWords
import StoryCheck
import StoryFormat
import Foundation
import StorySources
import TerminalUI
import Transport

/// A story folder or file named on the command line, read the way the author tools need it.
enum StoryInput {
    /// The file and its bytes (mapped when large), or a sentence saying why not.
    static func open(_ path: String) throws -> (target: ValidationTarget, bytes: SourceBytes) {
        do {
            let target = try ValidationTarget.resolve(path)
            return (target, try target.source())
        } catch {
            throw CLIError(error.description)
        }
    }

    /// The story's syntax, read leniently, or an error pointing at `cyd validate`.
    static func story(_ path: String) throws -> StorySyntax {
        let (target, bytes) = try open(path)
        let file = LoadedFile.asReadersRead(bytes, fileName: target.displayPath)
        guard let story = file.story, story.chaptersNode != nil else { throw unreadable(target, named: path) }
        return story
    }

    /// The story's model, read leniently as readers read it, and where it was read from.
    static func model(_ path: String) throws -> (Story, ValidationTarget) {
        let (target, bytes) = try open(path)
        guard let model = LoadedFile.asReadersRead(bytes, fileName: target.displayPath).story.flatMap(StoryJSON.model) else {
            throw unreadable(target, named: path)
        }
        return (model, target)
    }

    /// "… cannot be read as a story", pointing at `cyd validate` with the path as it was given.
    static func unreadable(_ target: ValidationTarget, named path: String) -> CLIError {
        CLIError("\(VisibleText.escape(target.displayPath)) cannot be read as a story; `cyd validate \(VisibleText.escape(path))` says why")
    }

    /// The pictures a story names, for a site or a book, each one left out said on standard error.
    static func pictures(of story: Story, at target: ValidationTarget, fetch: Bool) -> [String: PictureGathering.Gathered] {
        let context = SourceContext(cacheDirectory: FileManager.default.temporaryDirectory.path, certificateAuthorities: HTTPClient.caBundle)
        let gathered = PictureGathering(fetch: fetch, context: context).pictures(of: story, at: target)
        for (path, picture) in gathered.sorted(by: { $0.key < $1.key }) {
            if case .leftOut(let why) = picture { Terminal.standardError.write(InterchangeWords.leftOut(path, why, in: target.displayPath) + "\n") }
        }
        return gathered
    }
}
