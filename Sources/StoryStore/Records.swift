import GRDB
import StoryFormat

/// Where a story came from, as the library keys it: a kind and a location. Which kinds exist and
/// how each is recognised, fetched and read is the business of the source module (StorySources);
/// storage only keeps the pair, so a new kind of source needs no change here.
public struct StorySource: Sendable, Hashable, CustomStringConvertible {
    /// An open set of names: the kinds below, and any a newer cyd adds.
    public struct Kind: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
        public var rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public var description: String { rawValue }
        /// A story folder (its story.json), keyed by the folder's real path.
        public static let folder = Kind(rawValue: "folder")
        /// Any other story file, keyed by its own real path: two files in one folder are two stories.
        public static let file = Kind(rawValue: "file")
        /// A git repository's story.json at its default branch.
        public static let git = Kind(rawValue: "git")
        /// A story.json at an https URL.
        public static let url = Kind(rawValue: "url")
    }
    public var kind: Kind
    /// An absolute folder or file path, a git URL or an https URL.
    public var location: String

    public init(kind: Kind, location: String) {
        self.kind = kind
        self.location = location
    }

    /// "folder:/home/ana/stories/tide": unique, and what progress is keyed by.
    public var key: String { "\(kind.rawValue):\(location)" }
    public var description: String { key }

    public init?(key: String) {
        guard let colon = key.firstIndex(of: ":"), colon > key.startIndex else { return nil }
        let kind = String(key[..<colon])
        guard kind.allSatisfy({ $0.isLetter || $0 == "-" }) else { return nil }
        self.init(kind: Kind(rawValue: kind), location: String(key[key.index(after: colon)...]))
    }
}

/// A story in the library.
public struct StoryRecord: Sendable, Hashable {
    public var id: Int64
    public var source: StorySource
    /// The author's id for the story (not unique across authors).
    public var storyKey: String
    public var title: String
    public var rating: String
    public var summary: String
    public var author: String?
    public var picPath: String?
    public var version: String
    public var firstChapter: String
    public var chapterCount: Int
    public var endingCount: Int
    public var addedAt: Double
    public var updatedAt: Double
}

/// The `story` table, column by column.
extension StoryRecord: FetchableRecord, TableRecord {
    public static let databaseTableName = "story"

    public enum Columns {
        public static let id = Column("id"), source = Column("source"), sourceKind = Column("source_kind"), location = Column("location")
        public static let storyKey = Column("story_key"), title = Column("title"), rating = Column("rating"), summary = Column("summary")
        public static let author = Column("author"), picPath = Column("pic_path"), version = Column("version")
        public static let firstChapter = Column("first_chapter"), chapterCount = Column("chapter_count"), endingCount = Column("ending_count")
        public static let addedAt = Column("added_at"), updatedAt = Column("updated_at")
    }

    public init(row: Row) throws {
        id = row[Columns.id]
        let key: String = row[Columns.source]
        source = StorySource(key: key) ?? StorySource(kind: StorySource.Kind(rawValue: row[Columns.sourceKind]), location: row[Columns.location])
        storyKey = row[Columns.storyKey]
        title = row[Columns.title]
        rating = row[Columns.rating]
        summary = row[Columns.summary]
        author = row[Columns.author]
        picPath = row[Columns.picPath]
        version = row[Columns.version]
        firstChapter = row[Columns.firstChapter]
        chapterCount = row[Columns.chapterCount]
        endingCount = row[Columns.endingCount]
        addedAt = row[Columns.addedAt]
        updatedAt = row[Columns.updatedAt]
    }
}

public struct ChoiceRecord: Sendable, Hashable {
    public var position: Int
    public var target: String
    public var label: String
    /// False when the target chapter does not exist (the validator reports it; readers show the
    /// choice as unavailable).
    public var isAvailable: Bool
}

/// One chapter with its choices: all a reader needs to show it, loaded on its own.
public struct ChapterRecord: Sendable, Hashable {
    public var key: String
    public var position: Int
    /// Every key of the chapter as stored (in a language, as its readers see it).
    public var chapter: Chapter
    /// Its choices, each said available or not.
    public var choices: [ChoiceRecord]

