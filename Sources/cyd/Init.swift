import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#endif
import Foundation
import LocalFiles
import StoryCheck
import StoryFormat
import CydWords
import TerminalUI

struct Init: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "init",
        abstract: "Start a story repository: a story.json to grow, a README with the tag, and checks for commits and pushes.",
        discussion: Help.`init`)

    @Argument(help: "The folder to make (default: the current folder).")
    var folder = "."

    @Option(help: "The story's title.")
    var title = "My Story"

    @Flag(help: "Also write a GitHub Pages workflow that publishes the story's site on every push (alone, into an existing story).")
    var pages = false

    @Flag(help: "Make a catalogue instead: authors.json and a scheduled GitHub Actions workflow that syncs it, publishes the catalogue (signed with the CYD_CATALOGUE_KEY secret) and deploys it to GitHub Pages.")
    var catalogue = false

    func validate() throws {
        if catalogue && pages { throw ValidationError("--catalogue and --pages make different repositories; choose one") }
    }

    func run() throws {
        if catalogue { return try makeCatalogue() }
        if FileStatus(folder + "/story.json") != nil {
            guard pages else { throw CLIError("\(VisibleText.escape(folder)) already holds a story.json; nothing was written") }
            let path = folder + "/" + RepositoryTemplates.pagesPath
            if FileStatus(path) != nil { throw CLIError("\(VisibleText.escape(path)) is there already; nothing was written") }
            try Self.write(RepositoryTemplates.pagesWorkflow, to: path)
            Terminal.standardOutput.write("""
                added \(VisibleText.escape(path)): on every push to main, GitHub builds the story's site and publishes it
                  next: commit it, then in the repository's settings choose Pages > Source: GitHub Actions

                """)
            return
        }
        if let status = FileStatus(folder), !status.isDirectory { throw CLIError("\(VisibleText.escape(folder)) is not a folder") }
        let files: [(String, String)] = [
            ("story.json", RepositoryTemplates.story(title: title)),
            ("README.md", RepositoryTemplates.readme(title: title)),
            ("resources/.gitkeep", ""),
            (".pre-commit-config.yaml", RepositoryTemplates.preCommit),
            (".github/workflows/validate.yml", RepositoryTemplates.workflow),
        ] + (pages ? [(RepositoryTemplates.pagesPath, RepositoryTemplates.pagesWorkflow)] : [])
        for (name, text) in files {
            let path = folder + "/" + name
            if FileStatus(path) != nil { continue }  // an existing README or workflow is the author's: kept
            try Self.write(text, to: path)
        }
        let target = try ValidationTarget.resolve(folder)
        let reports = try target.check(options: CheckOptions())
        let totals = ReportTotals(reports)
        Terminal.standardOutput.write("""
            made a story in \(VisibleText.escape(folder)): story.json, README.md, resources/, .pre-commit-config.yaml, .github/workflows/validate.yml\(pages ? ", " + RepositoryTemplates.pagesPath : "")
              `cyd validate --strict \(VisibleText.escape(folder))`: \(totals.phrase)
              next: write your chapters in story.json, `cyd read \(VisibleText.escape(folder))` to play it, \(Self.isInGitRepository(folder) ? "`pre-commit install`" : "`git init` there, then `pre-commit install`,") to check each commit

            """)
    }

    /// Writes a file, making its folder first.
    static func write(_ text: String, to path: String) throws {
        let parent = String(path[..<path.lastIndex(of: "/")!])
        do {
            try FileManager.default.createDirectory(atPath: parent, withIntermediateDirectories: true)
        } catch {
            throw CLIError("cannot make the folder \(VisibleText.escape(parent))")
        }
        do { try FileWriter.write(text, to: path) } catch { throw CLIError(error.description) }
    }

    /// Whether the folder is inside a git work tree (a `.git` in it or in a folder above it):
    /// `pre-commit install` fails anywhere else.
    static func isInGitRepository(_ folder: String) -> Bool {
        var path = LocalFile.realPath(folder) ?? folder
        while true {
            if FileStatus(path + "/.git") != nil { return true }
            guard let slash = path.lastIndex(of: "/"), path != "/" else { return false }
            path = slash == path.startIndex ? "/" : String(path[..<slash])
        }
    }

    /// authors.json (when missing) and the catalogue workflow (never over one).
    func makeCatalogue() throws {
        if let status = FileStatus(folder), !status.isDirectory { throw CLIError("\(VisibleText.escape(folder)) is not a folder") }
        let path = folder + "/" + RepositoryTemplates.cataloguePath
        if FileStatus(path) != nil { throw CLIError("\(VisibleText.escape(path)) is there already; nothing was written") }
        var written = [RepositoryTemplates.cataloguePath]
        if FileStatus(folder + "/authors.json") == nil {
            try Self.write(RepositoryTemplates.authors, to: folder + "/authors.json")
            written.insert("authors.json", at: 0)
        }
        try Self.write(RepositoryTemplates.catalogueWorkflow, to: path)
        Terminal.standardOutput.write("""
            made a catalogue in \(VisibleText.escape(folder)): \(written.joined(separator: ", "))
              next: list the authors in authors.json; `cyd catalogue keygen keeper` and store keeper.sec's text as the repository secret CYD_CATALOGUE_KEY (keep the file out of git); publish keeper.pub for readers; then Settings > Pages > Source: GitHub Actions

            """)
    }
}
