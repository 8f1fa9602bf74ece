import StoryTranslation

/// cyd's words for a reader, in the languages they prefer: each phrase in the first of them that
/// has it translated (`fr-CA` is served by `fr`), else in English. The translations are the PO
/// files of `translations/` beside these sources, kept in the program (`Catalogues`), read and
/// checked by the same machinery as a story's: a translation that is fuzzy, made from an older
/// English text, or that drops a placeholder is not used, and English shows in its place.
public struct Phrasebook: Sendable {
    /// The catalogues chosen, most preferred first.
    let lookups: [(language: String, words: [String: String])]

    init(lookups: [(language: String, words: [String: String])]) { self.lookups = lookups }

    /// English alone.
    public static let english = Phrasebook(preferring: [])

    /// `languages`: BCP 47 tags, most preferred first. English (`en`, `en-GB`) ends the search
    /// there: a reader who prefers English to French reads English.
    public init(preferring languages: [String]) {
        var lookups: [(String, [String: String])] = []
        for tag in languages {
            if LanguageTag.isEnglish(tag) { break }
            guard let match = LanguageTag.best(for: tag, among: Self.languages), !lookups.contains(where: { $0.0 == match }),
                let words = Catalogues.words(match)
            else { continue }
            lookups.append((match, words))
        }
        self.lookups = lookups
    }

    /// These words with `language` put first (a page of a translation into it): English when it is
    /// English, these when it is nil or cyd's words are not translated into it.
    public func first(_ language: String?) -> Phrasebook {
        guard let language else { return self }
        if LanguageTag.isEnglish(language) { return .english }
        let head = Phrasebook(preferring: [language]).lookups
        return Phrasebook(lookups: head + lookups.filter { kept in !head.contains { $0.language == kept.language } })
    }

    /// The languages cyd's words are translated into (beyond English).
    public static var languages: [String] { Catalogues.languages }

    /// The language most of the words are in: the first chosen, else `en`. A page says it in `lang`.
    public var language: String { lookups.first?.language ?? "en" }

    /// The phrase in the first language that has it, else in English; its placeholders as they are.
    public subscript(_ phrase: Phrase) -> String {
        for lookup in lookups { if let text = lookup.words[phrase.rawValue] { return text } }
        return phrase.english
    }

    /// The phrase with each `[[key]]` replaced by its value (values are not looked into again).
    public func callAsFunction(_ phrase: Phrase, _ values: KeyValuePairs<String, String> = [:]) -> String {
        Self.fill(self[phrase], values)
    }

    /// "1 chapter", "12 chapters": `one` for a count of one, else `other`, with `[[count]]` filled.
    public func counted(_ count: Int, one: Phrase, other: Phrase) -> String {
        self(count == 1 ? one : other, ["count": String(count)])
    }

    /// `text` with each `[[key]]` of `values` replaced, in one pass.
    public static func fill(_ text: String, _ values: KeyValuePairs<String, String>) -> String {
        guard !values.isEmpty, text.contains("[[") else { return text }
        var out = ""
        var rest = Substring(text)
        while let open = rest.firstRange(of: "[[") {
            out += rest[..<open.lowerBound]
            let after = rest[open.upperBound...]
            guard let close = after.firstRange(of: "]]"), let value = values.first(where: { $0.key == after[..<close.lowerBound] })?.value else {
                out += "[["
                rest = after
                continue
            }
            out += value
            rest = after[close.upperBound...]
        }
        return out + rest
    }

    /// The languages a process's environment prefers, as gettext reads it: `LANGUAGE` (a list,
    /// `fr:de`) unless the locale is C, then `LC_ALL`, `LC_MESSAGES`, `LANG`.
    public static func preferences(environment: [String: String]) -> [String] {
        guard let locale = LanguageTag.fromEnvironment(environment) else { return [] }
        let listed = (environment["LANGUAGE"] ?? "").split(separator: ":").map { LanguageTag.normalise(String($0)) }.filter(LanguageTag.isWellFormed)
        return listed + [locale]
    }

    /// A terminal reader's words: the language asked for (unless `original`, the story as
    /// written, which says nothing of the reader's own), then the environment's.
    public init(asked: String?, environment: [String: String]) {
        self.init(preferring: (asked.flatMap { $0 == "original" ? nil : LanguageTag.normalise($0) }.map { [$0] } ?? []) + Self.preferences(environment: environment))
    }

    /// The phrases as a translation project's strings: what `l10n extract` writes for them.
    public static var units: [TranslationUnit] {
        Phrase.allCases.map { TranslationUnit(id: $0.rawValue, source: $0.english, context: $0.context) }
    }

    /// What the translations of cyd's words are kept as: a project whose folder holds
    /// `translations/` (LINGUAS, one PO file a language, the template).
    public static func project(folder: String) -> TranslationProject {
        TranslationProject(folder: folder, storyID: "cyd", name: "cyd's words for readers", units: units, templateStem: "interface")
    }
}

/// The catalogues kept in the program, read once, when first asked for.
enum Catalogues {
    static var languages: [String] { embedded.keys.sorted() }

    static func words(_ language: String) -> [String: String]? { parsed[language] }

    /// Every usable translation of every embedded catalogue, by phrase key.
    static let parsed: [String: [String: String]] = {
        var all: [String: [String: String]] = [:]
        for (language, text) in embedded {
            guard let file = try? TranslationFile.read(Array(text.utf8), format: .po) else { continue }
            let lookup = TranslationLookup(file)
            var words: [String: String] = [:]
            for unit in Phrasebook.units { if let text = lookup.translation(for: unit) { words[unit.id] = text } }
            all[language] = words
        }
        return all
    }()
}
