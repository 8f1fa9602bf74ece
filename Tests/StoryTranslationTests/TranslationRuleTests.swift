import StoryCheck
import StoryFormat
import StoryTranslation
import Testing

/// The translation rules (CYD160-CYD168) run on their own examples: each a translation file
/// beside `RuleExample.translatedStory`, checked as `cyd validate` checks it.
@Suite("Translation rules")
struct TranslationRuleTests {
    static let rules = RuleCatalogue.descriptions.filter { $0.category == .translation }

    static func check(_ example: RuleExample) -> [Diagnostic] {
        let bytes = example.bytesAndMarkers.bytes
        let story = LoadedFile.load(Array((example.folderFiles?["story.json"] ?? RuleExample.translatedStory).utf8))
        let units = story.story.flatMap { TranslationUnits.extract($0) }
        let language = TranslationValidation.language(ofFile: example.fileName)
        let listed = example.folderFiles?["translations/LINGUAS"].map { Linguas.languages(Array($0.utf8)).contains(language ?? "") } ?? true
        let context = TranslationValidation.Context(language: language, units: units, reportUntranslated: true, listed: listed)
        return TranslationValidation.check(bytes: bytes, path: example.fileName, context: context).diagnostics
    }

    @Test("a translation keeps the original's placeholders, as many and no others, whatever the strings are made of: small, long, accented, cut from a longer text")
    func placeholdersKept() {
        let long = String(repeating: "Vague écume ", count: 40)
        let cut = String(("xx" + long + "[[name]] arrive" + long).dropFirst(2))
        let cases: [(String, String, Bool)] = [
            ("Hi", "Salut", true),
            ("Hi [[name]]", "Salut", false),
            ("Hi", "Salut [[name]]", false),
            ("Hi [[name]]", "Salut [[name]]", true),
            ("[[name]] and [[name]]", "[[name]] et [[name]]", true),
            ("[[name]] and [[name]]", "[[name]] et lui", false),
            ("[[name]]", "[[nom]]", false),
            ("[a] square", "[b] carré", true),
            (long, long + "[[name]]", false),
            (cut, long + "[[name]] arrive", true),
            (cut, long + "[[nom]] arrive", false),
            ("Café [[name]]", "Caf\u{E9} [[name]]", true),
        ]
        for (source, translation, kept) in cases {
            #expect(TranslationValidation.keepsPlaceholders(source, translation) == kept, "\(source) / \(translation)")
        }
    }

    @Test("there are nine, each with examples both ways")
    func catalogue() {
        #expect(Self.rules.map(\.code.rawValue) == (160...168).map { "CYD\($0)" })
    }

    @Test("each rule's failing examples are reported at their markers with its severity; its passing ones are not", arguments: rules)
    func examples(rule: RuleDescription) {
        #expect(!rule.triggering.isEmpty && !rule.nonTriggering.isEmpty)
        for example in rule.triggering {
            let markers = example.bytesAndMarkers.markers
            let found = Self.check(example).filter { $0.code == rule.code }
            #expect(!markers.isEmpty, "\(rule.code): mark where the finding points")
            for marker in markers {
                #expect(found.contains { $0.range.lowerBound == marker }, "\(rule.code) not at byte \(marker); found at \(found.map(\.range.lowerBound))")
            }
            #expect(found.allSatisfy { $0.severity == rule.severity })
            #expect(found.allSatisfy { !($0.message.first?.isUppercase ?? true) && !$0.message.hasSuffix(".") }, "worded as a rule: \(found.map(\.message))")
        }
        for example in rule.nonTriggering {
            let found = Self.check(example).filter { $0.code == rule.code }
            #expect(found.isEmpty, "\(rule.code) reported for:\n\(example.source)\n\(found.map(\.message))")
        }
    }

    @Test("untranslated strings are reported only when asked for (--lang, or --select naming the rule)")
    func untranslatedIsOffByDefault() {
        let po = Array((RuleExample.poHeader + "\n#. id: end.title\nmsgctxt \"Outside\"\nmsgid \"Outside\"\nmsgstr \"\"\n").utf8)
        let units = LoadedFile.load(Array(RuleExample.translatedStory.utf8)).story.flatMap { TranslationUnits.extract($0) }
        let quiet = TranslationValidation.check(bytes: po, path: "translations/fr.po", context: .init(language: "fr", units: units))
        #expect(quiet.diagnostics.isEmpty, "\(quiet.diagnostics.map(\.message))")
        let asked = TranslationValidation.check(bytes: po, path: "translations/fr.po", context: .init(language: "fr", units: units, reportUntranslated: true))
        // Every string of the story: the one with an empty msgstr and the eight with no entry.
        #expect(asked.diagnostics.count == units?.count)
        let selected = TranslationValidation.check(
            bytes: po, path: "translations/fr.po", context: .init(language: "fr", units: units), options: CheckOptions(select: ["CYD164"]))
        #expect(selected.diagnostics.count == units?.count)
        let ignored = TranslationValidation.check(
            bytes: po, path: "translations/fr.po", context: .init(language: "fr", units: units, reportUntranslated: true), options: CheckOptions(ignore: ["CYD164"]))
        #expect(ignored.diagnostics.isEmpty)
    }

    @Test("an unreadable PO file is one finding at the line and column that broke it")
    func unreadablePlace() {
        let text = RuleExample.poHeader + "\nmsgid \"a\"\nmsgstr \"b\n"
        let report = TranslationValidation.check(bytes: Array(text.utf8), path: "translations/fr.po", context: .init(language: "fr", units: nil))
        let resolved = ResolvedReport(report).diagnostics
        #expect(resolved.map(\.diagnostic.code) == [.translationUnreadable])
        #expect(resolved.first?.start == SourcePosition(line: 7, column: 10), "\(resolved.map(\.start))")
        #expect(resolved.first?.diagnostic.message.contains("not closed") == true)
    }
}
