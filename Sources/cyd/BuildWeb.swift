import ArgumentParser
import CydWords
import Foundation
import LocalFiles
import StoryCheck
import StoryFormat
import StorySources
import StoryStore
import StoryWeb
import TerminalUI
import Transport

struct Build: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "build",
        abstract: "Build stories into something to publish.",
        subcommands: [BuildWeb.self])
}

struct BuildWeb: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "web",
        abstract: "Build a static site of stories that any web host serves (GitHub Pages, itch.io, a folder).",
        discussion: Help.buildWeb)

    @Argument(help: ArgumentHelp("The folder to write the site into (made if missing).", valueName: "folder"))
    var folder: String

    @Argument(help: ArgumentHelp("Story folders or story files (default: the bundled stories).", valueName: "story"))
    var stories: [String] = []

    @Flag(name: .customLong("no-fetch"), help: "Link https pictures instead of fetching them now.")
    var noFetch = false

    func run() throws {
        let inputs = stories.isEmpty ? BundledStories.folders() : stories
        guard !inputs.isEmpty else {
            throw CLIError("no stories to build: name story folders or story files, or run cyd where its Stories folder is")
        }
        var entries: [(story: Story, pictures: [String: SitePicture])] = []
        for input in inputs {
            let (target, bytes) = try StoryInput.open(input)
            let file = LoadedFile.asReadersRead(bytes, fileName: target.displayPath)
            guard let story = file.story?.model(), story.firstChapter != nil else {
                throw CLIError("\(VisibleText.escape(target.displayPath)) cannot be read as a story; `cyd validate \(VisibleText.escape(input))` says why")
            }
            entries.append((story, StoryPictures(noFetch: noFetch).sitePictures(of: story, at: target)))
        }
        let site = StaticSite.plan(entries)
        var removed: [String] = []
        do {
            removed = try StaticSite.write(site, to: folder)
        } catch {
            switch error {
            case .folder(let path, let reason):
                throw CLIError("cannot make the folder \(VisibleText.escape(path)): \(reason)")
            case .file(let path, let failure):
                throw CLIError(FileWriter.sentence(failure, path: path))
            }
        }
        let pages = site.reduce(0) { $0 + $1.pages.count + 1 } + 1
        print("wrote \(pages) pages of \(site.count) \(site.count == 1 ? "story" : "stories") to \(VisibleText.escape(folder))/")
        if !removed.isEmpty {
            print("removed \(removed.count) \(removed.count == 1 ? "file" : "files") of the last build that this one does not make (\(removed.prefix(3).map { VisibleText.escape($0) }.joined(separator: ", "))\(removed.count > 3 ? ", ..." : ""))")
        }
        print("open \(VisibleText.escape(folder))/index.html, or serve the folder (for offline reading: python3 -m http.server -d \(VisibleText.escape(folder)))")
    }
}

/// The pictures a story names, gathered by StorySources for a site or a book; one left out is
/// said on standard error.
struct StoryPictures {
    var noFetch: Bool

    /// Each picture of `story`, read from `target` (its folder or its file's folder) or fetched.
    func pictures(of story: Story, at target: ValidationTarget) -> [String: PictureGathering.Gathered] {
        let source = target.folder.map { StorySource(kind: .folder, location: LocalFile.realPath($0.root.path) ?? $0.root.path) }
            ?? StorySource(kind: .file, location: LocalFile.realPath(target.fileURL.path) ?? target.fileURL.path)
        let context = SourceContext(cacheDirectory: FileManager.default.temporaryDirectory.path, certificateAuthorities: HTTPClient.caBundle)
        let gathered = PictureGathering(fetch: !noFetch, context: context).pictures(of: story, from: source)
        for (path, picture) in gathered.sorted(by: { $0.key < $1.key }) {
            guard case .leftOut(let why) = picture else { continue }
            let reason = switch why {
            case .notHTTPS: "it is not an https:// link"
            case .notAPicture: "it is not a PNG, JPEG, GIF or WebP picture"
            case .noSuchFile: "there is no such file in the story's folder"
            case .unavailable(let error): error.description
            }
            Terminal.standardError.write("warning: \(VisibleText.escape(target.displayPath)): picture \(VisibleText.escape(path)) left out: \(VisibleText.escape(reason))\n")
        }
        return gathered
    }

    /// The same, as a site holds them.
    func sitePictures(of story: Story, at target: ValidationTarget) -> [String: SitePicture] {
        pictures(of: story, at: target).mapValues { picture in
            switch picture {
            case .bytes(let bytes): .bytes(bytes)
            case .link(let url): .link(url)
            case .leftOut: .missing
            }
        }
    }
}
