import ArgumentParser
import CydWords
import Foundation
import LocalFiles
import StoryCheck
import StoryFormat
import TerminalUI

struct Init: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "init",
        abstract: "Start a story repository: a story.json to grow, a README with the tag, and checks for commits and pushes.",
        discussion: Help.`init`)

    @Argument(help: "The folder to make (default: the current folder).") var folder = "."
    @Option(help: "The story's title.") var title = "My Story"
    @Flag(help: "Also write a GitHub Pages workflow that publishes the story's site on every push (alone, into an existing story).") var pages = false
    @Flag(help: "Make a catalogue instead: authors.json and a scheduled GitHub Actions workflow that syncs it, publishes the catalogue (signed with the CYD_CATALOGUE_KEY secret) and deploys it to GitHub Pages.") var catalogue = false

    func validate() throws {
        if catalogue && pages { throw ValidationError("--catalogue and --pages make different repositories; choose one") }
    }

    func run() throws {
        if catalogue { return try makeCatalogue() }
        if FileStatus(folder + "/story.json") != nil {
            guard pages else { throw CLIError("\(VisibleText.escape(folder)) already holds a story.json; nothing was written") }
            let path = folder + "/" + RepositoryTemplates.pagesPath
            try FileWriter.writeNew(RepositoryTemplates.pagesWorkflow, to: path)
            return Terminal.standardOutput.write(RepositoryTemplates.addedPages(path))
        }
        try FileWriter.requireFolder(folder)
        // An existing README or workflow is the author's: kept.
        for (name, text) in RepositoryTemplates.storyFiles(title: title, pages: pages) where FileStatus(folder + "/" + name) == nil {
            try FileWriter.writeNew(text, to: folder + "/" + name)
        }
        let totals = ReportTotals(try ValidationTarget.resolve(folder).check(options: CheckOptions()))
        Terminal.standardOutput.write(RepositoryTemplates.madeStory(in: folder, pages: pages, phrase: totals.phrase, inGit: LocalFile.isInGitWorkTree(folder)))
    }

    /// authors.json (when missing) and the catalogue workflow (never over one).
    func makeCatalogue() throws {
        try FileWriter.requireFolder(folder)
        let path = folder + "/" + RepositoryTemplates.cataloguePath
        try FileWriter.requireNothing(at: path)
        let authors = FileStatus(folder + "/authors.json") == nil
        if authors { try FileWriter.writeNew(RepositoryTemplates.authors, to: folder + "/authors.json") }
        try FileWriter.writeNew(RepositoryTemplates.catalogueWorkflow, to: path)
        Terminal.standardOutput.write(RepositoryTemplates.madeCatalogue(in: folder, written: (authors ? ["authors.json"] : []) + [RepositoryTemplates.cataloguePath]))
    }
}
