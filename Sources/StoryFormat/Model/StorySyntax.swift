/// A decoded value together with the node it came from, for pointing at it.
public struct Located<Value: Sendable & Hashable>: Sendable, Hashable {
    public var value: Value
    public var node: Int
    public init(_ value: Value, node: Int) {
        self.value = value
        self.node = node
    }
}

/// A story file as written: every part tied to its node in the JSON document, so checks can
/// point at it. Long texts are not copied; read them through the document when needed.
///
/// Stored compactly (32-bit node indices, all choices in one array) because a story can have
/// 100,000 chapters and this sits beside the whole file in memory.
public struct StorySyntax: Sendable {
    public var document: JSONDocument
    public var storyNode: Int?
    public var id: Located<String>?
    public var name: Located<String>?
    public var rating: Located<String>?
    public var summary: Located<String>?
    public var picPath: Located<String>?
    public var vidPath: Located<String>?
    /// Extension: the story's `twine` object (`Story.twine`).
    public var twineNode: Int?
    public var chaptersNode: Int?
    public var chapters: [ChapterSyntax] = []
    /// Every choice of every chapter, chapter by chapter; see `choices(of:)`.
    public var choices: [ChoiceSyntax] = []
    /// Every `pic_path` and `vid_path`, the story's first, then the chapters' in file order.
    public var media: [MediaSyntax] = []

    public init(document: JSONDocument) { self.document = document }

    /// Appends the chapters of `part`, a later stretch of the same file's chapters decoded on
    /// its own (its positions, choices and media numbered from 0), renumbered to follow these.
    ///
    /// Grows its arrays as `append` does, by doubling: a story is joined from many parts, and
    /// room reserved for exactly each part would copy the arrays once a part.
    mutating func append(_ part: StorySyntax) {
        let chapterBase = Int32(chapters.count)
        let choiceBase = Int32(choices.count)
        for var chapter in part.chapters {
            chapter.storedIndex += chapterBase
            chapter.choiceStart += choiceBase
            chapters.append(chapter)
        }
        for var choice in part.choices {
            choice.storedChapter += chapterBase
            choices.append(choice)
        }
        for var item in part.media {
            item.chapter = item.chapter.map { $0 + Int(chapterBase) }
            media.append(item)
        }
    }

    /// The choices of one chapter, in order.
    public func choices(of chapter: ChapterSyntax) -> ArraySlice<ChoiceSyntax> {
        choices[Int(chapter.choiceStart)..<Int(chapter.choiceStart + chapter.choiceCount)]
    }

    /// The chapter id a choice leads to. Decoded on demand: a story holds hundreds of thousands
    /// of choices and their ids are in the document already.
    public func target(of choice: ChoiceSyntax) -> Located<String>? {
        choice.targetNode < 0 ? nil : Located(document.string(Int(choice.targetNode)), node: Int(choice.targetNode))
    }

    /// The plain model, or nil when a required value is missing or has the wrong type, or when
    /// a chapter id or choice target holds a control character (it could not be stored and
    /// read back as it is: a NUL would cut it short).
    public func model() -> Story? {
        guard let chapters = chapterModels(0..<chapters.count) else { return nil }
        return model(chapters: chapters)
    }

    /// The story with `chapters` (made by `chapterModels`, perhaps a part at a time), or nil when
    /// a required value of the story is missing or has the wrong type.
    public func model(chapters: [Chapter]) -> Story? {
        guard let id, let name, let rating, let summary, chaptersNode != nil else { return nil }
        return Story(
            id: id.value, name: name.value, rating: rating.value, summary: summary.value,
            picPath: picPath?.value, vidPath: vidPath?.value, twine: twineNode.map { JSONValue(document, $0) }, chapters: chapters)
    }

    /// Whether `model()` makes a story, found by the same rules without making one: a reader of
    /// two versions of a large story compares them where they are written.
    public var makesModel: Bool {
        guard id != nil, name != nil, rating != nil, summary != nil, chaptersNode != nil else { return false }
        for chapter in chapters {
            guard let idNode = chapter.node(.id), isKey(node: idNode) else { return false }
            for field in ChapterField.all where field != .id && field.isRequired {
                switch field.kind {
                case .text, .nonEmptyText: if chapter.node(field) == nil { return false }
                case .flag: if chapter.flag(field) == nil { return false }
                case .choices, .object: break
                }
            }
            for choice in choices(of: chapter) {
                guard choice.targetNode >= 0, isKey(node: Int(choice.targetNode)), choice.textNode != nil else { return false }
            }
        }
        return true
    }

