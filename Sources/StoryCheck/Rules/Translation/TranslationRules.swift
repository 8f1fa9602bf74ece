import StoryFormat

// Findings in translation files (translations/LANG.po, translations/LANG.xlf), made while
// StoryTranslation reads one against the story it translates: `cyd validate`, `cyd l10n status`,
// the language server on a .po file, and adding a story to the library. Their examples are PO
// files beside `RuleExample.translatedStory`; StoryTranslation's tests run them.

extension DiagnosticCode {
    public static let translationUnreadable: Self = TranslationUnreadable.description.code
    public static let translationUnknownID: Self = TranslationUnknownID.description.code
    public static let translationPlaceholder: Self = TranslationPlaceholder.description.code
    public static let translationStale: Self = TranslationStale.description.code
    public static let translationUntranslated: Self = TranslationUntranslated.description.code
    public static let translationLanguageCode: Self = TranslationLanguageCode.description.code
    public static let translationDuplicate: Self = TranslationDuplicate.description.code
    public static let translationNotListed: Self = TranslationNotListed.description.code
    public static let translationInlineMarkup: Self = TranslationInlineMarkup.description.code
}

extension RuleExample {
    /// The story every translation example translates: two chapters, a name, a choice.
    public static let translatedStory = """
        {
          "story": {
            "id": "example",
            "name": "The Door",
            "rating": "G",
            "summary": "A door, and what is behind it",
            "chapters": [
              {
                "id": "start",
                "name": "The hall",
                "is_first_chapter": true,
                "text": "Hello, [[name]].\\n\\nA door stands open.",
                "choices": [{ "chapter_id": "end", "text": "Go through" }]
              },
              { "id": "end", "name": "Outside", "text": "The sun is up." }
            ]
          }
        }
        """

    /// A translation file beside `translatedStory` (translations/fr.po unless named otherwise).
    public static func translation(_ source: String, fileName: String = "translations/fr.po") -> RuleExample {
        RuleExample(source, fileName: fileName, folderFiles: ["story.json": translatedStory])
    }

    /// One PO entry for `translatedStory`, with its id comment.
    static func entry(_ id: String, context: String, _ source: String, _ target: String, flags: String = "") -> String {
        "\n#. id: \(id)\n\(flags.isEmpty ? "" : "#, \(flags)\n")msgctxt \"\(context)\"\nmsgid \"\(source)\"\nmsgstr \"\(target)\"\n"
    }

    /// `translatedStory` wholly in French.
    public static let completeTranslation = poHeader
        + entry("story.name", context: "story", "The Door", "La Porte")
        + entry("story.summary", context: "story", "A door, and what is behind it", "Une porte, et ce qu’il y a derrière")
        + entry("start.title", context: "The hall", "The hall", "Le vestibule")
        + entry("start.text.1", context: "The hall", "Hello, [[name]].", "Bonjour, [[name]].")
        + entry("start.text.2", context: "The hall", "A door stands open.", "Une porte est ouverte.")
        + entry("start.choice.end", context: "The hall", "Go through", "La franchir")
        + entry("end.title", context: "Outside", "Outside", "Dehors")
        + entry("end.text.1", context: "Outside", "The sun is up.", "Le soleil est levé.")

    /// The header of every example PO file.
    public static let poHeader = "msgid \"\"\nmsgstr \"\"\n\"Language: fr\\n\"\n\"Content-Type: text/plain; charset=UTF-8\\n\"\n"
}

enum TranslationUnreadable: Rule {
    static let description = RuleDescription(
        code: "CYD160", name: "translation-unreadable", category: .translation, severity: .error,
        summary: "a translation file cannot be read",
        rationale: """
            A PO file is lines of `msgctxt`, `msgid` and `msgstr` followed by quoted strings; an \
            XLIFF file is XML. A line that is neither stops the whole file from being read, so none \
            of its translations reach readers. The finding names the line; `msgfmt --check` says \
            the same of a PO file.
            """,
        triggering: [.translation(RuleExample.poHeader + "\nmsgctxt \"The hall\"\nmsgid \"The hall\"\nmsgstr ↓Le vestibule\n")],
        nonTriggering: [.translation(RuleExample.poHeader + RuleExample.entry("start.title", context: "The hall", "The hall", "Le vestibule"))])
}

