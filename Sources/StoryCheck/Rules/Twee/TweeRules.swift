import StoryFormat

// Findings in Twee files (Twine's notation) and Twine archives, made while `cyd import twee`,
// `cyd import twine` or `cyd validate story.twee` read them (StoryInterchange). Their examples are
// Twee files; StoryInterchange's tests check them, since only it reads Twee.

extension DiagnosticCode {
    public static let tweeNoPassages: Self = TweeNoPassages.description.code
    public static let tweeTextOutsidePassages: Self = TweeTextOutsidePassages.description.code
    public static let tweeCodePassage: Self = TweeCodePassage.description.code
    public static let tweeMacro: Self = TweeMacro.description.code
    public static let tweeLinkSetter: Self = TweeLinkSetter.description.code
    public static let tweeDuplicatePassage: Self = TweeDuplicatePassage.description.code
    public static let tweeStartMissing: Self = TweeStartMissing.description.code
    public static let tweeUnreadableData: Self = TweeUnreadableData.description.code
    public static let twineMoreStories: Self = TwineMoreStories.description.code
    public static let twineArchiveCutShort: Self = TwineArchiveCutShort.description.code
}

enum TweeNoPassages: Rule {
    static let description = RuleDescription(
        code: "CYD150", name: "twee-no-passages", category: .twee, severity: .error,
        summary: "a Twee file holds no passage, or an HTML file no Twine story with passages",
        rationale: """
            A Twee passage starts with a line beginning `::` (`:: Name`); a file with none is not \
            Twee, or is a story's text without its headers, and no story can be read from it. A \
            Twine archive or published story holds a `<tw-storydata>` element (outside scripts, \
            styles and comments) with `<tw-passagedata>` elements in it; without them there is \
            no story to read either.
            """,
        triggering: [RuleExample("↓Once upon a time.\n", fileName: "story.twee")],
        nonTriggering: [RuleExample(":: Start\nOnce upon a time.\n", fileName: "story.twee")])
}

enum TweeTextOutsidePassages: Rule {
    static let description = RuleDescription(
        code: "CYD151", name: "twee-text-outside-passages", category: .twee, severity: .warning,
        summary: "text before the first passage of a Twee file",
        rationale: """
            Twee has no place for text before the first `::` header: Twine and tweego drop it, and \
            so does the import. Move it into a passage, or delete it.
            """,
        triggering: [RuleExample("↓A note to myself\n:: Start\nHello.\n", fileName: "story.twee")],
        nonTriggering: [RuleExample("\n\n:: Start\nHello.\n", fileName: "story.twee")])
}

enum TweeCodePassage: Rule {
    static let description = RuleDescription(
        code: "CYD152", name: "twee-code-passage", category: .twee, severity: .warning,
        summary: "a passage of story-format code (a script, a stylesheet, StoryInit...) or an archive's story JavaScript or stylesheet is left out",
        rationale: """
            Stories here hold text and choices, no code: a passage tagged `script`, `stylesheet`, \
            `widget` or `header`, the special passages story formats run themselves \
            (`StoryInit`, `PassageHeader`...), and a Twine archive's story JavaScript and \
            stylesheet have no chapter to become. What they did must be written as text and \
            choices.
            """,
        triggering: [RuleExample(":: Start\nHello.\n\n↓:: Setup [script]\nwindow.x = 1;\n", fileName: "story.twee")],
        nonTriggering: [RuleExample(":: Start [forest]\nHello.\n", fileName: "story.twee")])
}

enum TweeMacro: Rule {
    static let description = RuleDescription(
        code: "CYD153", name: "twee-macro", category: .twee, severity: .warning,
        summary: "a story format's macro in a passage is kept as text",
        rationale: """
            Harlowe's `(set:)`, SugarCube's `<<if>>`, Snowman's `<% %>` and Chapbook's `{inserts}` \
            are code the story format runs; readers here show them as they are written. Rewrite \
            what they do as text and choices (a variable that changes the story is a branch).
            """,
        triggering: [RuleExample(":: Start\nThe lamp ↓(set: $lamp to true)is lit.\n", fileName: "story.twee")],
        nonTriggering: [RuleExample(":: Start\nThe lamp (a brass one) is lit.\n", fileName: "story.twee")])
}

enum TweeLinkSetter: Rule {
    static let description = RuleDescription(
        code: "CYD154", name: "twee-link-setter", category: .twee, severity: .warning,
        summary: "a link also sets a variable; the choice is kept, the setter left out",
        rationale: """
            SugarCube's `[[text|target][$x to 1]]` sets a variable when taken. The choice is kept; \
            what the variable changed later must become a branch of its own.
            """,
        triggering: [RuleExample(":: Start\n↓[[Go|End][$x to 1]]\n\n:: End\nThe end.\n", fileName: "story.twee")],
        nonTriggering: [RuleExample(":: Start\n[[Go|End]]\n\n:: End\nThe end.\n", fileName: "story.twee")])
}

