/// A translation brought up to date with the story: what `cyd l10n init` and `update` write.
public struct TranslationMerge: Sendable {
    /// One entry to write: the strings it stands for (several in a PO file when they share
    /// context and text) and what the old file had for them.
    public struct Entry: Sendable {
        public var units: [TranslationUnit]
        public var translation: String
        public var isFuzzy: Bool
        /// The text the translation was made from, when it has changed since (`#| msgid`).
        public var previousSource: String?
        public var comments: [String]
    }

    /// What an update did, for its report.
    public struct Counts: Sendable, Hashable, Codable {
        /// Translations kept as they were.
        public var kept = 0
        /// Translations whose text changed: kept, marked fuzzy.
        public var madeFuzzy = 0
        /// Translations that followed their chapter to a new id.
        public var followed = 0
        /// Strings new to the file.
        public var added = 0
        /// Translations whose string is gone, kept as obsolete entries.
        public var obsoleted = 0
        /// Strings the file had, still without a translation (not new).
        public var untranslated = 0

        public init(kept: Int = 0, madeFuzzy: Int = 0, followed: Int = 0, added: Int = 0, obsoleted: Int = 0, untranslated: Int = 0) {
            (self.kept, self.madeFuzzy, self.followed, self.added, self.obsoleted) = (kept, madeFuzzy, followed, added, obsoleted)
            self.untranslated = untranslated
        }
    }

    public var entries: [Entry]
    /// Old translations no string of the story has any more.
    public var obsolete: [TranslationEntry]
    public var counts: Counts