    public init(key: String, position: Int, chapter: Chapter, choices: [ChoiceRecord]) {
        self.key = key
        self.position = position
        self.chapter = chapter
        self.choices = choices
    }

    public init(
        key: String, position: Int, name: String, body: String, picPath: String? = nil, picAlt: String? = nil, vidPath: String? = nil,
        isMarkedEnding: Bool = false, choices: [ChoiceRecord]
    ) {
        self.init(
            key: key, position: position,
            chapter: Chapter(
                id: key, name: name, text: body, isEnding: isMarkedEnding, picPath: picPath, picAlt: picAlt, vidPath: vidPath,
                choices: choices.map { Choice(chapterID: $0.target, text: $0.label) }),
            choices: choices)
    }

    public var name: String { chapter.name }
    public var body: String { chapter.text }
    public var picPath: String? { chapter.picPath }
    /// What the picture shows (`pic_alt`), when the author said.
    public var picAlt: String? { chapter.picAlt }
    public var vidPath: String? { chapter.vidPath }
    /// The author marked it an ending (`is_ending`); the format's flag, not what ends reading.
    public var isMarkedEnding: Bool { chapter.isEnding }

    /// Reading ends here: the chapter has no choices (as the original reader ends, whatever
    /// `is_ending` says; `isMarkedEnding` is the author's flag).
    public var endsReading: Bool { choices.isEmpty }
}

/// A chapter as the `chapter` table holds it: the one place that maps a chapter's keys
/// (`ChapterField`) to columns, each named as its key (but for the two below). The INSERT, the
/// SELECTs, the translated columns and the migration of a key added later are all made from the
/// fields, so a key added to the format is stored and read back with nothing written here.
struct ChapterRow {
    /// Columns named otherwise than their key (named before the table followed the format).
    static let renamed: [ChapterField: String] = [.id: "key", .text: "body"]
    /// Kept on the story, not the chapter: which chapter is first (`story.first_chapter`).
    static let keptOnTheStory: Set<ChapterField> = [.isFirstChapter]
    /// Kept out of the library: another tool's data, which no reader shows (an export reads the
    /// story's own file).
    static let notForReaders: Set<ChapterField> = [.twine]
    /// The chapter's keys that have a column, in the format's order.
    static let fields = ChapterField.allCases.filter { !keptOnTheStory.contains($0) && !notForReaders.contains($0) }
    /// The keys `chapter_translation` also holds.
    static let translatedFields = fields.filter(\.isTranslated)

    static func column(_ field: ChapterField) -> String { renamed[field] ?? field.key }

    /// The columns the v1-v10 migrations made; a key not among them gets a migration of its own,
    /// "chapter key KEY", made from the field (never edit this list: it is what shipped).
    static let columnsBeforeKeyMigrations: Set<String> = ["key", "name", "body", "pic_path", "pic_alt", "vid_path", "is_ending", "choices"]

    /// The column's declaration for a key added later.
    static func declaration(_ field: ChapterField) -> String {
        switch field.kind {
        case .text, .nonEmptyText: "\(column(field)) TEXT"
        case .flag: "\(column(field)) INTEGER NOT NULL DEFAULT 0"
        case .choices: "\(column(field)) TEXT NOT NULL DEFAULT '[]'"
        case .object: "\(column(field)) TEXT"
        }
    }

    static let columns = ["story_id", "position"] + fields.map(column)
    static let insert = BulkInsert.insertStatement(table: "chapter", columns: columns)
    static let translationInsert = BulkInsert.insertStatement(
        table: "chapter_translation", columns: ["story_id", "language", "key"] + translatedFields.map(column))

    var storyID: Int64
    var position: Int
    var chapter: Chapter

    static func value(_ field: ChapterField, of chapter: Chapter) -> BulkInsert.Value {
        switch field.value(in: chapter) {
        case .text(let text): .text(text)
        case .flag(let flag): .integer(flag ? 1 : 0)
        case .choices(let choices): .text(StoredChoices.encode(choices))
        case .object(let value): .text(value.encoded)
        case nil:
            switch field.kind {
            case .text, .nonEmptyText, .object: .optionalText(nil)
            case .flag: .integer(0)
            case .choices: .text(StoredChoices.encode([]))
            }
        }
    }