    /// `isKey` of a string node's text, decided on its bytes when they are printable ASCII with
    /// no escape (every id of most stories): no string is made for each of a large story's ids
    /// and targets.
    func isKey(node: Int) -> Bool {
        let printable = document.withContentBytes(node) { bytes in
            bytes.map { bytes in !bytes.contains { $0 < 0x20 || $0 >= 0x7F } } ?? false
        }
        return printable || Self.isKey(document.string(node))
    }

    /// Whether a chapter id can be stored and read back as it is: no character `VisibleText`
    /// calls unsafe, bidirectional controls, tabs and line breaks aside.
    static func isKey(_ text: String) -> Bool {
        !text.unicodeScalars.contains { VisibleText.isUnsafe($0) && !VisibleText.isBidiControl($0.value) && $0 != "\t" && $0 != "\n" && $0 != "\r" }
    }

    /// The chapters in `range` as plain values, or nil when one cannot be (see `model()`).
    public func chapterModels(_ range: Range<Int>) -> [Chapter]? { chapterModels(range) { _ in } }

    /// The same, telling `passing` where each chapter starts in the file as it is reached.
    func chapterModels(_ range: Range<Int>, _ passing: (Int) -> Void) -> [Chapter]? {
        var chapters: [Chapter] = []
        chapters.reserveCapacity(range.count)
        for chapter in self.chapters[range] {
            passing(Int(document.nodes[chapter.node].start))
            guard let chapterID = chapter.id, Self.isKey(chapterID.value) else { return nil }
            var model = Chapter(id: chapterID.value, name: "", text: "")
            for field in ChapterField.all where field != .id {
                let value: ChapterValue?
                switch field.kind {
                case .text, .nonEmptyText: value = chapter.node(field).map { .text(document.string($0)) }
                case .flag: value = chapter.flag(field).map { .flag($0.value) }
                case .object: value = chapter.node(field).map { .object(JSONValue(document, $0)) }
                case .choices:
                    var choices: [Choice] = []
                    for choice in self.choices(of: chapter) {
                        guard let target = target(of: choice), Self.isKey(target.value), let textNode = choice.textNode else { return nil }
                        choices.append(Choice(chapterID: target.value, text: document.string(textNode)))
                    }
                    value = .choices(choices)
                }
                if value == nil, field.isRequired { return nil }
                field.set(value, in: &model)
            }
            chapters.append(consume model)  // moved: appended as it was, it was copied (its strings retained and released)
        }
        return chapters
    }
}

/// The value node of each chapter key (`ChapterField`), -1 where absent and -2 where unusable:
/// a fixed row of slots, so reading a chapter allocates nothing for them.
public struct ChapterNodes: KeyFields, Sendable {
    /// Room for this many keys; a `ChapterField` beyond it stops the first decode (raise it here).
    static let capacity = 10
    private var slots: (Int32, Int32, Int32, Int32, Int32, Int32, Int32, Int32, Int32, Int32) = (-1, -1, -1, -1, -1, -1, -1, -1, -1, -1)

    init() {}

    /// Where `field`'s node is kept, in bytes from the start.
    static func offset(_ field: ChapterField) -> Int { field.ordinal * MemoryLayout<Int32>.stride }

    subscript(field: ChapterField) -> Int32 {
        get { withUnsafeBytes(of: slots) { $0.load(fromByteOffset: Self.offset(field), as: Int32.self) } }
        set { withUnsafeMutableBytes(of: &slots) { $0.storeBytes(of: newValue, toByteOffset: Self.offset(field), as: Int32.self) } }
    }
}

