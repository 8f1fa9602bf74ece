#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import StoryCheck
import StoryFormat

/// The checks of a translation file against the story it translates (rules CYD160-CYD168):
/// for `cyd validate`, the language server and `cyd l10n status`. Findings point into the
/// translation file.
public enum TranslationValidation {
    /// What is known of the file besides its bytes.
    public struct Context: Sendable {
        /// The language its name says (`fr` for translations/fr.po); nil for the template.
        public var language: String?
        /// The story's strings; nil when the story cannot be read (then only the file itself is checked).
        public var units: [TranslationUnit]?
        /// Report strings without a translation (CYD164): off unless asked for.
        public var reportUntranslated: Bool
        /// Whether translations/LINGUAS lists the language (readers of a git or web story get
        /// only the languages it lists).
        public var listed: Bool

        public init(language: String?, units: [TranslationUnit]?, reportUntranslated: Bool = false, listed: Bool = true) {
            self.language = language
            self.units = units
            self.reportUntranslated = reportUntranslated
            self.listed = listed
        }
    }

    /// The language a translation file's name says: `fr` for `fr.po`, `pt-BR` for `pt_BR.po`;
    /// nil for the template (`story.pot`, `story.xlf`).
    public static func language(ofFile path: String) -> String? {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        guard let dot = name.lastIndex(of: "."), !name.lowercased().hasSuffix(".pot") else { return nil }
        let stem = String(name[..<dot])
        return stem == "story" ? nil : LanguageTag.normalise(stem)
    }

    public static func check(bytes: [UInt8], path: String, context: Context, options: CheckOptions = .init()) -> FileReport {
        let format = TranslationFile.Format(fileName: path) ?? .po
        return check(bytes: bytes, parsed: Result { () throws(TranslationReadError) in try TranslationFile.read(bytes, format: format) }, path: path, context: context, options: options)
    }

    /// The same, for a file already read as `parsed` (on another thread, while its story was read).
    public static func check(
        bytes: [UInt8], parsed: Result<TranslationFile, TranslationReadError>, path: String, context: Context, options: CheckOptions = .init()
    ) -> FileReport {
        check(source: SourceBytes(keeping: bytes), parsed: parsed, path: path, context: context, options: options)
    }

