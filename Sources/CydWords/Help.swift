import StoryAnalysis
import StorySync
import TerminalUI

/// The longer help of cyd's commands (what `cyd COMMAND --help` says below its flags), kept
/// together as a manual's text is; each command names its own with `discussion: Help.NAME`.
public enum Help {
    public static let buildWeb = """
        One page per chapter, choices as plain links: the site reads with scripts off. With \
        scripts on, the reader's place, name and endings found are kept in their browser, \
        number keys take choices, and a story once opened stays readable offline. Pictures \
        in the story's folder are copied beside the pages, named by their content; https \
        pictures are fetched now (or linked, with --no-fetch). Each translation in a story's \
        translations/ folder (or those --lang names) is built beside it, with a switch to the \
        same page in each language on every page; the reader's place is one in all of them.
        """

    public static let preview = """
        The folder is served on 127.0.0.1 only, for its author: each chapter at /chapter/ID as \
        readers will see it, with every finding of `cyd validate` about it beside it, all \
        findings at /findings, and the chapter map at /map. When story.json, a picture or a \
        translation is saved, the page follows without a reload and stays on its chapter (a \
        renamed chapter is followed; a save that does not parse is said, and the last good \
        story stays). The author's place is the page's address: no reader's place changes. In \
        an editor with `cyd lsp`, "Preview this chapter" above each chapter moves the preview there.
        """

    public static let diff = """
        OLD and NEW are story folders, story.json files, or revisions of the git repository the \
        story's folder is in (HEAD~1, main, a commit), read with libgit2 without a checkout; \
        with NEW left out, the folder as it is now. A chapter whose id changed is recognised by \
        its words and reported renamed; its choices and translations follow it. Findings are \
        compared by rule and message, wherever they moved. Exit 0 when both sides were read \
        (changed or not), 1 when one could not be (the other is still described), 2 on a usage \
        error. As git's tools: `git difftool -y -x 'cyd diff' -- story.json`, or \
        `git config diff.cyd.textconv 'cyd diff --format outline'` with `story.json diff=cyd` in \
        .gitattributes, so `git diff` compares chapters.
        """

    public static let cyd = """
        Stories are story.json chapter graphs that authors publish as git repositories.
        Exit codes: 0 success; 1 the command worked and found problems; 2 usage, I/O or internal error.
        """

    public static let sync = """
        Reads the catalogue and brings the list of available stories up to date. By default \
        that is the original reader's catalogue: authors.json at the root of \
        \(CatalogueSource.defaultLocation) (branch master); --catalogue or $CYD_CATALOGUE name \
        another. authors.json looks like { "authors": [ { "name": "alice" }, { "name": "bo", \
        "repos": ["https://github.com/bo/tide.git"] } ] }: each author's story repositories are \
        the `repos` listed (a listed repository without the tag in its README is still offered, \
        with a warning), or else the user's GitHub repositories whose README carries \
        #ChooseYourDestiny (one without a story.json is quietly not a story). Each repository is \
        checked with one cheap ls-remote (none at all for a GitHub repository not pushed since \
        its last good check): only one whose HEAD moved is fetched and its story.json read. A \
        broken author or repository is reported and skipped; the sync exits 1 when any failed. An \
        interrupted sync keeps what it finished.
        A published index (index.json from `cyd catalogue publish`, as a path, a folder or an \
        https URL) is read with one conditional request instead: no GitHub, no ls-remote.
        GitHub: set GITHUB_TOKEN for 5000 requests an hour instead of 60; answers are cached with \
        their ETags, so a repeated sync asks for little.
        """

    public static let publish = """
        Run after `cyd sync`; serve DIR over https (GitHub Pages, any static host). DIR gets \
        catalogue.json (the root: name, version, expiry, and each shard's SHA-256), \
        shards/XX.json (the stories, by the first byte of the SHA-256 of the author's name), \
        index.json (every story in one file, for older readers), report.html (the keeper's \
        health report) and badges/AUTHOR/REPOSITORY.svg. Each entry pins the commit the keeper \
        checked and the SHA-256 of its story.json and pictures: readers get exactly that. A story \
        whose newer commits are broken keeps its last good version, marked broken. With --sign, \
        catalogue.sig is the root with its signify signature embedded and catalogue.pub the \
        public key; readers run `cyd sync --catalogue https://…/catalogue.sig --trust catalogue.pub`. \
        Files are written whole and renamed into place; unchanged shards are left untouched.
        """

