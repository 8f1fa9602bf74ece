import StoryFormat

/// How far a translation has come: counted by string (a PO entry standing for three strings
/// counts three).
public struct TranslationStatus: Sendable, Hashable, Codable {
    public var language: String
    public var total: Int
    /// Translated and current: readers see these.
    public var translated: Int
    /// Translated, but marked for review or made from a text that has changed since: readers
    /// see the original.
    public var fuzzy: Int
    /// Not translated.
    public var missing: Int

    public init(language: String, total: Int, translated: Int, fuzzy: Int, missing: Int) {
        self.language = language
        self.total = total
        self.translated = translated
        self.fuzzy = fuzzy
        self.missing = missing
    }

    /// Whole percent translated, rounded down (100 only when nothing is left).
    public var percent: Int { total == 0 ? 100 : translated * 100 / total }
}

/// Finds a string's translation in a file: by cyd's id, else (a tool dropped the id comments)
/// by context and text.
public struct TranslationLookup: Sendable {
    public let file: TranslationFile
    var byID: [String: Int] = [:]
    var byText: [TextKey: Int] = [:]

    struct TextKey: Hashable {
        var context: String?
        var source: String
    }

    public init(_ file: TranslationFile) {
        self.file = file
        byID.reserveCapacity(file.entries.count)
        // By index, not by entry: an entry is six strings and arrays to retain and release.
        for index in file.entries.indices {
            if file.entries[index].firstID == nil {
                byText[TextKey(context: file.entries[index].context, source: file.entries[index].source)] = index
            }
            // The first entry with an id keeps it.
            for id in file.entries[index].eachID { byID.keepFirst(id, index) }
        }
    }

    /// The entry for a string, whether or not it is usable.
    public func entry(for unit: TranslationUnit) -> TranslationEntry? { index(for: unit).map { file.entries[$0] } }

    /// Where the entry for a string is in the file's entries.
    func index(for unit: TranslationUnit) -> Int? {
        byID[unit.id] ?? byText[TextKey(context: unit.context, source: unit.source)]
    }

    /// What readers see for a string: the translation when it is usable and made from the
    /// current text, else nil (the original).
    public func translation(for unit: TranslationUnit) -> String? {
        guard let entry = entry(for: unit), entry.isUsable, entry.source == unit.source,
            TranslationValidation.keepsPlaceholders(unit.source, entry.translation)
        else { return nil }
        return entry.translation
    }
}

/// Finds strings' entries in a file written in the strings' order (as cyd writes it): each
/// string is first looked for in the entry after the last one found, and only a string found
/// elsewhere makes the file's index (`TranslationLookup`), once: a copy started elsewhere
/// (`starting(at:near:)`, for the second half of the strings on another thread) shares the
/// tables, so a file out of order is not indexed twice over.
struct InOrder: Sendable {
    let file: TranslationFile
    var next = 0
    /// This reader's own references to the shared tables, once it has needed them.
    var grouped: [String: Int]?
    var lookup: TranslationLookup?
    let tables = Tables()

    init(_ file: TranslationFile) { self.file = file }

    /// The tables look-ups away from the next entry need, each made once for every copy of
    /// the reader, by the first to need it (another needing it meanwhile waits for it).
    final class Tables: @unchecked Sendable {
        private let lock = Lock()
        private var grouped: [String: Int]?
        private var lookup: TranslationLookup?

        /// Where the ids after the first of an entry that lists several are: cyd writes strings
        /// of the same context and text as one entry, where the first of them comes, so the
        /// others are found here without indexing every id of the file.
        func grouped(_ file: TranslationFile) -> [String: Int] {
            lock.withLock {
                if let grouped { return grouped }
                var made: [String: Int] = [:]
                for index in file.entries.indices where !file.entries[index].otherIDs.isEmpty {
                    for id in file.entries[index].otherIDs { made.keepFirst(id, index) }
                }
                grouped = made
                return made
            }
        }

