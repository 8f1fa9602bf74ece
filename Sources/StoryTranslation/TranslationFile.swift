import StoryFormat

/// A translation as read from a PO or XLIFF file: its language and its entries, whichever
/// format they came from. Validation, merging, status and the library all work on this.
public struct TranslationFile: Sendable {
    public enum Format: String, Sendable, CaseIterable {
        case po, xliff
        /// The file name's extension.
        public var fileExtension: String {
            switch self {
            case .po: "po"
            case .xliff: "xlf"
            }
        }
        /// Whether strings of the same context and text share one entry: PO's rule (msgfmt refuses
        /// two such entries); XLIFF keeps a unit for each string.
        public var groupsSameText: Bool {
            switch self {
            case .po: true
            case .xliff: false
            }
        }
        /// The template is written straight from the strings (PO's template has no targets to
        /// carry); XLIFF's is a merge with no translation.
        public var writesTemplateDirectly: Bool {
            switch self {
            case .po: true
            case .xliff: false
            }
        }
        /// The name of the template in translations/: gettext's story.pot, or story.xlf.
        public var templateFileName: String {
            switch self {
            case .po: "story.pot"
            case .xliff: "story.xlf"
            }
        }
        /// The format a file's name says, or nil.
        public init?(fileName: String) {
            let lower = fileName.lowercased()
            if lower.hasSuffix(".po") || lower.hasSuffix(".pot") {
                self = .po
            } else if lower.hasSuffix(".xlf") || lower.hasSuffix(".xliff") {
                self = .xliff
            } else {
                return nil
            }
        }
    }

    public var format: Format
    /// The language the file says it is in (PO `Language:`, XLIFF `trgLang`), as written.
    public var declaredLanguage: String?
    /// Where the declaration is, for findings about it.
    public var languageOffset: Int?
    public var entries: [TranslationEntry]
    /// Obsolete PO entries (`#~`), kept so an update can bring them back.
    public var obsolete: [TranslationEntry]
    /// A PO file's header entry (its fields and comments), kept through updates.
    public var poHeader: POEntry?

    public init(format: Format, declaredLanguage: String? = nil, languageOffset: Int? = nil, entries: [TranslationEntry], obsolete: [TranslationEntry] = []) {
        self.format = format
        self.declaredLanguage = declaredLanguage
        self.languageOffset = languageOffset
        self.entries = entries
        self.obsolete = obsolete
    }
}

/// One translated string (or several with the same context and text, in a PO file).
public struct TranslationEntry: Sendable, Equatable {
    /// cyd's ids; empty when a tool dropped the id comments (then context and source find the string).
    public var ids: [String] {
        get { firstID.map { [$0] + otherIDs } ?? [] }
        set { (firstID, otherIDs) = (newValue.first, Array(newValue.dropFirst())) }
    }
    /// The first of `ids`, the string the entry was written for. Kept apart from the others:
    /// almost every entry has one id, and an array holding it would be an allocation an entry
    /// (a 100,000-chapter story's translation is 600,000 of them).
    public private(set) var firstID: String?
    /// The ids after the first: strings of the same context and text, which PO lists in one entry.
    public private(set) var otherIDs: [String] = []
    /// `ids` one by one, without making an array of them.
    public var eachID: EachID { EachID(first: firstID, others: otherIDs) }
    public var context: String?
    /// The original text the translation was made from.
    public var source: String
    public var translation: String
    /// The original text before its last change, when an update kept it (`#| msgid`).
    public var previousSource: String? {
        get { rareFields.previousSource }
        set { rareFields.previousSource = newValue }
    }
    /// Translator comments, kept through updates.
    public var comments: [String] {
        get { rareFields.comments }
        set { rareFields.comments = newValue }
    }
    /// Where the entry and its translation start in the file.
    public var offset: Int
    public var translationOffset: Int
    /// Inline elements an XLIFF source or target held (`b`, `pc`...), by name, each once: a
    /// story's strings are plain text, so they were read as their text alone, and that is said.
    public var inlineMarkup: [String] {
        get { rareFields.inlineMarkup }
        set { rareFields.inlineMarkup = newValue }
    }
    /// Marked for review (PO `fuzzy`, XLIFF `state="initial"` with a target).
    public var isFuzzy: Bool

    /// What few entries have, held apart (nil for the others): an entry is a fifth smaller, and
    /// a large translation's entries are held at once.
    private var rare: Rare?
    /// Whether the entry holds any of the fields few entries have (inline markup among them):
    /// read without the entry copied, where the entry is (`UnsafeBufferPointer`'s element).
    var hasRareFields: Bool { rare != nil }
    private indirect enum Rare: Sendable, Equatable { case fields(RareFields) }
    private struct RareFields: Sendable, Equatable {
        var previousSource: String?
        var comments: [String] = []
        var inlineMarkup: [String] = []
    }
    private static func rare(previousSource: String?, comments: [String]) -> Rare? {
        previousSource == nil && comments.isEmpty ? nil : .fields(RareFields(previousSource: previousSource, comments: comments))
    }
    private var rareFields: RareFields {
        get {
            guard case .fields(let fields)? = rare else { return RareFields() }
            return fields
        }
        set { rare = newValue == RareFields() ? nil : .fields(newValue) }
    }