    /// The same, for a file's bytes as `SourceBytes` (a large file's mapped), which the report keeps.
    public static func check(
        source bytes: SourceBytes, parsed: Result<TranslationFile, TranslationReadError>, path: String, context: Context, options: CheckOptions = .init()
    ) -> FileReport {
        var diagnostics: [Diagnostic] = []
        func add(_ code: DiagnosticCode, _ message: String, help: String?, at offset: Int) {
            // Untranslated strings are reported only when asked for: --lang, or --select naming the rule.
            guard options.keeps(code), code != .translationUntranslated || context.reportUntranslated || options.select != nil else { return }
            let severity = RuleCatalogue.description(of: code)?.severity ?? .warning
            diagnostics.append(Diagnostic(code: code, severity: severity, message: message, help: help, range: lineRange(bytes, at: offset)))
        }
        let format = TranslationFile.Format(fileName: path) ?? .po
        let file: TranslationFile
        do {
            file = try parsed.get()
        } catch {
            add(.translationUnreadable, "the translation cannot be read: \(error.problem)",
                help: {
                    switch format {
                    case .po: "fix the line (GNU gettext's msgfmt --check names the same place)"
                    case .xliff: "fix the XML at this place"
                    }
                }(), at: error.offset)
            return FileReport(path: path, bytes: bytes, kind: nil, diagnostics: diagnostics)
        }
        if let language = context.language {
            if !LanguageTag.isWellFormed(language) {
                add(.translationLanguageCode, "'\(VisibleText.escape(language))' is not a BCP 47 language tag",
                    help: "name the file by its language: fr.po, pt-BR.po, sr-Latn.po", at: 0)
            } else if let declared = file.declaredLanguage, LanguageTag.isWellFormed(LanguageTag.normalise(declared)),
                LanguageTag.normalise(declared).lowercased() != language.lowercased()
            {
                add(.translationLanguageCode, "the file is named for '\(language)' but says it is in '\(VisibleText.escape(declared))'",
                    help: "rename the file or correct its language", at: file.languageOffset ?? 0)
            }
            if !context.listed {
                add(.translationNotListed, "translations/LINGUAS does not list '\(language)': readers who get the story from git or the web will not get this translation",
                    help: "add a line '\(language)' to translations/LINGUAS", at: 0)
            }
        }
        guard context.language != nil, let units = context.units else {
            return FileReport(path: path, bytes: bytes, kind: nil, diagnostics: diagnostics.sortedByPosition())
        }
        // Strings by id, made only if an entry is not where the file's order puts it: a file
        // cyd wrote lists the strings in the story's order, each found at the next place.
        var byID: UnitIndex?
        // For a large story it is made on another core from the start, in case it is needed (an
        // entry listing strings of two chapters is enough); when done with, it is waited for and
        // its table of every id freed on another thread: the report need not wait for either.
        var indexing = units.count >= 20_000 ? BackgroundWork { Self.indexByID(units) } : nil
        defer { LargeValues.release(&indexing) }
        var expected = 0
        // Strings by context and text, for entries a tool left without ids: made only if one is met.
        var byText: [TranslationLookup.TextKey: Int]?
        var covered = [Int](repeating: -1, count: units.count)  // the entry that translates each string
        // Each entry read where it is, through a buffer: bound to a name, it was copied (its
        // strings retained and released), a fifth of this loop's time.
        file.entries.withUnsafeBufferPointer { entries in
            for entryIndex in entries.indices {
                // Asked only of an entry with rare fields: an element's computed property copied
                // it whole (its strings retained and released), for every entry.
                if entries[entryIndex].hasRareFields, let first = entries[entryIndex].inlineMarkup.first {
                    let names = entries[entryIndex].inlineMarkup.map { "<\(VisibleText.escape($0))>" }.joined(separator: ", ")
                    add(.translationInlineMarkup, "'\(VisibleText.escape(entries[entryIndex].firstID ?? excerpt(entries[entryIndex].source)))' holds \(names); a story's text is plain, so it is read as its text alone",
                        help: ["ph", "pc", "sc", "ec", "mrk", "sm", "em"].contains(first)
                            ? "write the translation as plain text" : "write the translation as plain text (XLIFF 2.1 has no <\(VisibleText.escape(first))> at all)",
                        at: entries[entryIndex].translationOffset)
                }
                var targets: [Int] = []
                if entries[entryIndex].firstID == nil {
                    if byText == nil {
                        var made: [TranslationLookup.TextKey: Int] = [:]
                        for (index, unit) in units.enumerated() { made[TranslationLookup.TextKey(context: unit.context, source: unit.source), default: index] = index }
                        byText = made
                    }
                    if let index = byText?[TranslationLookup.TextKey(context: entries[entryIndex].context, source: entries[entryIndex].source)] {
                        targets = [index]
                    } else {
                        add(.translationUnknownID, "no string of the story has this context and text: \"\(excerpt(entries[entryIndex].source))\"",
                            help: "bring the translation up to date with the story; an update from the template keeps the rest", at: entries[entryIndex].offset)
                        continue
                    }
                }
                for id in TranslationEntry.EachID(first: entries[entryIndex].firstID, others: entries[entryIndex].otherIDs) {
                    let found: Int?
                    if expected < units.count, units.withUnsafeBufferPointer({ $0.hasID(at: expected, id) }) {
                        found = expected
                    } else if let near = Self.near(id, in: units, around: expected) {
                        // A string left out or moved a little: found without the table of every id.
                        found = near
                    } else {
                        if byID == nil { byID = indexing?.wait() ?? Self.indexByID(units) }
                        found = byID?[id]
                    }
                    guard let index = found else {
                        add(.translationUnknownID, "the story has no string '\(VisibleText.escape(id))'",
                            help: "its chapter was renamed or removed; an update from the story follows a rename it can see and keeps the rest as obsolete", at: entries[entryIndex].offset)
                        continue
                    }
                    targets.append(index)
                    expected = index + 1
                }
                for index in targets {
                    if covered[index] >= 0 {
                        add(.translationDuplicate, "'\(VisibleText.escape(units[index].id))' is translated twice",
                            help: "keep one of the two entries", at: entries[entryIndex].offset)
                        continue
                    }
                    covered[index] = entryIndex
                }
                guard let first = targets.first, !entries[entryIndex].translation.isEmpty else { continue }
                // The string read where it is (as the entries are): a copy retained and released
                // its four strings for each of hundreds of thousands of entries.
                units.withUnsafeBufferPointer { units in
                    if entries[entryIndex].source != units[first].source {
                        add(.translationStale, "the text of '\(VisibleText.escape(units.id(at: first)))' has changed since it was translated; readers see the original",
                            help: "update the translation from the story (the entry becomes fuzzy, the old text kept as #| msgid), then review it", at: entries[entryIndex].offset)
                    } else if entries[entryIndex].isFuzzy {
                        add(.translationStale, "the translation of '\(VisibleText.escape(units.id(at: first)))' is marked for review (fuzzy); readers see the original",
                            help: "review it and remove the fuzzy flag", at: entries[entryIndex].offset)
                    }
                    if !keepsPlaceholders(units[first].source, entries[entryIndex].translation) {
                        let (wanted, found) = (placeholders(in: units[first].source), placeholders(in: entries[entryIndex].translation))
                        add(.translationPlaceholder, placeholderMessage(wanted: wanted, found: found, id: units.id(at: first)),
                            help: "write [[name]] exactly as the original has it, as many times", at: entries[entryIndex].translationOffset)
                    }
                }
            }
        }
        if context.reportUntranslated || options.select != nil {
            // Strings and entries read where they are: a copy of each was four or more strings
            // retained and released, for every string of the story.
            units.withUnsafeBufferPointer { units in
                file.entries.withUnsafeBufferPointer { entries in
                    for index in units.indices {
                        let entry = covered[index] >= 0 ? covered[index] : nil
                        guard entry.map({ entries[$0].translation.isEmpty }) ?? true else { continue }
                        add(.translationUntranslated, "'\(VisibleText.escape(units.id(at: index)))' is not translated: \"\(excerpt(units[index].source))\"",
                            help: entry == nil ? "update the translation from the story to add it, then translate it" : "write its translation",
                            at: entry.map { entries[$0].translationOffset } ?? 0)
                    }
                }
            }
        }
        return FileReport(path: path, bytes: bytes, kind: nil, diagnostics: diagnostics.sortedByPosition())
    }

