#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import StoryCheck
import StoryFormat

/// One string a reader can see, with the id translations are kept by. The id is made from what
/// the string is (`story.name`, `CHAPTER.title`, `CHAPTER.text.2`, `CHAPTER.choice.TARGET`,
/// `CHAPTER.pic_alt`), never from its text or its line: only renaming a chapter changes it.
public struct TranslationUnit: Sendable, Hashable {
    /// The id as its parts (the chapter's id is `storedChapter`): a story's strings are hundreds
    /// of thousands, and an id made for each was a string allocated and written for each, where
    /// most are only compared with a file's ids (`hasID`) or written out (`UnsafeBufferPointer.appendID(at:to:)`).
    var key: UnitKey
    /// The original text.
    public var source: String
    /// What a translator sees as context: the chapter's title ("story" for the story's own strings).
    public var context: String
    /// The line of story.json the string is on (1-based); 0 when the story was not read from a file.
    public var line: Int
    /// The chapter (`chapter`), read where the unit is by `UnsafeBufferPointer.id(at:)`.
    var storedChapter: String?
}

// The initializers are in an extension, so the struct keeps its memberwise initializer: one
// that set the fields one by one made the unit and then copied it (Swift 6.3: its strings
// retained and released, a unit at a time, the outlined copy in the disassembly).
extension TranslationUnit {
    public init(id: String, source: String, context: String, line: Int = 0, chapter: String? = nil) {
        self = TranslationUnit(key: .whole(id), source: source, context: context, line: line, storedChapter: chapter)
    }

    /// A string of a chapter whose id is made from `key` and the chapter's id (any form but
    /// `whole` needs `chapter`).
    init(key: UnitKey, source: String, context: String, line: Int = 0, chapter: String?) {
        self = TranslationUnit(key: key, source: source, context: context, line: line, storedChapter: chapter)
    }

    public var id: String {
        get { key.text(chapter: storedChapter ?? "") }
        set { key = .whole(newValue) }
    }

    /// The chapter the string belongs to; nil for the story's name and summary.
    public var chapter: String? {
        get { storedChapter }
        set {
            // The id stays what it was.
            if key.form != .whole { key = .whole(id) }
            storedChapter = newValue
        }
    }

    /// Whether `other` is this string's id, as Swift compares strings, read without making the id.
    @inline(__always)
    public func hasID(_ other: String?) -> Bool {
        guard let other else { return false }
        return key.matches(other, chapter: storedChapter ?? "")
    }

    public static func == (a: TranslationUnit, b: TranslationUnit) -> Bool {
        a.source == b.source && a.context == b.context && a.line == b.line && a.storedChapter == b.storedChapter && a.id == b.id
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(id)
        hasher.combine(source)
        hasher.combine(context)
        hasher.combine(line)
        hasher.combine(storedChapter)
    }

    /// Whether the source holds `[[name]]`, the reader's first name.
    public var mentionsName: Bool { Self.containsName(source) }

    /// Whether `text` holds `[[name]]`, looked for in its bytes.
    static func containsName(_ text: String) -> Bool {
        text.withExistingUTF8 { bytes in
            guard let base = bytes.baseAddress else { return false }
            return namePattern.withUnsafeBufferPointer { pattern in
                var index = 0
                while index + pattern.count <= bytes.count, let found = memchr(base + index, 0x5B, bytes.count - pattern.count + 1 - index) {
                    index = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
                    if memcmp(base + index, pattern.baseAddress!, pattern.count) == 0 { return true }
                    index += 1
                }
                return false
            }
        }
    }

    public static let namePlaceholder = "[[name]]"
    static let namePattern: [UInt8] = Array(namePlaceholder.utf8)
    /// The context of the story's own strings (its name and summary).
    public static let storyContext = "story"
}

extension UnsafeBufferPointer where Element == TranslationUnit {
    /// The id of the string at `index`, read from its parts where they are: asked of an element
    /// (`self[index].id`), a computed property copied the element whole first, its four strings
    /// retained and released (a tenth of validating a translation with 190,000 findings).
    @inline(__always)
    func id(at index: Int) -> String { self[index].key.text(chapter: self[index].storedChapter ?? "") }

    /// Whether `other` is the id of the string at `index` (`TranslationUnit.hasID`), read so.
    @inline(__always)
    func hasID(at index: Int, _ other: String) -> Bool { self[index].key.matches(other, chapter: self[index].storedChapter ?? "") }

