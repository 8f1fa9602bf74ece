import ArgumentParser
import CydWords
import InterfaceWords
import Foundation
import StoryFormat
import StorySources
import StoryTranslation
import StoryWeb
import TerminalUI

struct Build: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "build",
        abstract: "Build stories into something to publish.",
        subcommands: [BuildWeb.self])
}

struct BuildWeb: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "web",
        abstract: "Build a static site of stories that any web host serves (GitHub Pages, itch.io, a folder).",
        discussion: Help.buildWeb)

    @Argument(help: ArgumentHelp("The folder to write the site into (made if missing).", valueName: "folder")) var folder: String
    @Argument(help: ArgumentHelp("Story folders or story files (default: the bundled stories).", valueName: "story")) var stories: [String] = []
    @Flag(name: .customLong("no-fetch"), help: "Link https pictures instead of fetching them now.") var noFetch = false
    @Option(name: .customLong("lang"), help: "Build this translation of each story (repeat for more; original for none). Default: every language its translations/LINGUAS lists.") var languages: [String] = []
    @Option(name: .customLong("site-lang"), help: ArgumentHelp(InterchangeWords.siteLanguageHelp, valueName: "tag")) var siteLanguage: String?

    func validate() throws { if let siteLanguage, !LanguageTag.isWellFormed(LanguageTag.normalise(siteLanguage)) { throw ValidationError(InterchangeWords.badSiteLanguage(siteLanguage)) } }

    func run() throws {
        let inputs = stories.isEmpty ? BundledStories.folders() : stories
        guard !inputs.isEmpty else {
            throw CLIError("no stories to build: name story folders or story files, or run cyd where its Stories folder is")
        }
        let entries = try inputs.map { input in
            let (story, target) = try StoryInput.model(input)
            guard story.firstChapter != nil else { throw StoryInput.unreadable(target, named: input) }
            let pictures = StoryInput.pictures(of: story, at: target, fetch: !noFetch).mapValues { picture -> SitePicture in
                switch picture {
                case .bytes(let bytes): .bytes(bytes)
                case .link(let url): .link(url)
                case .leftOut: .missing
                }
            }
            let found = Translations.found(in: target.folder?.root.path ?? "", of: story, languages: languages.isEmpty ? nil : languages)
            for line in TranslationWords.siteProblems(found, story: input) { Terminal.standardError.write(line + "\n") }
            return SiteEntry(story: story, pictures: pictures, translations: found.stories.map { ($0.status.language, $0.story) })
        }
        let words = Phrasebook(preferring: [siteLanguage ?? languages.first { $0 != "original" }].compactMap { $0 })
        if let siteLanguage, words.language == "en", !siteLanguage.lowercased().hasPrefix("en") { Terminal.standardError.write(InterchangeWords.siteLanguageMissing(siteLanguage) + "\n") }
        let site = StaticSite.plan(entries, words: words)
        let removed: [String]
        do { removed = try StaticSite.write(site, to: folder, words: words) } catch { throw CLIError(InterchangeWords.siteNotWritten(error)) }
        let pages = site.reduce(0) { $0 + $1.pages.count + 1 } + 1
        for line in InterchangeWords.builtSite(pages: pages, stories: site.count(where: { $0.language == nil }), folder: folder, removed: removed) { print(line) }
    }
}
