import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#endif
import Foundation
import LocalFiles
import StoryCheck
import StoryFormat
import TerminalUI

struct Init: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "init",
        abstract: "Start a story repository: a story.json to grow, a README with the tag, and checks for commits and pushes.",
        discussion: """
            Writes story.json (a first chapter with two choices, each to an ending), README.md \
            carrying #ChooseYourDestiny (so catalogues find it), resources/ for pictures, \
            .pre-commit-config.yaml (runs `cyd validate` on story.json before each commit; needs \
            cyd on PATH and `pre-commit install`) and .github/workflows/validate.yml (the cyd GitHub Action, which builds cyd \
            and validates on every push and pull request, findings as annotations). Everything \
            validates clean with --strict. Nothing is overwritten: a folder that already holds a \
            story.json is refused. With --pages, also .github/workflows/pages.yml, which builds the \
            story's site (`cyd build web`) on every push to main and publishes it on GitHub Pages; \
            in a folder that already holds a story, --pages adds just that workflow.
            """)

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
            let path = folder + "/" + Self.pagesPath
            if FileStatus(path) != nil { throw CLIError("\(VisibleText.escape(path)) is there already; nothing was written") }
            try Self.write(Self.pagesWorkflow, to: path)
            Terminal.standardOutput.write("""
                added \(VisibleText.escape(path)): on every push to main, GitHub builds the story's site and publishes it
                  next: commit it, then in the repository's settings choose Pages > Source: GitHub Actions

                """)
            return
        }
        if let status = FileStatus(folder), !status.isDirectory { throw CLIError("\(VisibleText.escape(folder)) is not a folder") }
        let files: [(String, String)] = [
            ("story.json", Self.story(title: title)),
            ("README.md", Self.readme(title: title)),
            ("resources/.gitkeep", ""),
            (".pre-commit-config.yaml", Self.preCommit),
            (".github/workflows/validate.yml", Self.workflow),
        ] + (pages ? [(Self.pagesPath, Self.pagesWorkflow)] : [])
        for (name, text) in files {
            let path = folder + "/" + name
            if FileStatus(path) != nil { continue }  // an existing README or workflow is the author's: kept
            try Self.write(text, to: path)
        }
        let target = try ValidationTarget.resolve(folder)
        let reports = try target.check(options: CheckOptions())
        let totals = ReportTotals(reports)
        Terminal.standardOutput.write("""
            made a story in \(VisibleText.escape(folder)): story.json, README.md, resources/, .pre-commit-config.yaml, .github/workflows/validate.yml\(pages ? ", " + Self.pagesPath : "")
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

    static func story(title: String) -> String {
        """
        {
          "story": {
            "id": "story01",
            "name": \(JSONQuoting.quoted(title)),
            "rating": "G",
            "summary": "One sentence that makes a reader want to begin.",
            "chapters": [
              {
                "id": "start",
                "name": "The Beginning",
                "text": "Write the opening here, [[name]]. Leave a blank line between paragraphs.\\n\\nEnd the chapter with a decision.",
                "is_first_chapter": true,
                "choices": [
                  { "chapter_id": "left", "text": "Take the left path" },
                  { "chapter_id": "right", "text": "Take the right path" }
                ]
              },
              {
                "id": "left",
                "name": "The Left Path",
                "text": "One ending. Add choices to keep the story going.",
                "is_ending": true
              },
              {
                "id": "right",
                "name": "The Right Path",
                "text": "Another ending.",
                "is_ending": true
              }
            ]
          }
        }

        """
    }

    static func readme(title: String) -> String {
        """
        # \(title)

        A branching story for #ChooseYourDestiny readers.

        Read it with `cyd read .`; check it with `cyd validate --strict .` (the pre-commit hook and
        the GitHub workflow in this repository do that for every commit and push). Pictures go in
        `resources/` and are named in story.json with `"pic_path": "resources/NAME.png"`.

        """
    }

    static let preCommit = """
        # Checks story.json before each commit, as strictly as the GitHub workflow does (warnings
        # fail too): `pre-commit install` once, in a git repository, with cyd on PATH.
        repos:
          - repo: local
            hooks:
              - id: cyd-validate
                name: cyd validate
                entry: cyd validate --strict
                language: system
                files: (^|/)(story|authors)\\.json$

        """

    static let workflow = """
        # Validates story.json on every push and pull request with the cyd GitHub Action:
        # findings become annotations and a summary, and errors or warnings fail the job.
        name: validate
        on: [push, pull_request]
        jobs:
          validate:
            runs-on: ubuntu-latest
            container: swift:6.0-bookworm   # the action builds cyd with Swift (or set version: to download one)
            steps:
              - uses: actions/checkout@v4
              - uses: \(ProjectHome.repository)@\(ProjectHome.branch)
                with:
                  path: .
                  strict: true

        """

    /// authors.json (when missing) and the catalogue workflow (never over one).
    func makeCatalogue() throws {
        if let status = FileStatus(folder), !status.isDirectory { throw CLIError("\(VisibleText.escape(folder)) is not a folder") }
        let path = folder + "/" + Self.cataloguePath
        if FileStatus(path) != nil { throw CLIError("\(VisibleText.escape(path)) is there already; nothing was written") }
        var written = [Self.cataloguePath]
        if FileStatus(folder + "/authors.json") == nil {
            try Self.write("{\n  \"authors\": [\n    { \"name\": \"your-github-name\" }\n  ]\n}\n", to: folder + "/authors.json")
            written.insert("authors.json", at: 0)
        }
        try Self.write(Self.catalogueWorkflow, to: path)
        Terminal.standardOutput.write("""
            made a catalogue in \(VisibleText.escape(folder)): \(written.joined(separator: ", "))
              next: list the authors in authors.json; `cyd catalogue keygen keeper` and store keeper.sec's text as the repository secret CYD_CATALOGUE_KEY (keep the file out of git); publish keeper.pub for readers; then Settings > Pages > Source: GitHub Actions

            """)
    }

    static let cataloguePath = ".github/workflows/catalogue.yml"

    static let catalogueWorkflow = """
        # Keeps the catalogue: every six hours (and on every push to main), syncs the authors in
        # authors.json, publishes the catalogue (catalogue.json, its shards, index.json for older
        # readers, report.html and a badge per story), signs it with the CYD_CATALOGUE_KEY secret
        # (the text of a key from `cyd catalogue keygen`), and deploys it to GitHub Pages. The synced
        # library and the published site are cached between runs, so a run asks only about what
        # changed, and each publish starts from the last one: its counts say what changed since,
        # removed stories are named, unchanged files keep their ETags. Readers:
        #   cyd sync --catalogue https://OWNER.github.io/REPOSITORY/catalogue.sig --trust keeper.pub
        name: catalogue
        on:
          schedule:
            - cron: "17 */6 * * *"
          push:
            branches: [main]
          workflow_dispatch:
        permissions:
          contents: read
          pages: write
          id-token: write
        concurrency:
          group: catalogue
          cancel-in-progress: false
        jobs:
          publish:
            runs-on: ubuntu-latest
            container: swift:6.0-bookworm   # the action builds cyd with Swift (or set version: to download one)
            env:
              CYD_HOME: ${{ github.workspace }}/.cyd-library
              GITHUB_TOKEN: ${{ secrets.GITHUB_TOKEN }}
            steps:
              - uses: actions/checkout@v4
              - uses: \(ProjectHome.repository)@\(ProjectHome.branch)
                with:
                  path: authors.json
              - uses: actions/cache@v4
                with:
                  path: |
                    .cyd-library
                    _site
                  key: cyd-catalogue-${{ github.run_id }}
                  restore-keys: cyd-catalogue-
              # A failing repository is reported (and kept at its last good version); the catalogue
              # is still published.
              - run: cyd sync --catalogue authors.json || echo "some repositories failed; see above"
              - name: publish
                env:
                  KEY: ${{ secrets.CYD_CATALOGUE_KEY }}
                run: |
                  if [ -n "$KEY" ]; then
                    umask 077; printf '%s\\n' "$KEY" > "$RUNNER_TEMP/keeper.sec"
                    cyd catalogue publish _site --sign "$RUNNER_TEMP/keeper.sec"
                    rm -f "$RUNNER_TEMP/keeper.sec"
                  else
                    cyd catalogue publish _site
                  fi
              - uses: actions/upload-pages-artifact@v3
                with:
                  path: _site
          deploy:
            needs: publish
            runs-on: ubuntu-latest
            environment:
              name: github-pages
              url: ${{ steps.deployment.outputs.page_url }}
            steps:
              - id: deployment
                uses: actions/deploy-pages@v4

        """

    static let pagesPath = ".github/workflows/pages.yml"

    static let pagesWorkflow = """
        # Publishes the story as a website on GitHub Pages on every push to main: the cyd GitHub
        # Action checks story.json and puts cyd on PATH, `cyd build web` makes the site (one page
        # a chapter; it reads on phones, with scripts off, and offline once opened), and GitHub's
        # own actions publish it. Turn it on once: Settings > Pages > Source: GitHub Actions.
        name: pages
        on:
          push:
            branches: [main]
          workflow_dispatch:
        permissions:
          contents: read
          pages: write
          id-token: write
        concurrency:
          group: pages
          cancel-in-progress: true
        jobs:
          build:
            runs-on: ubuntu-latest
            container: swift:6.0-bookworm   # the action builds cyd with Swift (or set version: to download one)
            steps:
              - uses: actions/checkout@v4
              - uses: \(ProjectHome.repository)@\(ProjectHome.branch)
                with:
                  path: .
              - run: cyd build web _site .
              - uses: actions/upload-pages-artifact@v3
                with:
                  path: _site
          deploy:
            needs: build
            runs-on: ubuntu-latest
            environment:
              name: github-pages
              url: ${{ steps.deployment.outputs.page_url }}
            steps:
              - id: deployment
                uses: actions/deploy-pages@v4

        """
}