enum TranslationUnknownID: Rule {
    static let description = RuleDescription(
        code: "CYD161", name: "translation-unknown-id", category: .translation, severity: .warning,
        summary: "a translation of a string the story does not have",
        rationale: """
            Every string has an id made from where it is (`CHAPTER.title`, `CHAPTER.text.2`, \
            `CHAPTER.choice.TARGET`); a translation whose id the story no longer has is never shown. \
            Usually its chapter was renamed or removed: an update of the translation from the story \
            follows a rename it can see and keeps the rest as obsolete (`#~`) entries.
            """,
        triggering: [.translation(RuleExample.poHeader + "\n↓#. id: cellar.title\nmsgctxt \"The cellar\"\nmsgid \"The cellar\"\nmsgstr \"La cave\"\n")],
        nonTriggering: [.translation(RuleExample.poHeader + RuleExample.entry("end.title", context: "Outside", "Outside", "Dehors"))])
}

enum TranslationPlaceholder: Rule {
    static let description = RuleDescription(
        code: "CYD162", name: "translation-placeholder", category: .translation, severity: .error,
        summary: "a translation has more or fewer [[name]] than the original",
        rationale: """
            `[[name]]` is where the reader's first name goes. A translation that drops it loses the \
            reader's name; one that adds it (or misspells it, `[[nom]]`) shows brackets to the \
            reader. Keep each `[[name]]` as it is written, moved wherever the language needs it.
            """,
        triggering: [
            .translation(RuleExample.poHeader + "\n#. id: start.text.1\nmsgctxt \"The hall\"\nmsgid \"Hello, [[name]].\"\n↓msgstr \"Bonjour.\"\n")
        ],
        nonTriggering: [.translation(RuleExample.poHeader + RuleExample.entry("start.text.1", context: "The hall", "Hello, [[name]].", "Bonjour, [[name]]."))])
}

enum TranslationStale: Rule {
    static let description = RuleDescription(
        code: "CYD163", name: "translation-stale", category: .translation, severity: .warning,
        summary: "a translation of a text that has changed since (or is marked fuzzy)",
        rationale: """
            The entry's `msgid` is not the story's text any more, or a translator marked it fuzzy: \
            readers see the original until it is looked at again. An update of the translation from \
            the story marks such entries fuzzy and keeps the old text as `#| msgid` so the change is \
            easy to see.
            """,
        triggering: [.translation(RuleExample.poHeader + "\n↓#. id: end.text.1\nmsgctxt \"Outside\"\nmsgid \"The sun is down.\"\nmsgstr \"Le soleil est couché.\"\n")],
        nonTriggering: [.translation(RuleExample.poHeader + RuleExample.entry("end.text.1", context: "Outside", "The sun is up.", "Le soleil est levé."))])
}

enum TranslationUntranslated: Rule {
    static let description = RuleDescription(
        code: "CYD164", name: "translation-untranslated", category: .translation, severity: .warning,
        summary: "a string of the story has no translation yet (reported only when asked for)",
        rationale: """
            Readers see the original wherever a translation is missing, so a partial translation \
            is still readable, and this is not reported by default; validating one language asks for \
            it: a translation about to be published should have none.
            """,
        triggering: [.translation(RuleExample.poHeader + "\n#. id: end.title\nmsgctxt \"Outside\"\nmsgid \"Outside\"\n↓msgstr \"\"\n")],
        nonTriggering: [.translation(RuleExample.completeTranslation)])
}