enum TweeDuplicatePassage: Rule {
    static let description = RuleDescription(
        code: "CYD155", name: "twee-duplicate-passage", category: .twee, severity: .error,
        summary: "two passages of one name; the second is left out",
        rationale: """
            A passage's name is its chapter's id, and a link names one passage. Twine refuses a \
            second passage of the same name; the import keeps the first. Rename one of them.
            """,
        triggering: [RuleExample(":: Start\nOne.\n\n↓:: Start\nTwo.\n", fileName: "story.twee")],
        nonTriggering: [RuleExample(":: Start\nOne.\n\n:: Start again\nTwo.\n", fileName: "story.twee")])
}

enum TweeStartMissing: Rule {
    static let description = RuleDescription(
        code: "CYD156", name: "twee-start-missing", category: .twee, severity: .warning,
        summary: "StoryData's start names no passage",
        rationale: """
            StoryData's `start` says where reading begins. Naming no passage, reading starts at \
            the passage named Start, else at the first passage; name the one you mean.
            """,
        triggering: [RuleExample(":: StoryData\n↓{\"start\": \"Begin\"}\n\n:: Start\nHello.\n", fileName: "story.twee")],
        nonTriggering: [RuleExample(":: StoryData\n{\"start\": \"Start\"}\n\n:: Start\nHello.\n", fileName: "story.twee")])
}

enum TweeUnreadableData: Rule {
    static let description = RuleDescription(
        code: "CYD157", name: "twee-unreadable-data", category: .twee, severity: .warning,
        summary: "StoryData, cyd's metadata passage or a passage's metadata does not hold JSON, or holds what a story cannot keep",
        rationale: """
            StoryData (the IFID, the story format, the first passage) and CydMetadata (what Twee \
            has no place for, written when cyd exports Twee) hold JSON; a passage that does not \
            parse is left out, with all it said. A passage's own metadata (`{...}` on its header) \
            gives its position and size on Twine's story map; anything else in it, or a block \
            that is not JSON, has no place in a story and is left out.
            """,
        triggering: [
            RuleExample(":: StoryData\n↓{\"start\": Start}\n\n:: Start\nHello.\n", fileName: "story.twee"),
            RuleExample("↓:: Start {\"position\":\"100,100\",\"note\":\"x\"}\nHello.\n", fileName: "story.twee"),
        ],
        nonTriggering: [RuleExample(":: StoryData\n{\"start\": \"Start\"}\n\n:: Start\nHello.\n", fileName: "story.twee")])
}

enum TwineMoreStories: Rule {
    static let description = RuleDescription(
        code: "CYD158", name: "twine-more-stories", category: .twee, severity: .warning,
        summary: "a Twine archive holds more than one story; the first is read",
        rationale: """
            Twine's Library > Archive writes every story in one file; a story.json is one story. \
            Archive the story you want alone (or publish it from Twine) and read that file.
            """,
        triggering: [
            RuleExample(
                "<tw-storydata name=\"One\" startnode=\"1\"><tw-passagedata pid=\"1\" name=\"A\">Hi.</tw-passagedata></tw-storydata>\n↓<tw-storydata name=\"Two\"></tw-storydata>\n",
                fileName: "story.html")
        ],
        nonTriggering: [
            RuleExample("<tw-storydata name=\"One\" startnode=\"1\"><tw-passagedata pid=\"1\" name=\"A\">Hi.</tw-passagedata></tw-storydata>\n", fileName: "story.html")
        ])
}

enum TwineArchiveCutShort: Rule {
    static let description = RuleDescription(
        code: "CYD159", name: "twine-archive-cut-short", category: .twee, severity: .error,
        summary: "a Twine archive ends inside its story: the file is cut short",
        rationale: """
            Twine closes a story with `</tw-storydata>`. A file that ends before it was cut short \
            (a download or a copy that stopped), and the passages it lost cannot be known, nor \
            whether the last one is whole: reading what is left as the story would lose them \
            without a word. Archive the story again; if the file is all there is, end it with \
            the missing end tags, knowing the last passage may be short.
            """,
        triggering: [
            RuleExample("<tw-storydata name=\"One\" startnode=\"1\"><tw-passagedata pid=\"1\" name=\"A\">Hi.</tw-passagedata>\n<tw-passagedata pid=\"2\" name=\"B\">Bye↓", fileName: "story.html")
        ],
        nonTriggering: [
            RuleExample("<tw-storydata name=\"One\" startnode=\"1\"><tw-passagedata pid=\"1\" name=\"A\">Hi.</tw-passagedata>\n</tw-storydata>\n", fileName: "story.html")
        ])
}