public struct ChapterSyntax: Sendable {
    var storedNode: Int32
    var storedIndex: Int32
    var storedOrdinal: Int32
    /// Each key's value node (the id's set first, for naming the chapter while the rest are read).
    var nodes = ChapterNodes()
    /// Index of the chapter's first choice in `StorySyntax.choices`.
    public internal(set) var choiceStart: Int32 = 0
    var choiceCount: Int32 = 0
    /// The flags (`ChapterField.Kind.flag`) that are true, a bit each by ordinal.
    var trueFlags: UInt16 = 0
    /// The text holds nothing but white space (`JSONDocument.isBlank`), decided while the
    /// chapter is decoded, when its bytes are at hand: the empty-text rule needs no pass of its
    /// own over the file.
    public internal(set) var textIsBlank = false
    /// The id's text, "" when the chapter has no usable id (cheaper than `id` in hot loops).
    public internal(set) var idValue = ""

    init(node: Int, index: Int, ordinal: Int) {
        storedNode = Int32(node)
        storedIndex = Int32(index)
        storedOrdinal = Int32(ordinal)
    }

    public var node: Int { Int(storedNode) }
    /// Position in `StorySyntax.chapters` (elements of the file's array that are not objects
    /// are not there, so this can be less than `ordinal`).
    public var index: Int { Int(storedIndex) }
    /// Position in the file's `chapters` array, counting every element: what messages say.
    public var ordinal: Int { Int(storedOrdinal) }
    public var id: Located<String>? { node(.id).map { Located(idValue, node: $0) } }

    /// The value node of a key, when the chapter holds a usable one.
    public func node(_ field: ChapterField) -> Int? {
        let node = nodes[field]
        return node < 0 ? nil : Int(node)
    }

    /// A flag's value where the chapter sets it.
    public func flag(_ field: ChapterField) -> Located<Bool>? {
        node(field).map { Located(trueFlags & (1 << field.ordinal) != 0, node: $0) }
    }

    public var nameNode: Int? { node(.name) }
    public var textNode: Int? { node(.text) }
    /// Extension: `pic_alt`, what the chapter's picture shows.
    public var picAltNode: Int? { node(.picAlt) }
    public var isFirstChapter: Located<Bool>? { flag(.isFirstChapter) }
    /// Extension: `"is_ending": true` marks an intended ending.
    public var isEnding: Located<Bool>? { flag(.isEnding) }
    public var choicesNode: Int? { node(.choices) }
    /// Number of choices that could be read as objects.
    public var numberOfChoices: Int { Int(choiceCount) }
    /// Where reading ends: no choices at all.
    public var hasNoChoices: Bool { choiceCount == 0 }

    /// "chapter 'cellar'" or, without a usable id, "chapter 3".
    public var label: String {
        if nodes[.id] >= 0, !idValue.isEmpty { return "chapter '\(VisibleText.escape(idValue))'" }
        return "chapter \(ordinal + 1)"
    }
}

public struct ChoiceSyntax: Sendable {
    var storedNode: Int32
    var storedIndex: Int32
    var storedChapter: Int32
    /// The target's node, -1 when absent (`StorySyntax.target(of:)` decodes it).
    public internal(set) var targetNode: Int32 = -1
    var storedTextNode: Int32 = -1

    public var node: Int { Int(storedNode) }
    /// Position among its chapter's choices.
    public var index: Int { Int(storedIndex) }
    /// Index of its chapter in `StorySyntax.chapters`.
    public var chapter: Int { Int(storedChapter) }
    public var textNode: Int? { storedTextNode < 0 ? nil : Int(storedTextNode) }
}

/// A `pic_path` or `vid_path` value and whose it is.
public struct MediaSyntax: Sendable {
    public var path: Located<String>
    /// Index of the chapter it belongs to; nil for the story's own.
    public var chapter: Int?
    public var isPicture: Bool

    public var key: String { isPicture ? "pic_path" : "vid_path" }
    public var reference: MediaReference { MediaReference(path.value) }
}

/// An `authors.json` file as written.
public struct AuthorsSyntax: Sendable {
    public var document: JSONDocument
    public var authorsNode: Int?
    public var authors: [AuthorSyntax] = []
    public init(document: JSONDocument) { self.document = document }
}

public struct AuthorSyntax: Sendable {
    public var node: Int
    public var index: Int
    public var name: Located<String>?
    /// Extension: the author's story repositories, as git URLs, so discovery needs no search.
    public var repos: [Located<String>] = []
}
