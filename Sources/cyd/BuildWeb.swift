import ArgumentParser
import Foundation
import LocalFiles
import StoryCheck
import StoryFormat
import StorySources
import StoryWeb
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
        discussion: """
            One page per chapter, choices as plain links: the site reads with scripts off. With \
            scripts on, the reader's place, name and endings found are kept in their browser, \
            number keys take choices, and a story once opened stays readable offline. Pictures \
            in the story's folder are copied beside the pages, named by their content; https \
            pictures are fetched now (or linked, with --no-fetch).
            """)

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
        var entries: [(story: Story, pictures: [String: PictureSource])] = []
        for input in inputs {
            let (target, bytes) = try StoryInput.open(input)
            let file = LoadedFile.load(bytes, fileName: target.displayPath, options: .init(lenient: true), resolvingPointers: false)
            guard let story = file.story?.model(), story.firstChapter != nil else {
                throw CLIError("\(VisibleText.escape(target.displayPath)) cannot be read as a story; `cyd validate \(VisibleText.escape(input))` says why")
            }
            let root = target.folder?.root.path ?? target.fileURL.deletingLastPathComponent().path
            entries.append((story, PictureGathering(noFetch: noFetch).pictures(of: story, in: root, named: target.displayPath)))
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

/// The pictures a story names, gathered for a site or a book: read from its folder, fetched when
/// https (or linked, with --no-fetch), each checked to be a picture; one left out is said on
/// standard error.
struct PictureGathering {
    var noFetch: Bool

    /// Where each picture the story names comes from: a file in its folder, the web, or nowhere
    /// (said on standard error, and the page shows no picture).
    func pictures(of story: Story, in root: String, named name: String) -> [String: PictureSource] {
        let paths = Set(([story.picPath] + story.chapters.map(\.picPath)).compactMap { $0 })
        var sources: [String: PictureSource] = [:]
        for path in paths.sorted() {
            do {
                sources[path] = try source(of: path, in: root)
            } catch {
                warn(name, path, error.reason)
                sources[path] = .missing
            }
        }
        return sources
    }

    /// Why a picture was left out.
    private struct LeftOut: Error { var reason: String }

    /// One picture: fetched (or linked, with --no-fetch) when it is an https link, else read from
    /// the story's folder; either way it must be a picture.
    private func source(of path: String, in root: String) throws(LeftOut) -> PictureSource {
        let bytes: [UInt8]
        switch MediaReference(path) {
        case .web(let url):
            guard url.hasPrefix("https://") else { throw LeftOut(reason: "it is not an https:// link") }
            if noFetch { return .link(url) }
            var request = HTTPRequest(url: url)
            request.httpsOnly = true
            request.maximumBytes = 10 * 1024 * 1024
            let response: HTTPResponse
            do {
                response = try HTTPClient().get(request)
            } catch {
                throw LeftOut(reason: error.description)
            }
            guard response.status == 200 else { throw LeftOut(reason: "the server answered \(response.status)") }
            bytes = response.body
        case .repository(let relative):
            do {
                bytes = try LocalFile.read(relative, inside: root, limit: 10 * 1024 * 1024)
            } catch {
                throw LeftOut(reason: error.description)
            }
        }
        guard PictureFormat.detect(Array(bytes.prefix(12))) != nil else { throw LeftOut(reason: "it is not a PNG, JPEG, GIF or WebP picture") }
        return .bytes(bytes)
    }

    private func warn(_ story: String, _ path: String, _ reason: String) {
        FileHandle.standardError.write(Data("warning: \(VisibleText.escape(story)): picture \(VisibleText.escape(path)) left out: \(VisibleText.escape(reason))\n".utf8))
    }
}