    /// The id's bytes of the string at `index` appended to `out`, read so.
    @inline(__always)
    func appendID(at index: Int, to out: inout [UInt8]) { self[index].key.append(chapter: self[index].storedChapter ?? "", to: &out) }
}

/// A string's id as what it is made from (`TranslationUnits`' forms): a chapter's title, its
/// `number`th paragraph, its picture text, or its choice to `text` (`number` its ordinal), the
/// chapter's id kept by the unit; or a `whole` id, `text`.
struct UnitKey: Sendable {
    enum Form: UInt8, Sendable { case whole, title, paragraph, pictureAlt, choice }
    var form: Form
    var number: Int32
    var text: String

    static func whole(_ id: String) -> UnitKey { UnitKey(form: .whole, number: 0, text: id) }
    static let title = UnitKey(form: .title, number: 0, text: "")
    static func paragraph(_ number: Int) -> UnitKey { UnitKey(form: .paragraph, number: Int32(truncatingIfNeeded: number), text: "") }
    static let pictureAlt = UnitKey(form: .pictureAlt, number: 0, text: "")
    static func choice(target: String, ordinal: Int) -> UnitKey { UnitKey(form: .choice, number: Int32(truncatingIfNeeded: ordinal), text: target) }

    /// The id, as `TranslationUnits` makes it.
    func text(chapter: String) -> String {
        switch form {
        case .whole: text
        case .title: TranslationUnits.title(chapter)
        case .paragraph: TranslationUnits.paragraph(chapter, Int(number))
        case .pictureAlt: TranslationUnits.pictureAlt(chapter)
        case .choice: TranslationUnits.choice(chapter, target: text, ordinal: Int(number))
        }
    }