    /// Where the string `id` is within 64 places of `expected` (the nearest, after it first at
    /// each distance), as the file's order puts it; nil when it is further or nowhere.
    static func near(_ id: String, in units: [TranslationUnit], around expected: Int) -> Int? {
        // Read through a buffer: an element of the array was copied to be asked (its four
        // strings retained and released), 128 times an id found nowhere near.
        units.withUnsafeBufferPointer { units in
            for distance in 1...64 {
                if expected + distance < units.count, units.hasID(at: expected + distance, id) { return expected + distance }
                if expected - distance >= 0, expected - distance < units.count, units.hasID(at: expected - distance, id) { return expected - distance }
            }
            return nil
        }
    }

    /// Where each string is, by id (the last of an id, were one used twice).
    static func indexByID(_ units: [TranslationUnit]) -> UnitIndex { UnitIndex(units) }

    /// Strings' places by id, the last of an id winning: an open-addressing table of the ids'
    /// hashes as the validator's table of chapter ids hashes them (FNV-1a over the bytes, over
    /// the composed form when not ASCII), ids equal as Swift compares them. Each string's id is
    /// hashed from its parts (`UnitKey.idHash`), not made: 600,000 ids made for it were as many
    /// strings allocated on the core the report was not using.
    struct UnitIndex: Sendable {
        private var slots: [Int32]
        /// Each slot's id's hash (its low 32 bits): most probes that meet another id end there.
        private var hashes: [UInt32]
        private let mask: Int
        private let units: [TranslationUnit]

