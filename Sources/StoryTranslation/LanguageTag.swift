/// BCP 47 language tags (RFC 5646's well-formed syntax), as translation files are named and as
/// readers ask for them.
public enum LanguageTag {
    /// The tag a file name or a locale stands for: `pt_BR` (gettext) and `fr_FR.UTF-8` (a
    /// locale) become `pt-BR` and `fr-FR`; nil for `C`, `POSIX` and empty values.
    public static func normalise(_ text: String) -> String {
        var tag = Substring(text)
        if let dot = tag.firstIndex(of: ".") { tag = tag[..<dot] }  // fr_FR.UTF-8
        return tag.replacingUnderscores
    }

    /// Whether `tag` is a well-formed BCP 47 tag: a language of 2-3 letters (ISO 639; BCP 47's
    /// longer language subtags are reserved or unregistered, and a word such as `french` is the
    /// likelier mistake), up to three extended languages, a script, a region, variants,
    /// extensions, private use.
    public static func isWellFormed(_ tag: String) -> Bool {
        let parts = tag.split(separator: "-", omittingEmptySubsequences: false).map { $0.lowercased() }
        guard let first = parts.first, !parts.contains(where: \.isEmpty) else { return false }
        func letters(_ part: String, _ range: ClosedRange<Int>) -> Bool { range.contains(part.count) && part.allSatisfy { $0.isASCII && $0.isLetter } }
        func alphanumerics(_ part: String, _ range: ClosedRange<Int>) -> Bool { range.contains(part.count) && part.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) } }
        if first == "x" { return parts.count > 1 && parts.dropFirst().allSatisfy { alphanumerics($0, 1...8) } }
        guard letters(first, 2...3) else { return false }
        var index = 1
        var extlangs = 0
        while index < parts.count, first.count <= 3, extlangs < 3, letters(parts[index], 3...3) {
            index += 1
            extlangs += 1
        }
        if index < parts.count, letters(parts[index], 4...4) { index += 1 }
        if index < parts.count, letters(parts[index], 2...2) || (parts[index].count == 3 && parts[index].allSatisfy(\.isNumber)) { index += 1 }
        while index < parts.count {
            let part = parts[index]
            if alphanumerics(part, 5...8) || (part.count == 4 && part.first!.isNumber && alphanumerics(part, 4...4)) {
                index += 1
                continue
            }
            break
        }
        /// Past a singleton (an extension's letter, or `x`): one or more subtags of `lengths`.
        func singletonRun(_ lengths: ClosedRange<Int>) -> Bool {
            index += 1
            let start = index
            while index < parts.count, alphanumerics(parts[index], lengths) { index += 1 }
            return index > start
        }
        while index < parts.count, parts[index].count == 1, parts[index] != "x" {
            guard singletonRun(2...8) else { return false }
        }
        if index < parts.count, parts[index] == "x", !singletonRun(1...8) { return false }
        return index == parts.count
    }

    /// The reader's languages from the environment, as gettext looks: `LC_ALL`, then
    /// `LC_MESSAGES`, then `LANG`; `C` and `POSIX` mean none.
    public static func fromEnvironment(_ environment: [String: String]) -> String? {
        for name in ["LC_ALL", "LC_MESSAGES", "LANG"] {
            guard let value = environment[name], !value.isEmpty else { continue }
            let tag = normalise(value)
            if tag == "C" || tag == "POSIX" { return nil }
            return isWellFormed(tag) ? tag : nil
        }
        return nil
    }

    /// Whether `tag` is English (`en`, `en-GB`): the language a story as written is taken to be
    /// in, and cyd's own words' first.
    public static func isEnglish(_ tag: String) -> Bool {
        let lowered = tag.lowercased()
        return lowered == "en" || lowered.hasPrefix("en-")
    }

    /// Which of `available` serves a reader asking for `requested`: the same tag (any case),
    /// else the same language with less detail (`fr-CA` reads `fr`), else the same language
    /// with other detail (`fr` reads `fr-FR`); nil when none.
    public static func best(for requested: String, among available: [String]) -> String? {
        let wanted = requested.lowercased()
        if let exact = available.first(where: { $0.lowercased() == wanted }) { return exact }
        var prefix = wanted
        while let dash = prefix.lastIndex(of: "-") {
            prefix = String(prefix[..<dash])
            if let match = available.first(where: { $0.lowercased() == prefix }) { return match }
        }
        let language = wanted.split(separator: "-").first.map(String.init) ?? wanted
        return available.sorted().first { $0.lowercased().split(separator: "-").first.map(String.init) == language }
    }
}

extension Substring {
    fileprivate var replacingUnderscores: String { String(map { $0 == "_" ? "-" : $0 }) }
}

/// translations/LINGUAS, gettext's list of a project's languages: the languages readers of a
/// git or web copy of the story get.
public enum Linguas {
    /// Where a story keeps its translations, and the list's name in it.
    public static let folder = "translations"
    public static let fileName = "LINGUAS"

    /// Whether a word of the file can name a file of translations/ (`fr`, `pt_BR`, `sr-Latn`):
    /// letters, digits, `-` and `_` only, so no word can be made into a path elsewhere.
    public static func isFileStem(_ word: String) -> Bool {
        !word.isEmpty && word.utf8.count <= 35 && word.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }
    }

    /// The languages a list of words names, each once, with the file stem translations/ names
    /// it by (`pt_BR` for pt-BR); words that could not be a file's name or are no BCP 47 tag
    /// are passed over, and only the first `limit` words are looked at.
    public static func languageFiles(_ words: [String], limit: Int = 200) -> [(language: String, stem: String)] {
        var seen = Set<String>()
        var found: [(language: String, stem: String)] = []
        for word in words.prefix(limit) where isFileStem(word) {
            let language = LanguageTag.normalise(word)
            guard LanguageTag.isWellFormed(language), seen.insert(language.lowercased()).inserted else { continue }
            found.append((language, word))
        }
        return found
    }

    /// The languages the file lists, as tags in lower case: what "is it listed" is asked of.
    public static func listed(_ bytes: [UInt8]) -> Set<String> {
        Set(languages(bytes).map { LanguageTag.normalise($0).lowercased() })
    }

    /// The words of the file, one or more a line; `#` starts a comment.
    public static func languages(_ bytes: [UInt8]) -> [String] {
        String(decoding: bytes, as: UTF8.self).split(separator: "\n").flatMap { line in
            (line.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? "").split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" })
        }.map(String.init)
    }
}