    var values: [BulkInsert.Value] { [.integer(storyID), .integer(Int64(position))] + Self.fields.map { Self.value($0, of: chapter) } }

    /// The columns of a chapter as a SELECT lists them: with a language, each translated key as
    /// its translation holds it where the chapter has one (`t`), else the original's (`c`).
    static func selection(translated: Bool) -> String {
        fields.map { field in
            let column = column(field)
            guard translated else { return column }
            return field.isTranslated ? "CASE WHEN t.key IS NULL THEN c.\(column) ELSE t.\(column) END AS \(column)" : "c.\(column)"
        }.joined(separator: ", ")
    }

    /// The chapter a row of `selection` holds, or nil when its choices cannot be read (a damaged
    /// library).
    static func chapter(_ row: Row) -> (chapter: Chapter, choices: [(target: String, label: String)])? {
        var chapter = Chapter(id: "", name: "", text: "")
        var pairs: [(target: String, label: String)] = []
        for field in fields {
            let column = column(field)
            switch field.kind {
            case .text, .nonEmptyText: field.set((row[column] as String?).map(ChapterValue.text), in: &chapter)
            case .flag: field.set(.flag(row[column] as Bool? ?? false), in: &chapter)
            case .object: field.set((row[column] as String?).flatMap { JSONValue.parse(Array($0.utf8)) }.map(ChapterValue.object), in: &chapter)
            case .choices:
                guard let decoded = StoredChoices.decode(row[column] as String? ?? "[]") else { return nil }
                pairs = decoded
                field.set(.choices(decoded.map { Choice(chapterID: $0.target, text: $0.label) }), in: &chapter)
            }
        }
        return (chapter, pairs)
    }
}

/// A chapter's choices as its `choices` column holds them: a JSON array of [target, label]
/// pairs in the story's order. They are always read with their chapter, so they are kept with
/// it; a table of their own cost a row, an index entry and a foreign-key check each (three
/// rows for every chapter of a generated story, a third of adding it).
enum StoredChoices {
    /// Where each field of the format's Choice is kept.
    static let modelFields: [String: String] = ["chapterID": "target", "text": "label"]

    static func encode(_ choices: [Choice]) -> String {
        if choices.isEmpty { return "[]" }
        return JSONValue.array(choices.map { .array([.string($0.chapterID), .string($0.text)]) }).encoded
    }

    /// The pairs of a `choices` column; nil when it does not hold them (a damaged library).
    static func decode(_ text: String) -> [(target: String, label: String)]? {
        guard let pairs = JSONValue.parse(Array(text.utf8))?.array else { return nil }
        var choices: [(target: String, label: String)] = []
        for pair in pairs {
            guard let values = pair.array, values.count == 2, let target = values[0].string, let label = values[1].string else { return nil }
            choices.append((target, label))
        }
        return choices
    }
}

public struct Progress: Sendable, Hashable {
    public var chapterKey: String
    /// Chapters visited before the current one, oldest first (bounded).
    public var history: [String]
    public var updatedAt: Double

    public init(chapterKey: String, history: [String], updatedAt: Double) {
        self.chapterKey = chapterKey
        self.history = history
        self.updatedAt = updatedAt
    }
}

public struct Bookmark: Sendable, Hashable {
    public var name: String
    public var chapterKey: String
    public var createdAt: Double
}

public struct Note: Sendable, Hashable {
    public var id: Int64
    public var chapterKey: String
    public var body: String
    public var createdAt: Double
}

public struct StoredPicture: Sendable, Hashable {
    public var path: String
    public var data: [UInt8]
    public var mediaType: String?

    public init(path: String, data: [UInt8], mediaType: String?) {
        self.path = path
        self.data = data
        self.mediaType = mediaType
    }
}

public struct SearchHit: Sendable, Hashable {
    public var story: StoryRecord
    /// The best-matching chapter, when the match is in chapter text or a chapter title.
    public var chapterKey: String?
    /// That chapter's title.
    public var chapterTitle: String?
    /// A short excerpt on one line (line breaks and tabs of the text are spaces here), in
    /// pieces: the words that matched apart from the rest, for a page to mark up.
    public var excerpt: [Piece]