        /// Whether either table was made (a file read in its order needs neither).
        var made: Bool { lock.withLock { grouped != nil || lookup != nil } }

        func lookup(_ file: TranslationFile) -> TranslationLookup {
            lock.withLock {
                if let lookup { return lookup }
                let made = TranslationLookup(file)
                lookup = made
                return made
            }
        }
    }

    /// This reader, starting where `unit`'s entry is when it is near `estimate` (within `window`
    /// entries either side): a reader of the strings from the middle on starts there, not at
    /// the top. Elsewhere, it starts at the top, and the look-ups find their way as they do there.
    func starting(at unit: borrowing TranslationUnit, near estimate: Int, window: Int = 4096) -> InOrder {
        var reader = self
        reader.next = 0
        let entries = file.entries
        let estimate = min(max(estimate, 0), entries.count)
        func holds(_ index: Int) -> Bool { index >= 0 && index < entries.count && unit.hasID(entries[index].firstID) }
        for distance in 0...window {
            if holds(estimate - distance) {
                reader.next = estimate - distance
                break
            }
            if holds(estimate + distance) {
                reader.next = estimate + distance
                break
            }
        }
        return reader
    }

    /// Where the entry for a string is in the file's entries (an index: an entry is a dozen
    /// strings and arrays, retained and released again if it were handed back).
    mutating func index(for unit: borrowing TranslationUnit) -> Int? {
        file.entries.withUnsafeBufferPointer { index(for: unit, in: $0) }
    }

    /// `index(for:)` of the string `key` (of `chapter`), `source` and `context` name, the file's
    /// entries read through `entries` (a buffer of `file.entries`): no unit or id is made, nor
    /// the array retained, unless the string is not at the next entry.
    @inline(__always)
    mutating func index(
        forKey key: UnitKey, chapter: String?, source: String, context: String, in entries: UnsafeBufferPointer<TranslationEntry>
    ) -> Int? {
        if next < entries.count, let id = entries[next].firstID, key.matches(id, chapter: chapter ?? "") {
            next += 1
            return next - 1
        }
        return indexElsewhere(for: TranslationUnit(key: key, source: source, context: context, chapter: chapter))
    }

    /// `index(for:)`, the file's entries read through `entries` (a buffer of `file.entries`).
    @inline(__always)
    mutating func index(for unit: borrowing TranslationUnit, in entries: UnsafeBufferPointer<TranslationEntry>) -> Int? {
        if next < entries.count, unit.hasID(entries[next].firstID) {
            next += 1
            return next - 1
        }
        return indexElsewhere(for: unit)
    }

    /// `index(for:)` of the string at `position` of `units`, read where it is: an element of the
    /// buffer handed over was copied (its strings retained and released) for every string.
    @inline(__always)
    mutating func index(at position: Int, of units: UnsafeBufferPointer<TranslationUnit>, in entries: UnsafeBufferPointer<TranslationEntry>) -> Int? {
        if next < entries.count, let id = entries[next].firstID, units.hasID(at: position, id) {
            next += 1
            return next - 1
        }
        return indexElsewhere(for: units[position])
    }

    /// `index(for:)` for a string not at the next entry. Apart, so that the usual case is made
    /// where it is asked for (called, it copied the string's unit each time).
    @inline(never)
    mutating func indexElsewhere(for unit: borrowing TranslationUnit) -> Int? {
        if grouped == nil { grouped = tables.grouped(file) }
        if let index = grouped![unit.id] { return index }
        if lookup == nil { lookup = tables.lookup(file) }
        guard let index = lookup!.index(for: unit) else { return nil }
        // Found elsewhere: the strings after it are looked for after it.
        if unit.hasID(file.entries[index].firstID) { next = index + 1 }
        return index
    }
}

/// A story in another language: every usable translation in place, the original elsewhere.
public struct TranslatedStory: Sendable {
    public var story: Story
    public var status: TranslationStatus
}