    public static let fix = """
        Each repair belongs to a rule (`cyd explain CODE` says what it does): CYD102 removes a \
        trailing comma, CYD103 a comment, CYD202 writes "true" or "false" in quotes as a \
        boolean, CYD602 changes http:// to https://, CYD302 points a choice at the suggested \
        chapter when exactly one chapter id is that close. Edits replace only the bytes at fault: \
        indentation, key order and spacing stay byte for byte. The file is written whole and \
        renamed into place. --dry-run prints a unified diff instead.
        """

    public static let graph = """
        Chapters are nodes (the first chapter bold, endings as octagons), choices are edges \
        labelled with their text (shortened). Unreachable chapters are dashed and grey, \
        chapters with no way out orange, and a choice to a chapter that does not exist leads \
        to a red stub. Node names are the chapter ids, so maps of two versions diff line by \
        line. svg is drawn by Graphviz's `dot` (Debian: apt-get install graphviz); text is an \
        indented tree for the terminal, each chapter once, later ways to it as back-references.
        """

    public static let `init` = """
        Writes story.json (a first chapter with two choices, each to an ending), README.md \
        carrying #ChooseYourDestiny (so catalogues find it), resources/ for pictures, \
        .pre-commit-config.yaml (runs `cyd validate` on story.json before each commit; needs \
        cyd on PATH and `pre-commit install`) and .github/workflows/validate.yml (the cyd GitHub Action, which builds cyd \
        and validates on every push and pull request, findings as annotations). Everything \
        validates clean with --strict. Nothing is overwritten: a folder that already holds a \
        story.json is refused. With --pages, also .github/workflows/pages.yml, which builds the \
        story's site (`cyd build web`) on every push to main and publishes it on GitHub Pages; \
        in a folder that already holds a story, --pages adds just that workflow.
        """

    public static let importTwee = """
        Each passage becomes a chapter named by the passage; its links become choices (all four \
        of Twine's forms); StoryTitle is the title and StoryData's start the first chapter. The \
        story format's variable for the reader's name ($name, {name}) becomes [[name]]. A file \
        that `cyd export twee` wrote comes back exactly as it was. What a story cannot hold is \
        said, with its line and column: code passages are left out, macros kept as text.
        """

    public static let exportTwee = """
        StoryTitle holds the title and StoryData the IFID (the same for the same story each \
        time), the story format and the first chapter; each chapter is a passage with its \
        choices as [[text->id]] links. Titles, rating, summary, pictures and anything the links \
        cannot carry exactly travel in a CydMetadata passage tagged cyd.
        """

    public static let exportEPUB = """
        The first chapter is section 1; the others follow in a shuffled order (--seed keeps it \
        the same from one export to the next). Pictures go inside the book, https ones fetched \
        now (left out with --no-fetch: a book cannot link to them), each with its pic_alt; a \
        cover page, a table of contents and accessibility metadata come with it. [[name]] reads \
        --reader-name, else "Reader" (as every reader of cyd's says it).
        """

    public static let l10n = """
        Every string a reader sees has an id made from what it is (story.name, CHAPTER.title, \
        CHAPTER.text.2, CHAPTER.choice.TARGET, CHAPTER.pic_alt), so translations survive edits \
        to the text (they are marked fuzzy) and to other chapters. Files live in the story's \
        translations/ folder: story.pot (the template, in reading order), one LANG.po (or \
        LANG.xlf) per language, and LINGUAS, the languages readers get. `cyd validate` checks \
        them; `cyd read --lang LANG` reads them.
        """