    /// Merges the story's strings with an old translation (nil: a new, empty one). A
    /// translation is found by id; failing that by context and text (a tool dropped the ids);
    /// failing that, a translation of the same text whose ids are all gone is taken as the same
    /// string under a renamed chapter. A chapter so found renamed offers its other strings'
    /// translations (their text changed too: a new title, an edited paragraph) as fuzzy
    /// suggestions under the new id, rather than leaving them obsolete.
    public init(units: [TranslationUnit], existing: TranslationFile?, grouped: Bool) {
        var counts = Counts()
        let old = existing.map { $0.entries + $0.obsolete } ?? []
        var byID: [String: Int] = [:]
        var bySource: [String: [Int]] = [:]
        // Tables of hundreds of thousands made at their size, not grown by doubling (a tenth of
        // an update of 100,000 chapters was spent moving them as they grew).
        byID.reserveCapacity(old.count)
        var current = Set<String>(minimumCapacity: units.count)
        for unit in units { current.insert(unit.id) }
        for (index, entry) in old.enumerated() {
            for id in entry.eachID where byID[id] == nil { byID[id] = index }  // live entries first, then obsolete ones (revived)
            // A candidate for a rename: translated, and none of its ids is still a string.
            if !entry.translation.isEmpty, entry.eachID.allSatisfy({ !current.contains($0) }) { bySource[entry.source, default: []].append(index) }
        }
        // The old entries by context and text (the first of each), for strings not found by id:
        // made when the first such string is met (a file cyd wrote finds every string by id).
        var byTextMade: [TranslationLookup.TextKey: Int]?
        func byText(_ key: TranslationLookup.TextKey) -> Int? {
            if byTextMade == nil {
                var made: [TranslationLookup.TextKey: Int] = [:]
                made.reserveCapacity(old.count)
                for (index, entry) in old.enumerated() { made.keepFirst(TranslationLookup.TextKey(context: entry.context, source: entry.source), index) }
                byTextMade = made
            }
            return byTextMade![key]
        }
        var used = Set<Int>()
        var followedFrom: [(unit: TranslationUnit, old: Int)] = []
        var unmatched = Set<String>()
        func match(_ unit: TranslationUnit) -> Entry {
            var found: Int?
            var followed = false
            if let index = byID[unit.id] {
                found = index
            } else if let index = byText(TranslationLookup.TextKey(context: unit.context, source: unit.source)), old[index].eachID.allSatisfy({ !current.contains($0) }) {
                found = index
                followed = old[index].firstID != nil
            } else if let index = bySource[unit.source]?.first(where: { !used.contains($0) }) {
                found = index
                followed = true
            }
            guard let index = found else {
                counts.added += 1
                unmatched.insert(unit.id)
                return Entry(units: [unit], translation: "", isFuzzy: false, previousSource: nil, comments: [])
            }
            guard !old[index].translation.isEmpty || !old[index].comments.isEmpty else {
                counts.untranslated += 1
                return Entry(units: [unit], translation: "", isFuzzy: false, previousSource: nil, comments: old[index].comments)
            }
            used.insert(index)
            let entry = old[index]
            if entry.translation.isEmpty {
                counts.untranslated += 1
                return Entry(units: [unit], translation: "", isFuzzy: false, previousSource: nil, comments: entry.comments)
            }
            if followed { followedFrom.append((unit, index)) }
            if entry.source != unit.source {
                counts.madeFuzzy += 1
                return Entry(units: [unit], translation: entry.translation, isFuzzy: true, previousSource: entry.source, comments: entry.comments)
            }
            if followed { counts.followed += 1 } else { counts.kept += 1 }
            return Entry(
                units: [unit], translation: entry.translation, isFuzzy: entry.isFuzzy, previousSource: entry.isFuzzy ? entry.previousSource : nil,
                comments: entry.comments)
        }
        var entries: [Entry] = []
        entries.reserveCapacity(units.count)
        if grouped {
            // PO: one entry per context and text (msgfmt refuses two); the first string's
            // translation. The groups are the template's (`TextGroups`: strings sorted by a hash
            // of their context and text), not a table keyed by every string's whole text.
            let (heads, next) = TextGroups.of(units)
            var entryOf = [Int32](repeating: -1, count: units.count)  // each group's entry, at its first string
            var headOf = [Int32](repeating: -1, count: units.count)  // each later string's first
            for head in heads {
                var member = Int(next[Int(head)])
                while member >= 0 {
                    headOf[member] = head
                    member = Int(next[member])
                }
            }
            for (position, unit) in units.enumerated() {
                if headOf[position] >= 0 {
                    entries[Int(entryOf[Int(headOf[position])])].units.append(unit)
                    if let index = byID[unit.id] { used.insert(index) }
                    continue
                }
                entryOf[position] = Int32(entries.count)
                entries.append(match(unit))
            }
        } else {
            entries = units.map(match)
        }
        // Chapters renamed: a string that followed its text to a new id tells its chapter's
        // old id; the chapter's strings found nowhere are offered their old translation, fuzzy.
        var renamedFrom: [String: String] = [:]  // new chapter id → old
        for (unit, index) in followedFrom {
            guard let chapter = unit.chapter, renamedFrom[chapter] == nil, unit.id.hasPrefix(chapter + ".") else { continue }
            let rest = unit.id.dropFirst(chapter.count)
            if let id = old[index].eachID.first(where: { $0.count > rest.count && $0.hasSuffix(rest) }) { renamedFrom[chapter] = String(id.dropLast(rest.count)) }
        }
        for position in entries.indices where !renamedFrom.isEmpty && entries[position].translation.isEmpty {
            let unit = entries[position].units[0]
            guard unmatched.contains(unit.id), let chapter = unit.chapter, let oldChapter = renamedFrom[chapter], unit.id.hasPrefix(chapter + ".") else { continue }
            guard let index = byID[oldChapter + unit.id.dropFirst(chapter.count)], !used.contains(index), !old[index].translation.isEmpty else { continue }
            used.insert(index)
            counts.added -= 1
            counts.madeFuzzy += 1
            let entry = old[index]
            entries[position].translation = entry.translation
            entries[position].isFuzzy = true
            entries[position].previousSource = entry.source
            entries[position].comments = entry.comments
        }
        obsolete = old.indices.filter { !used.contains($0) && !old[$0].translation.isEmpty }.map { old[$0] }
        counts.obsoleted = obsolete.count
        self.entries = entries
        self.counts = counts
    }
}