public enum Translations {
    public static func status(_ file: TranslationFile, language: String, units: [TranslationUnit]) -> TranslationStatus {
        var status = TranslationStatus(language: language, total: units.count, translated: 0, fuzzy: 0, missing: 0)
        // Many strings are counted in two halves, the second on another core, each looked for
        // from where its first string's entry is.
        let middle = units.count >= splittingFrom ? units.count / 2 : units.count
        let ordered = InOrder(file)
        let second = middle == units.count ? nil : BackgroundWork {
            count(file, units[middle...], from: ordered.starting(at: units[middle], near: middle * file.entries.count / units.count))
        }
        let first = count(file, units[..<middle], from: ordered)
        let rest = second?.wait() ?? (translated: 0, fuzzy: 0)
        status.translated = first.translated + rest.translated
        status.fuzzy = first.fuzzy + rest.fuzzy
        status.missing = units.count - status.translated - status.fuzzy
        return status
    }

    /// From this many strings on, a status is counted in two halves.
    static let splittingFrom = 20_000

    /// The strings of `units` translated and fuzzy, looked for in order from `ordered`.
    static func count(_ file: TranslationFile, _ units: ArraySlice<TranslationUnit>, from ordered: InOrder) -> (translated: Int, fuzzy: Int) {
        var ordered = ordered
        var status = (translated: 0, fuzzy: 0)
        // Entries are read where they are, by index, not handed back whole; the rest are missing.
        // The units, too, through a buffer: a slice's element is copied out (its strings retained
        // and released) where a buffer's is read in place.
        // The entries through a buffer as well: read through the array, each look-up retained
        // and released it, on both cores at once (`Applying.look`).
        units.withUnsafeBufferPointer { units in
            file.entries.withUnsafeBufferPointer { entries in
                for position in units.indices {
                    guard let found = ordered.index(at: position, of: units, in: entries), !entries[found].translation.isEmpty else { continue }
                    // Fuzzy: marked, made from another text, or not keeping [[name]]: readers see the original.
                    if entries[found].isFuzzy || entries[found].source != units[position].source
                        || !TranslationValidation.keepsPlaceholders(units[position].source, entries[found].translation)
                    {
                        status.fuzzy += 1
                    } else {
                        status.translated += 1
                    }
                }
            }
        }
        return status
    }

    /// The story with the file's usable translations applied: titles, paragraphs (a chapter's
    /// untranslated paragraphs stay as they are), picture texts and choices. A large story's
    /// chapters are translated in two halves, the second on another core (`halvesFrom` chapters
    /// on; tests lower it), each looked for from where its first string's entry is, as a status
    /// is counted.
    public static func apply(_ file: TranslationFile, language: String, to story: Story) -> TranslatedStory {
        apply(file, language: language, to: story, halvesFrom: applyingInHalvesFrom)
    }

    /// From this many chapters on, a translation is applied in two halves.
    static let applyingInHalvesFrom = 4_000