    /// Whether readers are shown it: translated, and not waiting for review.
    public var isUsable: Bool { !isFuzzy && !translation.isEmpty }

    /// An entry's ids in order: the first, then the others.
    public struct EachID: Sequence, IteratorProtocol {
        var first: String?
        var others: [String]
        var position = 0
        public mutating func next() -> String? {
            if let id = first.take() { return id }
            guard position < others.count else { return nil }
            position += 1
            return others[position - 1]
        }
    }
}

// The initializers are in an extension, so the struct keeps its own memberwise initializer.
extension TranslationEntry {
    public init(
        ids: [String], context: String?, source: String, translation: String, isFuzzy: Bool = false, previousSource: String? = nil,
        comments: [String] = [], offset: Int = 0, translationOffset: Int = 0
    ) {
        self = .read(
            firstID: ids.first, otherIDs: Array(ids.dropFirst()), context: context, source: source, translation: translation, isFuzzy: isFuzzy,
            previousSource: previousSource, comments: comments, offset: offset, translationOffset: translationOffset)
    }

    /// An entry as a PO file is read: its first id and the others apart (none without a first).
    /// Made by the memberwise initializer: an initializer that sets the fields one by one made the
    /// entry and then copied it, every string retained and released, an entry at a time (the
    /// outlined copy in the disassembly, with Swift 6.3).
    static func read(
        firstID: String?, otherIDs: [String], context: String?, source: String, translation: String, isFuzzy: Bool, previousSource: String?,
        comments: [String], offset: Int, translationOffset: Int
    ) -> TranslationEntry {
        TranslationEntry(
            firstID: firstID, otherIDs: otherIDs, context: context, source: source, translation: translation, offset: offset,
            translationOffset: translationOffset, isFuzzy: isFuzzy, rare: rare(previousSource: previousSource, comments: comments))
    }
}

/// Why a translation file cannot be read.
public struct TranslationReadError: Error, Sendable, Equatable {
    public var line: Int
    public var column: Int
    public var offset: Int
    public var problem: String
}

extension TranslationReadError {
    /// A PO file's syntax error, at its place.
    init(_ error: POSyntaxError) {
        self.init(line: error.line, column: error.column, offset: error.offset, problem: error.problem.sentence)
    }
}

extension TranslationFile {
    /// Reads a PO or XLIFF file from its bytes as `SourceBytes`: a large PO file mapped is read
    /// where it is, its pages given back as it is read.
    public static func read(_ source: SourceBytes, format: Format) throws(TranslationReadError) -> TranslationFile {
        guard format == .po else { return try read(source.array, format: format) }
        source.beginPass()
        defer { source.endPass() }
        do {
            return try POFile.translationFile(source)
        } catch {
            throw TranslationReadError(error)
        }
    }

    /// Reads a PO or XLIFF file.
    public static func read(_ bytes: [UInt8], format: Format) throws(TranslationReadError) -> TranslationFile {
        switch format {
        case .po:
            do {
                return try POFile.translationFile(bytes)
            } catch {
                throw TranslationReadError(error)
            }
        case .xliff:
            return try XLIFF.read(bytes)
        }
    }

    init(po: POFile) {
        format = .po
        declaredLanguage = po.headerField("Language").flatMap { $0.isEmpty ? nil : $0 }
        languageOffset = po.header.map { $0.translationOffset }
        poHeader = po.header
        func entry(_ entry: POEntry) -> TranslationEntry {
            TranslationEntry(
                ids: entry.ids, context: entry.context, source: entry.source, translation: entry.translation, isFuzzy: entry.isFuzzy,
                previousSource: entry.previousSource, comments: entry.translatorComments, offset: entry.offset,
                translationOffset: entry.translationOffset)
        }
        var entries: [TranslationEntry] = []
        entries.reserveCapacity(po.entries.count)
        var obsolete: [TranslationEntry] = []
        for index in po.entries.indices {
            if po.entries[index].isObsolete { obsolete.append(entry(po.entries[index])) } else { entries.append(entry(po.entries[index])) }
        }
        self.entries = entries
        self.obsolete = obsolete
    }
}

extension POSyntaxError.Problem {
    /// What is wrong, as a clause.
    public var sentence: String {
        switch self {
        case .unknownKeyword(let word): "'\(word)' is not a PO keyword (msgctxt, msgid, msgid_plural, msgstr)"
        case .expectedString(let keyword): "\(keyword) must be followed by a string in double quotes"
        case .unterminatedString: "a string is not closed with a double quote (write \\\" for a quote inside it)"
        case .badEscape(let character):
            "\\\(character) is not an escape PO knows (\\n \\t \\r \\a \\b \\f \\v \\\" \\\\, \\ and up to three octal digits, \\x and hex digits)"
        case .stringWithoutKeyword: "a string in quotes continues nothing: it must follow msgctxt, msgid or msgstr"
        case .missingSource: "an entry has no msgid"
        case .missingTranslation: "an entry has no msgstr (write msgstr \"\" for one not yet translated)"
        case .invalidUTF8: "the line is not UTF-8 (save the file as UTF-8)"
        case .tooLarge(let limit): "the file is larger than \(limit >> 20) MB"
        }
    }
}
