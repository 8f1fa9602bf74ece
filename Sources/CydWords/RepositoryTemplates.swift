import StoryCheck
import StoryFormat

/// What `cyd init` writes into a new story or catalogue repository: a story.json that validates
/// clean, a README carrying the tag, the pre-commit hook and the GitHub workflows (which run cyd,
/// so they name its commands: these are the command line's words).
public enum RepositoryTemplates {
    /// A catalogue's authors.json, to fill in.
    /// The files of a new story repository, by path in it (the Pages workflow with `pages`).
    public static func storyFiles(title: String, pages: Bool) -> [(path: String, text: String)] {
        [
            ("story.json", story(title: title)), ("README.md", readme(title: title)), ("resources/.gitkeep", ""),
            (".pre-commit-config.yaml", preCommit), (".github/workflows/validate.yml", workflow),
        ] + (pages ? [(pagesPath, pagesWorkflow)] : [])
    }

    /// What `cyd init` says of the story it made (`phrase`: what `cyd validate --strict` found;
    /// `inGit`: the folder is in a git work tree already).
    public static func madeStory(in folder: String, pages: Bool, phrase: String, inGit: Bool) -> String {
        """
        made a story in \(VisibleText.escape(folder)): story.json, README.md, resources/, .pre-commit-config.yaml, .github/workflows/validate.yml\(pages ? ", " + pagesPath : "")
          `cyd validate --strict \(VisibleText.escape(folder))`: \(phrase)
          next: write your chapters in story.json, `cyd read \(VisibleText.escape(folder))` to play it, \(inGit ? "`pre-commit install`" : "`git init` there, then `pre-commit install`,") to check each commit

        """
    }

    /// What `cyd init --pages` says when it adds the Pages workflow to a story (`path`).
    public static func addedPages(_ path: String) -> String {
        """
        added \(VisibleText.escape(path)): on every push to main, GitHub builds the story's site and publishes it
          next: commit it, then in the repository's settings choose Pages > Source: GitHub Actions

        """
    }

    /// What `cyd init --catalogue` says of the files it wrote.
    public static func madeCatalogue(in folder: String, written: [String]) -> String {
        """
        made a catalogue in \(VisibleText.escape(folder)): \(written.joined(separator: ", "))
          next: list the authors in authors.json; `cyd catalogue keygen keeper` and store keeper.sec's text as the repository secret CYD_CATALOGUE_KEY (keep the file out of git); publish keeper.pub for readers; then Settings > Pages > Source: GitHub Actions

        """
    }

    public static let authors = "{\n  \"authors\": [\n    { \"name\": \"your-github-name\" }\n  ]\n}\n"

    public static func story(title: String) -> String {
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

    public static func readme(title: String) -> String {
        """
        # \(title)

        A branching story for #ChooseYourDestiny readers.

        Read it with `cyd read .`; check it with `cyd validate --strict .` (the pre-commit hook and
        the GitHub workflow in this repository do that for every commit and push). Pictures go in
        `resources/` and are named in story.json with `"pic_path": "resources/NAME.png"`.

        """
    }

    public static let preCommit = """
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

    public static let workflow = """
        # Validates story.json on every push and pull request with the cyd GitHub Action:
        # findings become annotations and a summary, and errors or warnings fail the job. On a
        # pull request the summary also says what the change does to the story (cyd diff).
        name: validate
        on: [push, pull_request]
        jobs:
          validate:
            runs-on: ubuntu-latest
            container: swift:6.0-bookworm   # the action builds cyd with Swift (or set version: to download one)
            steps:
              - uses: actions/checkout@v4
                with:
                  fetch-depth: 0   # the base branch's history, for the story diff
              - uses: \(ProjectHome.repository)@\(ProjectHome.branch)
                with:
                  path: .
                  strict: true
                  diff: .

        """

    public static let cataloguePath = ".github/workflows/catalogue.yml"

    public static let catalogueWorkflow = """
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
        \(pagesDeployment(after: "publish"))

        """

    public static let pagesPath = ".github/workflows/pages.yml"

    public static let pagesWorkflow = """
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
        \(pagesDeployment(after: "build"))

        """

    /// The end both Pages workflows share: the site uploaded by the last step of `job`, then a
    /// job that deploys it to GitHub Pages.
    static func pagesDeployment(after job: String) -> String {
        """
              - uses: actions/upload-pages-artifact@v3
                with:
                  path: _site
          deploy:
            needs: \(job)
            runs-on: ubuntu-latest
            environment:
              name: github-pages
              url: ${{ steps.deployment.outputs.page_url }}
            steps:
              - id: deployment
                uses: actions/deploy-pages@v4
        """
    }
}