    static func apply(_ file: TranslationFile, language: String, to story: Story, halvesFrom: Int) -> TranslatedStory {
        let ordered = InOrder(file)
        var lookup = Applying(file: file, lookup: ordered)
        var translated = story
        let storyContext = TranslationUnit.storyContext
        translated.name = lookup.look(.whole(TranslationUnits.storyName()), nil, story.name, storyContext) ?? story.name
        translated.summary = lookup.look(.whole(TranslationUnits.storySummary()), nil, story.summary, storyContext) ?? story.summary
        // In reading order, as the file lists the strings: each is found where the last one ended.
        // A chapter whose id another holds first is translated by the same entries.
        let (order, duplicates) = TranslationUnits.readingOrderAndDuplicates(story)
        let positions = order + duplicates
        let middle = positions.count >= max(halvesFrom, 2) ? positions.count / 2 : positions.count
        // Each half writes its chapters at their places (no two halves write the same place; this
        // thread waits for the other before the buffer goes). When the positions name every
        // chapter once (every story but one whose first chapter repeats an earlier one's id),
        // the translated chapters are written into a new array's room: the story's array is not
        // copied first (100,000 chapters' strings retained on this thread, then released as each
        // is replaced); else into a copy of the story's array, as places may be written twice.
        var counts = lookup.counts
        func translate(into chapters: TranslatedChapters) {
            let second = middle == positions.count ? nil : BackgroundWork {
                // Where the middle chapter's title is, in proportion; not found there (a blank
                // title, a file in another order), its look-ups find their way from the top.
                let chapter = story.chapters[positions[middle]]
                let title = TranslationUnit(key: .title, source: chapter.name, context: chapter.name, chapter: chapter.id)
                var half = Applying(file: file, lookup: ordered.starting(at: title, near: middle * file.entries.count / positions.count))
                half.translate(story, positions[middle...], into: chapters)
                return half.counts
            }
            lookup.translate(story, positions[..<middle], into: chapters)
            counts = lookup.counts
            if let rest = second?.take() {
                counts.total += rest.total
                counts.done += rest.done
                counts.fuzzy += rest.fuzzy
            }
        }
        if Self.isPermutation(positions, of: story.chapters.count) {
            translated.chapters = Array(unsafeUninitializedCapacity: story.chapters.count) { buffer, initialized in
                translate(into: TranslatedChapters(buffer: buffer, initializing: true))
                initialized = story.chapters.count
            }
        } else {
            translated.chapters.withUnsafeMutableBufferPointer { buffer in translate(into: TranslatedChapters(buffer: buffer, initializing: false)) }
        }
        return TranslatedStory(
            story: translated,
            status: TranslationStatus(
                language: language, total: counts.total, translated: counts.done, fuzzy: counts.fuzzy, missing: counts.total - counts.done - counts.fuzzy))
    }

    /// Translating strings in order: where the file's entries are looked for, and what was found.
    struct Applying {
        let file: TranslationFile
        var lookup: InOrder
        var counts = (total: 0, done: 0, fuzzy: 0)

        /// The translation readers see for a string, counted; nil for the original.
        mutating func look(_ key: UnitKey, _ chapter: String?, _ source: String, _ context: String) -> String? {
            file.entries.withUnsafeBufferPointer { entries in look(key, chapter, source, context, in: entries) }
        }

        /// The same, the file's entries read through `entries`, a buffer of them: read through
        /// the array, each look-up retained and released it, and with the two halves on two
        /// cores at once those were atomic operations on one shared count (a third of applying a
        /// translation to 100,000 chapters, perf).
        mutating func look(_ key: UnitKey, _ chapter: String?, _ source: String, _ context: String, in entries: UnsafeBufferPointer<TranslationEntry>) -> String? {
            guard TranslationUnits.hasVisibleText(source) else { return nil }
            counts.total += 1
            guard let found = lookup.index(forKey: key, chapter: chapter, source: source, context: context, in: entries), !entries[found].translation.isEmpty else { return nil }
            guard !entries[found].isFuzzy, entries[found].source == source, TranslationValidation.keepsPlaceholders(source, entries[found].translation) else {
                counts.fuzzy += 1
                return nil
            }
            counts.done += 1
            return entries[found].translation
        }

        /// These chapters (positions in `story.chapters`) translated, each written at its place.
        mutating func translate(_ story: Story, _ positions: ArraySlice<Int>, into translated: TranslatedChapters) {
            file.entries.withUnsafeBufferPointer { entries in translate(story, positions, into: translated, entries: entries) }
        }