extension POFile {
    /// A PO file of a merge: the template (`language` nil, no translations) or a language's file.
    /// `header` is the old file's header (its translator's fields are kept).
    /// `revisionDate`: PO's form (`2026-11-24 15:40+0000`), for a new language's header;
    /// `comments`: more lines for a new header's comment (what made the file).
    public static func make(
        _ merge: TranslationMerge, storyID: String, storyName: String, language: String?, header oldHeader: POEntry? = nil, revisionDate: String = "",
        comments: [String] = []
    ) -> POFile {
        var header = oldHeader ?? POEntry(source: "")
        if oldHeader == nil {
            header.translatorComments =
                language.map { ["\(storyName): the story's text in \($0)."] } ?? ["\(storyName): every string a reader sees, in reading order."]
            header.translatorComments += comments
            if language == nil { header.flags = ["fuzzy"] }
        }
        // The template carries xgettext's placeholders (so `msginit` can start a language from
        // it); a language's file real values, which the translator's tool keeps up to date.
        var fields: [(String, String)] = [
            ("Project-Id-Version", storyID),
            ("PO-Revision-Date", language == nil ? "YEAR-MO-DA HO:MI+ZONE" : revisionDate),
            ("Last-Translator", language == nil ? "FULL NAME <EMAIL@ADDRESS>" : ""),
            ("Language-Team", language == nil ? "LANGUAGE <LL@li.org>" : ""),
            ("Language", language ?? ""), ("MIME-Version", "1.0"),
            ("Content-Type", "text/plain; charset=UTF-8"), ("Content-Transfer-Encoding", "8bit"),
        ]
        if let oldHeader {
            // Keep the translator's fields; set the language and the encoding cyd writes.
            let old = oldHeader.translation.split(separator: "\n").map { line -> (String, String) in
                guard let colon = line.firstIndex(of: ":") else { return (String(line), "") }
                return (String(line[..<colon]), String(line[line.index(after: colon)...].trimmingSpaces))
            }
            var merged = old
            for (name, value) in fields where ["Language", "Content-Type", "Content-Transfer-Encoding", "MIME-Version"].contains(name) {
                if let index = merged.firstIndex(where: { $0.0 == name }) { merged[index].1 = value } else { merged.append((name, value)) }
            }
            fields = merged
        }
        header.translations = [fields.map { "\($0.0): \($0.1)\n" }.joined()]
        var file = POFile(header: header)
        file.entries.reserveCapacity(merge.entries.count + merge.obsolete.count)
        for entry in merge.entries {
            var po = POEntry(context: entry.units[0].context, source: entry.units[0].source, translation: language == nil ? "" : entry.translation)
            po.translatorComments = entry.comments
            po.extractedComments = entry.units.map { POFile.idPrefix + $0.id }
            if entry.units.contains(where: \.mentionsName) {
                po.extractedComments.append("[[name]] is the reader's first name: keep it as written.")
            }
            po.references = entry.units.compactMap { $0.line > 0 ? "story.json:\($0.line)" : nil }
            var seen = Set<String>()
            po.references = po.references.filter { seen.insert($0).inserted }
            if language != nil, entry.isFuzzy, !entry.translation.isEmpty {
                po.flags = ["fuzzy"]
                po.previousSource = entry.previousSource
            }
            file.entries.append(po)
        }
        if language != nil {
            for old in merge.obsolete {
                var po = POEntry(context: old.context, source: old.source, translation: old.translation)
                po.isObsolete = true
                po.translatorComments = old.comments
                po.extractedComments = old.ids.map { POFile.idPrefix + $0 }
                file.entries.append(po)
            }
        }
        return file
    }
}

extension XLIFF {
    /// An XLIFF 2.1 file of a merge: the template (`targetLanguage` nil, no targets) or a language's.
    public static func make(_ merge: TranslationMerge, sourceLanguage: String, targetLanguage: String?) -> String {
        var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        out += "<xliff xmlns=\"\(namespace)\" version=\"2.1\" srcLang=\"\(attribute(sourceLanguage))\""
        if let targetLanguage { out += " trgLang=\"\(attribute(targetLanguage))\"" }
        out += ">\n <file id=\"story\" original=\"story.json\">\n"
        var usedIDs = Set<String>()
        for (number, entry) in merge.entries.enumerated() {
            for unit in entry.units {
                // XLIFF's ids are XML name tokens; cyd's id is the unit's name.
                var token = isToken(unit.id) ? unit.id : "u\(number + 1)"
                if !usedIDs.insert(token).inserted {
                    token = "u\(number + 1)-\(usedIDs.count)"
                    usedIDs.insert(token)
                }
                out += "  <unit id=\"\(token)\" name=\"\(attribute(unit.id))\">\n   <notes>\n"
                out += "    <note category=\"context\">\(content(unit.context))</note>\n"
                if unit.line > 0 { out += "    <note category=\"location\">story.json:\(unit.line)</note>\n" }
                if unit.mentionsName { out += "    <note category=\"hint\">[[name]] is the reader's first name: keep it as written.</note>\n" }
                for comment in entry.comments { out += "    <note>\(content(comment))</note>\n" }
                out += "   </notes>\n"
                let translated = targetLanguage != nil && !entry.translation.isEmpty
                let state = translated && !entry.isFuzzy ? "translated" : "initial"
                out += "   <segment state=\"\(state)\">\n"
                out += "    <source xml:space=\"preserve\">\(content(unit.source))</source>\n"
                if translated { out += "    <target xml:space=\"preserve\">\(content(entry.translation))</target>\n" }
                out += "   </segment>\n  </unit>\n"
            }
        }
        out += " </file>\n</xliff>\n"
        return out
    }
}
