import CydWords
import StoryCheck
import StoryFormat
import TerminalUI

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
        guard let story = file.story, story.chaptersNode != nil else {
            throw CLIError("\(VisibleText.escape(target.displayPath)) cannot be read as a story; `cyd validate \(VisibleText.escape(path))` says why")
        }
        return story
    }
}