        init(_ units: [TranslationUnit]) {
            self.units = units
            var capacity = 16
            while capacity < units.count * 2 { capacity <<= 1 }
            let mask = capacity - 1
            self.mask = mask
            var slots = [Int32](repeating: -1, count: capacity)
            var hashes = [UInt32](repeating: 0, count: capacity)
            units.withUnsafeBufferPointer { units in
                // From the last string: the first placed of an id, the last of it, stays.
                for position in units.indices.reversed() {
                    let hash = units[position].key.idHash(chapter: units[position].storedChapter ?? "")
                    var slot = hash & mask
                    while slots[slot] >= 0 {
                        if hashes[slot] == UInt32(truncatingIfNeeded: hash), units.hasID(at: Int(slots[slot]), units.id(at: position)) { break }
                        slot = (slot + 1) & mask
                    }
                    if slots[slot] < 0 {
                        slots[slot] = Int32(position)
                        hashes[slot] = UInt32(truncatingIfNeeded: hash)
                    }
                }
            }
            self.slots = slots
            self.hashes = hashes
        }

        subscript(id: String) -> Int? {
            let hash = ChapterIndex.hash(id)
            var slot = hash & mask
            return units.withUnsafeBufferPointer { units in
                while slots[slot] >= 0 {
                    if hashes[slot] == UInt32(truncatingIfNeeded: hash), units.hasID(at: Int(slots[slot]), id) { return Int(slots[slot]) }
                    slot = (slot + 1) & mask
                }
                return nil
            }
        }
    }

    /// `[[...]]` placeholders in order of appearance, sorted (the order may change in translation).
    /// Read in the text's UTF-8 bytes: `[`, `]` and the line feed are ASCII, and no byte of a
    /// longer character's sequence is ever ASCII, so bytes find what scalars would.
    static func placeholders(in text: String) -> [String] {
        var found: [String] = []
        var text = text
        text.withUTF8 { bytes in
            let count = bytes.count
            var index = 0
            while index + 1 < count {
                guard bytes[index] == 0x5B, bytes[index + 1] == 0x5B else {
                    index += 1
                    continue
                }
                var end = index + 2
                while end + 1 < count, !(bytes[end] == 0x5D && bytes[end + 1] == 0x5D), bytes[end] != 0x0A { end += 1 }
                guard end + 1 < count, bytes[end] == 0x5D else { break }
                found.append(String(decoding: UnsafeBufferPointer(rebasing: bytes[index...(end + 1)]), as: UTF8.self))
                index = end + 2
            }
        }
        return found.sorted()
    }

    static func placeholderMessage(wanted: [String], found: [String], id: String) -> String {
        let wantedNames = wanted.filter { $0 == TranslationUnit.namePlaceholder }.count
        let foundNames = found.filter { $0 == TranslationUnit.namePlaceholder }.count
        let other = found.filter { !wanted.contains($0) }
        if let first = other.first { return "the translation of '\(VisibleText.escape(id))' has \(VisibleText.escape(first)), which the original has not; readers see the original" }
        return "the translation of '\(VisibleText.escape(id))' has \(foundNames) [[name]] where the original has \(wantedNames); readers see the original"
    }

    /// Whether a translation keeps the original's placeholders (`[[name]]`), as many, and adds
    /// none: one that does not is not shown (a reader would see "[[nom]]", or lose their name).
    public static func keepsPlaceholders(_ source: String, _ translation: String) -> Bool {
        if !hasBracket(source), !hasBracket(translation) { return true }
        return placeholders(in: source) == placeholders(in: translation)
    }

    /// Whether `text` holds a `[`, looked for in its bytes.
    static func hasBracket(_ text: String) -> Bool {
        // The bytes lent where they are: a `var` copy to call `withUTF8` on retained and released
        // the string, twice for each string a status counts or a translation applies.
        text.withExistingUTF8 { bytes in bytes.baseAddress.map { memchr($0, 0x5B, bytes.count) != nil } ?? false }
    }

    static func excerpt(_ text: String) -> String {
        let line = text.prefix(60)
        return VisibleText.escape(String(line)) + (text.count > 60 ? "…" : "")
    }

    /// The rest of the line from `offset`: what an editor underlines.
    static func lineRange(_ bytes: SourceBytes, at offset: Int) -> Range<Int> {
        let start = min(max(offset, 0), bytes.count)
        var end = start
        while end < bytes.count, bytes[end] != 0x0A, end - start < 200 { end += 1 }
        return start..<end
    }
}