enum TranslationLanguageCode: Rule {
    static let description = RuleDescription(
        code: "CYD165", name: "translation-language-code", category: .translation, severity: .error,
        summary: "a translation file's language is not a BCP 47 language tag",
        rationale: """
            The file's name (`fr.po`, `pt-BR.po`) says its language, and readers choose by it \
            (by name, or from their LANG). It must be a BCP 47 tag: a language of two or \
            three letters, then optional script, region and variants (`fr`, `es-419`, `sr-Latn`). \
            gettext's `pt_BR` is read as `pt-BR`.
            """,
        triggering: [.translation("↓" + RuleExample.poHeader, fileName: "translations/french.po")],
        nonTriggering: [.translation(RuleExample.poHeader, fileName: "translations/fr.po")])
}

enum TranslationDuplicate: Rule {
    static let description = RuleDescription(
        code: "CYD166", name: "translation-duplicate", category: .translation, severity: .error,
        summary: "two translations of one string",
        rationale: """
            Each string may be translated once in a file; with two, which one readers see depends \
            on the order of the file. `msgfmt` refuses a PO file with two entries of the same \
            context and text. Keep one.
            """,
        triggering: [
            .translation(
                RuleExample.poHeader + RuleExample.entry("end.title", context: "Outside", "Outside", "Dehors")
                    + "\n↓#. id: end.title\nmsgctxt \"Outside\"\nmsgid \"Outside\"\nmsgstr \"Au-dehors\"\n")
        ],
        nonTriggering: [.translation(RuleExample.poHeader + RuleExample.entry("end.title", context: "Outside", "Outside", "Dehors"))])
}

enum TranslationNotListed: Rule {
    static let description = RuleDescription(
        code: "CYD167", name: "translation-not-listed", category: .translation, severity: .warning,
        summary: "a translation file that translations/LINGUAS does not list",
        rationale: """
            A reader who gets a story from git or the web gets the languages translations/LINGUAS \
            lists, one a line (gettext's convention); a file it does not list reaches only those \
            who read the folder itself. Starting a translation with cyd adds its language.
            """,
        triggering: [
            RuleExample("↓" + RuleExample.poHeader, fileName: "translations/de.po", folderFiles: ["story.json": RuleExample.translatedStory, "translations/LINGUAS": "fr\n"])
        ],
        nonTriggering: [
            RuleExample(RuleExample.poHeader, fileName: "translations/fr.po", folderFiles: ["story.json": RuleExample.translatedStory, "translations/LINGUAS": "fr\n"])
        ])
}

enum TranslationInlineMarkup: Rule {
    static let description = RuleDescription(
        code: "CYD168", name: "translation-inline-markup", category: .translation, severity: .warning,
        summary: "an XLIFF string holds inline markup, which a story's plain text cannot keep",
        rationale: """
            A story's strings are plain text. An inline element in an XLIFF source or target \
            (<b>, which XLIFF 2.1 does not have, or its own <pc>, <ph>, <mrk>...) is read as its \
            text alone, so what it meant (bold, a placeholder) is lost. Only <cp>, a character \
            XML cannot hold, is read as that character. Write the translation as plain text.
            """,
        triggering: [
            RuleExample.translation(RuleExample.xliff(target: "<b>Dehors</b>", marked: true), fileName: "translations/fr.xlf")
        ],
        nonTriggering: [RuleExample.translation(RuleExample.xliff(target: "Dehors"), fileName: "translations/fr.xlf")])
}

extension RuleExample {
    /// An XLIFF 2.1 file beside `translatedStory` translating the chapter 'end''s title as
    /// `target`, the target element marked when asked.
    static func xliff(target: String, marked: Bool = false) -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <xliff xmlns="urn:oasis:names:tc:xliff:document:2.0" version="2.1" srcLang="en" trgLang="fr">
        <file id="story" original="story.json">
        <unit id="end.title" name="end.title">
        <segment state="translated"><source>Outside</source>\(marked ? "↓" : "")<target>\(target)</target></segment>
        </unit>
        </file>
        </xliff>

        """
    }
}