    /// A piece of an excerpt.
    public struct Piece: Sendable, Hashable {
        public var text: String
        /// The words searched for.
        public var isMatch: Bool

        public init(text: String, isMatch: Bool) {
            self.text = text
            self.isMatch = isMatch
        }
    }

    public init(story: StoryRecord, chapterKey: String?, chapterTitle: String?, excerpt: [Piece]) {
        self.story = story
        self.chapterKey = chapterKey
        self.chapterTitle = chapterTitle
        self.excerpt = excerpt
    }

    /// The excerpt with the match between « and ».
    public var snippet: String { excerpt.map { $0.isMatch ? "«" + $0.text + "»" : $0.text }.joined() }

    /// What SQLite's `snippet()` is asked to put around a match: control characters, which the
    /// pieces never keep (a story's text could hold « and »; a French one does).
    static let matchStart: Character = "\u{1}", matchEnd: Character = "\u{2}"

    init(story: StoryRecord, chapterKey: String? = nil, chapterTitle: String? = nil, marked: String) {
        self.story = story
        self.chapterKey = chapterKey
        self.chapterTitle = chapterTitle
        excerpt = Self.pieces(Self.oneLine(marked))
    }

    static func pieces(_ marked: String) -> [Piece] {
        var pieces: [Piece] = []
        var text = ""
        var inMatch = false
        func close() {
            if !text.isEmpty { pieces.append(Piece(text: text, isMatch: inMatch)) }
            text = ""
        }
        for character in marked {
            switch character {
            case matchStart: close(); inMatch = true
            case matchEnd: close(); inMatch = false
            default: text.append(character)
            }
        }
        close()
        return pieces
    }

    /// Runs of white space (paragraph breaks included) as one space.
    static func oneLine(_ text: String) -> String {
        var out = ""
        var lastWasSpace = false
        for character in text {
            if character.isWhitespace {
                if !lastWasSpace { out.append(" ") }
                lastWasSpace = true
            } else {
                out.append(character)
                lastWasSpace = false
            }
        }
        return out
    }
}

/// Hashes by path (a catalogue entry's pictures), kept as one JSON object.
enum StoredHashes {
    static func encode(_ hashes: [String: String]) -> String {
        JSONValue.object(hashes.mapValues { .string($0) }).encoded
    }

    static func decode(_ text: String) -> [String: String] {
        guard case .object(let members)? = JSONValue.parse(Array(text.utf8)) else { return [:] }
        var hashes: [String: String] = [:]
        for (path, value) in members { if let hash = value.string { hashes[path] = hash } }
        return hashes
    }
}

/// A catalogue entry's languages as its column keeps them: {"fr": 100, "pt-BR": 42} (percent translated).
enum StoredLanguages {
    static func encode(_ languages: [String: Int]) -> String? {
        languages.isEmpty ? nil : JSONValue.object(languages.sorted { $0.key < $1.key }.map { ($0.key, .number(Double($0.value))) }).encoded
    }

    static func decode(_ text: String?) -> [String: Int] {
        guard let text, case .object(let members)? = JSONValue.parse(Array(text.utf8)) else { return [:] }
        var languages: [String: Int] = [:]
        for (tag, value) in members { if case .number(let percent) = value { languages[tag] = Int(percent) } }
        return languages
    }
}

/// A language a stored story can be read in.
public struct StoryLanguage: Sendable, Hashable, Codable {
    /// A BCP 47 tag: fr, pt-BR.
    public var language: String
    public var title: String
    public var summary: String
    /// Strings readers see translated, of all the story's strings.
    public var translated: Int
    public var total: Int

    public init(language: String, title: String, summary: String, translated: Int, total: Int) {
        self.language = language
        self.title = title
        self.summary = summary
        self.translated = translated
        self.total = total
    }

    init(row: Row) {
        self.init(language: row["language"], title: row["title"], summary: row["summary"], translated: row["translated"], total: row["total"])
    }

    /// Whole percent translated, rounded down (100 only when nothing is left).
    public var percent: Int { total == 0 ? 100 : translated * 100 / total }
}