        private mutating func translate(_ story: Story, _ positions: ArraySlice<Int>, into translated: TranslatedChapters, entries: UnsafeBufferPointer<TranslationEntry>) {
            func look(_ key: UnitKey, _ chapter: String, _ source: String, _ context: String) -> String? { self.look(key, chapter, source, context, in: entries) }
            for index in positions {
                var chapter = story.chapters[index]
                let id = chapter.id, name = chapter.name
                chapter.name = look(.title, id, name, name) ?? name
                let paragraphs = chapter.paragraphs
                var changed = false
                var texts: [String] = []
                texts.reserveCapacity(paragraphs.count)
                for (number, paragraph) in paragraphs.enumerated() {
                    if let text = look(.paragraph(number + 1), id, paragraph, name) {
                        texts.append(text)
                        changed = true
                    } else {
                        texts.append(paragraph)
                    }
                }
                if changed { chapter.text = texts.joined(separator: "\n\n") }
                if let alt = chapter.picAlt { chapter.picAlt = look(.pictureAlt, id, alt, name) ?? alt }
                let choices = chapter.choices
                var ordinals = TranslationUnits.ChoiceOrdinals(count: choices.count)
                for (number, choice) in choices.enumerated() {
                    let ordinal = ordinals.next(choices, number)
                    if let text = look(.choice(target: choice.chapterID, ordinal: ordinal), id, choice.text, name) {
                        chapter.choices[number].text = text
                    }
                }
                translated.put(chapter, at: index)
            }
        }
    }

    /// The translated story's chapters, written by two threads at different places: into room
    /// not yet initialized (`initializing`, each place once), or over chapters already there.
    struct TranslatedChapters: @unchecked Sendable {
        let buffer: UnsafeMutableBufferPointer<Chapter>
        let initializing: Bool

        func put(_ chapter: consuming Chapter, at index: Int) {
            precondition(index >= 0 && index < buffer.count)
            if initializing { (buffer.baseAddress! + index).initialize(to: chapter) } else { buffer[index] = chapter }
        }
    }

    /// Whether `positions` names each of `count` places exactly once.
    static func isPermutation(_ positions: [Int], of count: Int) -> Bool {
        guard positions.count == count else { return false }
        var named = [Bool](repeating: false, count: count)
        for position in positions {
            guard position >= 0, position < count, !named[position] else { return false }
            named[position] = true
        }
        return true
    }
}

extension Translations {
    /// What a story folder's translations/ holds for `story`, each file applied.
    public struct Found: Sendable {
        /// Each language read, in the folder's order of file names.
        public var stories: [TranslatedStory] = []
        /// Files that could not be read (said, and left out).
        public var problems: [TranslationFolder.ReadFailure] = []
        /// Languages asked for that the folder has no file for.
        public var missing: [String] = []
        /// Files left out because translations/LINGUAS does not list their language (when every
        /// language was asked for): drafts not yet given to readers.
        public var unlisted: [TranslationFolder.LanguageFile] = []
    }

    /// The translations of the story in `storyFolder`: every language translations/LINGUAS lists
    /// (every file when there is no LINGUAS), or only those `languages` names (best match of
    /// each, listed or not; `original` alone asks for none).
    public static func found(in storyFolder: String, of story: Story, languages: [String]? = nil) -> Found {
        var found = Found()
        let folder = TranslationFolder(storyFolder: storyFolder)
        let files = folder.languageFiles
        var chosen = files
        if languages == nil, let listed = folder.listed {
            chosen = files.filter { listed.contains($0.language.lowercased()) }
            found.unlisted = files.filter { !listed.contains($0.language.lowercased()) }
        }
        if let languages {
            let asked = languages.filter { $0 != "original" }.map(LanguageTag.normalise)
            chosen = []
            for language in asked {
                guard let match = LanguageTag.best(for: language, among: files.map(\.language)), let file = files.first(where: { $0.language == match }) else {
                    found.missing.append(language)
                    continue
                }
                if !chosen.contains(file) { chosen.append(file) }
            }
        }
        for file in chosen {
            do {
                let read = try TranslationFolder.read(file)
                found.stories.append(apply(read.file, language: file.language, to: story))
            } catch {
                found.problems.append(error)
            }
        }
        return found
    }
}

extension Dictionary {
    /// Adds `value` for `key` unless the key has one already, with one hash where a look-up and
    /// then an insert are two: reaching the value in place inserts the default when it is absent.
    @inline(__always) mutating func keepFirst(_ key: Key, _ value: Value) { Self.reach(&self[key, default: value]) }

    @inline(__always) private static func reach(_ value: inout Value) {}
}