    public static let extract = """
        Entries follow the story breadth-first from its first chapter (chapters no choice \
        reaches come last), each with its chapter's title as context, its line of story.json, \
        its id and, where it has one, a note about [[name]]. With --format xliff, \
        translations/story.xlf (XLIFF 2.1) instead.
        """

    public static let refresh = """
        Translations are kept by id. A string whose text changed keeps its translation, \
        marked fuzzy, with the old text as #| msgid; a chapter renamed keeps its \
        translations when their text is the same; translations of strings that are gone \
        stay at the end as obsolete (#~) entries, and come back if the string does.
        """

    public static let languageServerCommand = """
        Checks story.json and authors.json as they are typed (the rules of cyd validate), and \
        offers go to definition, find references, hover, completion and rename of chapter ids, \
        the repairs of cyd fix as code actions, "create chapter" for a missing target, and an \
        outline of chapters. The README says how to set it up in VS Code, Neovim and Helix.
        """

    public static let test = """
        Without options: walkthroughs from the first chapter to an ending that together take \
        every choice that can be part of one (near-smallest: each goes to the first choice no \
        earlier one took by a shortest way, then finishes preferring untaken choices), and the \
        choices none can take (unreachable, to a missing chapter, or into a chapter with no way \
        out). It passes when every choice a reader can reach is part of a way to an ending, and \
        fails (exit 1) when one leads into a chapter with no way out or to a missing chapter. \
        --write DIR saves each as a transcript: the choice numbers `cyd read` accepts on \
        standard input, with `> chapter` after each choice and `= ending` at the end. --replay \
        FILE... follows transcripts in the story as it is now and fails (exit 1), showing what \
        a reader would now see, where one no longer holds. --random N plays N random \
        playthroughs (the same ones for the same --seed) and reports coverage and lengths.
        """

    public static let read = """
        STORY is a library id (see `cyd list`) or the path of a story folder or story.json \
        (added to the library, so your place is remembered). Without STORY, pick one from the \
        library and the bundled stories.

        While reading: \(ReaderCommand.helpSummary).

        When standard input is not a terminal, cyd reads one command per line and prints \
        plain text (or JSON events with --json): handy for scripts and tests. Ctrl-C or the \
        end of input saves and quits.
        """

    public static let serve = """
        Pages are served from the same library as `cyd read`: a place kept in the terminal is \
        the place in the browser, and back. By default only this machine can connect \
        (127.0.0.1). With --listen on a network address, anyone on that network who has the \
        link printed at start (it carries a key, kept in the library folder) can read; the link \
        is also drawn as a QR code for a phone's camera; --new-key makes a new key, so the old \
        link no longer opens it. Stories are shown in each browser's language where they are \
        translated, or in --lang's; "Stories in" at the top of every page lets a reader choose. \
        Ctrl-C stops the server.
        """

    public static let stats = """
        A story.json has no hidden state, so playthroughs (ways from the first chapter to a \
        chapter without choices; two choices to the same chapter are two ways) are counted \
        exactly, not sampled, however many there are; with a loop on a way to an ending there \
        are unboundedly many, and the loop is shown. For each ending: the fewest and most \
        chapters on the way there and how many playthroughs end there; the chapters every \
        reader passes through; the longest way through. Reading time is at \
        \(StoryStatistics.wordsPerMinute) words a minute, every chapter read once.
        """

    public static let validate = """
        PATH is a story.json, an authors.json, or a story folder (story.json, README.md and \
        resources/, as in the story's repository; folders also get the picture and README \
        checks, and its translations/ files are checked against the story). Without PATH, the \
        current folder. A translation file (.po, .xlf) is checked against the story.json of \
        the folder its translations/ folder is in. A Twee file (.twee, .tw) or a Twine archive \
        (.html) is read as `cyd import` reads it: every rule applies to the story it gives, \
        each finding at its place in that file.

        Every finding has a code; `cyd explain CODE` tells more and `cyd rules` lists them all.
        Exit codes: 0 no errors; 1 errors found (or warnings, with --strict); 2 usage or I/O error.
        """
}