    /// The id's bytes appended to `out`: the same as `text(chapter:)`'s (the rest after the
    /// chapter's id written as `matches` writes it; made as text when too long for the room).
    func append(chapter: String, to out: inout [UInt8]) {
        if form == .whole { return text.withExistingUTF8 { out.append(contentsOf: $0) } }
        chapter.withExistingUTF8 { out.append(contentsOf: $0) }
        let appended = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 96) { room -> Bool in
            guard let rest = writtenRest(into: room) else { return false }
            out.append(contentsOf: rest)
            return true
        }
        if !appended { out.append(contentsOf: text(chapter: "").utf8) }
    }

    /// Whether `other` is the id, as Swift compares strings: its bytes compared with the
    /// chapter's where they are and with the rest of the id written on the stack; only ids that
    /// differ in bytes and are not both ASCII (so that Swift may yet hold them equal, written
    /// composed and decomposed) are compared as strings, as is an id whose rest is too long for
    /// the room. A file's id is compared with a hundred strings' where it is not in order
    /// (`TranslationValidation.near`): a mismatch is settled by its length where it can be.
    func matches(_ other: String, chapter: String) -> Bool {
        if form == .whole { return other == text }
        let bytewise: Bool? = other.withExistingUTF8 { other in
            chapter.withExistingUTF8 { chapter in
                // Most ids compared are another string's: told apart by length or by chapter
                // before the rest is written.
                if other.count == chapter.count + restLength, Self.same(other, 0, chapter) {
                    let rest: Bool? = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 96) { room in
                        writtenRest(into: room).map { Self.same(other, chapter.count, $0) }
                    }
                    guard let rest else { return nil }
                    if rest { return true }
                }
                // The rest but a choice's target is ASCII.
                return allASCII(other) && allASCII(chapter) && (form != .choice || text.withExistingUTF8(allASCII)) ? false : nil
            }
        }
        return bytewise ?? (other == text(chapter: chapter))
    }

    /// How many bytes of the id follow the chapter's id.
    private var restLength: Int {
        func digits(_ number: Int32) -> Int {
            var count = number < 0 ? 2 : 1
            var rest = Int(number).magnitude / 10
            while rest > 0 {
                count += 1
                rest /= 10
            }
            return count
        }
        return switch form {
        case .whole: 0
        case .title: 6  // .title
        case .paragraph: 6 + digits(number)  // .text.N
        case .pictureAlt: 8  // .pic_alt
        case .choice: 8 + text.utf8.count + (number > 1 ? 1 + digits(number) : 0)  // .choice.TARGET.N
        }
    }

    /// Whether `part` is at `offset` in `bytes`.
    @inline(__always)
    private static func same(_ bytes: UnsafeBufferPointer<UInt8>, _ offset: Int, _ part: UnsafeBufferPointer<UInt8>) -> Bool {
        part.isEmpty || (offset + part.count <= bytes.count && memcmp(bytes.baseAddress! + offset, part.baseAddress!, part.count) == 0)
    }

    /// The id's hash as `ChapterIndex` hashes ids, from its parts where they are written.
    func idHash(chapter: String) -> Int {
        if form != .whole,
            let hash = withUnsafeTemporaryAllocation(
                of: UInt8.self, capacity: 96,
                { room -> Int? in
                    guard let made = written(chapter: chapter, into: room), allASCII(made) else { return nil }
                    return ChapterIndex.hash(made)
                })
        {
            return hash
        }
        return ChapterIndex.hash(text(chapter: chapter))
    }

    /// The id's bytes written at the start of `room`, or nil when they might not fit.
    private func written(chapter: String, into room: UnsafeMutableBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8>? {
        let count = chapter.utf8.count
        guard count < room.count else { return nil }
        chapter.withExistingUTF8 { bytes in
            if let base = bytes.baseAddress { room.baseAddress!.update(from: base, count: count) }
        }
        return writtenRest(into: UnsafeMutableBufferPointer(rebasing: room[count...])).map { UnsafeBufferPointer(rebasing: room[..<(count + $0.count)]) }
    }

    /// The id's bytes after the chapter's id written at the start of `room`, or nil when they
    /// might not fit.
    private func writtenRest(into room: UnsafeMutableBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8>? {
        // The longest: ".choice." and the target, "." and an ordinal of 11 characters.
        guard 20 + (form == .choice ? text.utf8.count : 0) <= room.count else { return nil }
        var count = 0
        func put(_ bytes: UnsafeBufferPointer<UInt8>) {
            for byte in bytes {
                room[count] = byte
                count += 1
            }
        }
        func put(_ text: StaticString) { text.withUTF8Buffer { put($0) } }
        func putDecimal(_ number: Int32) { count = DecimalDigits.write(Int(number), into: room, at: count) }
        switch form {
        case .whole: break
        case .title: put(".title")
        case .paragraph:
            put(".text.")
            putDecimal(number)
        case .pictureAlt: put(".pic_alt")
        case .choice:
            put(".choice.")
            text.withExistingUTF8 { put($0) }
            if number > 1 {
                put(".")
                putDecimal(number)
            }
        }
        return UnsafeBufferPointer(rebasing: room[..<count])
    }
}

/// Every translatable string of a story, in reading order: the story's name and summary, then
/// chapters breadth-first from the first chapter (choices in their order), then the chapters no
/// choice reaches, in file order. Within a chapter: title, paragraphs, picture text, choices.
public enum TranslationUnits {
    public static func storyName() -> String { "story.name" }
    public static func storySummary() -> String { "story.summary" }
    public static func title(_ chapter: String) -> String { chapter + ".title" }
    public static func paragraph(_ chapter: String, _ number: Int) -> String { chapter + ".text.\(number)" }
    public static func pictureAlt(_ chapter: String) -> String { chapter + ".pic_alt" }
    /// `ordinal` counts choices of the chapter to the same target, from 1; the first has none.
    public static func choice(_ chapter: String, target: String, ordinal: Int) -> String {
        ordinal <= 1 ? chapter + ".choice." + target : chapter + ".choice." + target + ".\(ordinal)"
    }

    /// The units of a story as read from a file, each with its line (0 for every unit when not
    /// `lines`: only the files that name where a string is, templates, PO references and XLIFF
    /// notes, need it); nil when the file holds no readable story (the validator says why).
    public static func extract(_ syntax: StorySyntax, lines: Bool = true) -> [TranslationUnit]? {
        guard let story = StoryJSON.model(syntax) else { return nil }
        let made: [TranslationUnit]
        if lines {
            // Each string's line is found on another core while the reading order is found here.
            let placing = BackgroundWork { stringLines(syntax) }
            let order = readingOrder(story)
            let (lines, placed) = placing.take()
            made = units(of: story, order: order) { place in lines[place.resolve(placed)] }
        } else {
            made = units(of: story, order: readingOrder(story), line: nil)
        }
        // The units hold the strings they need; the rest of the model (25 ms of freeing for
        // 100,000 chapters) goes on another thread.
        if story.chapters.count >= LargeValues.halvesFrom {
            var model: Story? = consume story
            LargeValues.release(&model)
        }
        return made
    }

    /// The line of each string's place in the file: the story's name and summary, then each
    /// chapter's title, text, picture text and choices (the model's chapters and choices are
    /// the syntax's, one for one, in the same order).
    static func stringLines(_ syntax: StorySyntax) -> ([Int], NodeOffsets) {
        var offsets: [Int] = []
        let document = syntax.document
        func offset(_ node: Int?) -> Int { node.map { document.range($0).lowerBound } ?? 0 }
        var nodes = NodeOffsets()
        nodes.name = offsets.count
        offsets.append(offset(syntax.name?.node))
        nodes.summary = offsets.count
        offsets.append(offset(syntax.summary?.node))
        nodes.chapters.reserveCapacity(syntax.chapters.count)
        for chapter in syntax.chapters {
            nodes.chapters.append(offsets.count)
            offsets.append(offset(chapter.nameNode))
            offsets.append(offset(chapter.textNode))
            offsets.append(offset(chapter.picAltNode))
            for choice in syntax.choices(of: chapter) { offsets.append(offset(choice.textNode)) }
        }
        return (LineIndex.locate(offsets, in: document.bytes).map(\.position.line), nodes)
    }

    /// The units of a story.json's bytes, read as readers read it (leniently); nil when it holds
    /// no readable story.
    public static func extract(storyFile bytes: [UInt8], lines: Bool = true) -> [TranslationUnit]? {
        LoadedFile.asReadersRead(bytes).story.flatMap { extract($0, lines: lines) }
    }

    /// The units of a story value (no lines).
    public static func extract(_ story: Story) -> [TranslationUnit] { units(of: story, order: readingOrder(story), line: nil) }

    /// Where a unit's line is found: the story's name or summary, or a part of a chapter (0 the
    /// title, 1 the text, 2 the picture text, 3... the choices).
    struct Place {
        var chapter: Int
        var part: Int
        func resolve(_ nodes: NodeOffsets) -> Int {
            switch chapter {
            case -1: nodes.name
            case -2: nodes.summary
            default: nodes.chapters[chapter] + part
            }
        }
    }

    struct NodeOffsets {
        var name = 0
        var summary = 0
        var chapters: [Int] = []
    }

    /// The chapters in reading order: breadth-first from the first chapter (the first marked, as
    /// readers choose), then those never reached, in file order. Duplicate ids: the first wins.
    public static func readingOrder(_ story: Story) -> [Int] { readingOrderAndDuplicates(story).order }

    /// `readingOrder`, and the chapters it leaves out because an earlier chapter has their id
    /// (in file order), found with the same table of ids.
    static func readingOrderAndDuplicates(_ story: Story) -> (order: [Int], duplicates: [Int]) {
        readingOrderAndDuplicates(story, parallelFrom: 20_000)
    }

    /// - Parameter parallelFrom: chapters from which the choices are resolved in two halves
    ///   (tests find the order both ways).
    static func readingOrderAndDuplicates(_ story: Story, parallelFrom: Int) -> (order: [Int], duplicates: [Int]) {
        // Ids compared as Swift compares strings, the first of an id kept, as everywhere; the
        // validator's table, cheaper than a dictionary for every choice's look-up.
        let index = ChapterIndex(ids: story.chapters.map(\.id))
        // The choices' chapters found in chapter order before the walk, which meets chapters out
        // of order (read there, each chapter's choices were a cache miss: `cyd add` of 100,000
        // chapters with a translation spent 60 ms on this thread alone).
        let successors = ChoiceTargets(story.chapters, index, parallelFrom: parallelFrom)
        var seen = [Bool](repeating: false, count: story.chapters.count)
        var order: [Int] = []
        order.reserveCapacity(story.chapters.count)
        if let first = story.chapters.firstIndex(where: \.isFirstChapter) {
            seen[first] = true
            order.append(first)
            var next = 0
            successors.ends.withUnsafeBufferPointer { ends in
                successors.targets.withUnsafeBufferPointer { targets in
                    while next < order.count {
                        let chapter = order[next]
                        for slot in Int(ends[chapter])..<Int(ends[chapter + 1]) {
                            let target = Int(targets[slot])
                            guard !seen[target] else { continue }
                            seen[target] = true
                            order.append(target)
                        }
                        next += 1
                    }
                }
            }
        }
        let duplicates = index.repeats.map(\.chapter)
        var repeated = [Bool](repeating: false, count: story.chapters.count)
        for position in duplicates { repeated[position] = true }
        for position in story.chapters.indices where !seen[position] && !repeated[position] { order.append(position) }
        return (order, duplicates)
    }

    /// `order`: the chapters' reading order (`readingOrder`).
    static func units(of story: Story, order: [Int], line: (@Sendable (Place) -> Int)?) -> [TranslationUnit] {
        var units: [TranslationUnit] = []
        // Room for a title, a few paragraphs and choices a chapter (pages not written are not used).
        units.reserveCapacity(order.count * 8 + 2)
        add(.whole(storyName()), story.name, TranslationUnit.storyContext, Place(chapter: -1, part: 0), nil, line: line, to: &units)
        add(.whole(storySummary()), story.summary, TranslationUnit.storyContext, Place(chapter: -2, part: 0), nil, line: line, to: &units)
        // A large story's chapters are taken in two halves, the second on another thread.
        guard order.count >= 20_000 else {
            chapterUnits(story, order[...], line: line, to: &units)
            return units
        }
        let middle = order.count / 2
        let second = BackgroundWork {
            var half: [TranslationUnit] = []
            half.reserveCapacity((order.count - middle) * 8)
            chapterUnits(story, order[middle...], line: line, to: &half)
            return half
        }
        chapterUnits(story, order[..<middle], line: line, to: &units)
        var half = second.take()
        units.appendMoving(&half, leaving: TranslationUnit(id: "", source: "", context: ""))
        return units
    }

    /// The units of these chapters (positions in `story.chapters`), in their order.
    static func chapterUnits(_ story: Story, _ positions: ArraySlice<Int>, line: (@Sendable (Place) -> Int)?, to units: inout [TranslationUnit]) {
        // Each chapter's fields read where they are, through a buffer: a chapter bound to a name
        // was copied whole (a dozen strings and arrays retained and released).
        story.chapters.withUnsafeBufferPointer { chapters in
            for position in positions {
                let id = chapters[position].id, name = chapters[position].name, choices = chapters[position].choices
                add(.title, name, name, Place(chapter: position, part: 0), id, line: line, to: &units)
                for (number, text) in chapters[position].paragraphs.enumerated() {
                    add(.paragraph(number + 1), text, name, Place(chapter: position, part: 1), id, line: line, to: &units)
                }
                if let alt = chapters[position].picAlt { add(.pictureAlt, alt, name, Place(chapter: position, part: 2), id, line: line, to: &units) }
                var ordinals = ChoiceOrdinals(count: choices.count)
                for (number, choice) in choices.enumerated() {
                    let ordinal = ordinals.next(choices, number)
                    add(
                        .choice(target: choice.chapterID, ordinal: ordinal), choice.text, name, Place(chapter: position, part: 3 + number), id,
                        line: line, to: &units)
                }
            }
        }
    }

    /// A unit, when its text has something to read.
    @inline(__always)
    static func add(
        _ key: UnitKey, _ text: String, _ context: String, _ place: Place, _ chapter: String?, line: (@Sendable (Place) -> Int)?,
        to units: inout [TranslationUnit]
    ) {
        guard hasVisibleText(text) else { return }
        units.append(TranslationUnit(key: key, source: text, context: context, line: line?(place) ?? 0, chapter: chapter))
    }

    /// Whether `text` holds a character that is not whitespace, as `Character.isWhitespace`
    /// says: an ASCII letter before any other byte settles it without reading characters.
    static func hasVisibleText(_ text: String) -> Bool {
        // The bytes lent where they are (a `var` copy to call `withUTF8` on retained and released
        // the string, for every string of the story).
        let ascii: Bool?? = text.utf8.withContiguousStorageIfAvailable { bytes in
            for byte in bytes {
                guard byte < 0x80 else { return nil }
                if byte != 0x20, !(0x09...0x0D).contains(byte) { return true }
            }
            return false
        }
        return ascii.flatMap { $0 } ?? text.contains(where: { !$0.isWhitespace })
    }

    /// The ordinal of each choice of a chapter among the choices to its target (`choice`'s
    /// `ordinal`): counted among the choices before it, or kept in a table when a chapter has
    /// many.
    struct ChoiceOrdinals {
        var counts: [String: Int]?

        init(count: Int) { counts = count > 16 ? [:] : nil }

        mutating func next(_ choices: [Choice], _ number: Int) -> Int {
            let target = choices[number].chapterID
            if counts != nil {
                let ordinal = (counts![target] ?? 0) + 1
                counts![target] = ordinal
                return ordinal
            }
            var ordinal = 1
            for earlier in 0..<number where choices[earlier].chapterID == target { ordinal += 1 }
            return ordinal
        }
    }
}
