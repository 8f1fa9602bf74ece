/// A gettext PO (or POT) file: its entries as written, each with the line it starts on, so
/// findings can point into it. Reads what GNU gettext and the tools around it write (msgmerge's
/// reflowed lines, msgattrib's reordered flags, obsolete `#~` entries, previous `#|` strings);
/// writes what `msgfmt --check` accepts.
public struct POFile: Sendable, Equatable {
    public var header: POEntry?
    public var entries: [POEntry]

    public init(header: POEntry? = nil, entries: [POEntry] = []) {
        self.header = header
        self.entries = entries
    }

    /// A value of the header (`Language`, `Content-Type`...), or nil.
    public func headerField(_ name: String) -> String? {
        guard let header else { return nil }
        for line in header.translation.split(separator: "\n") {
            guard let colon = line.firstIndex(of: ":"), line[..<colon].trimmingSpaces == name else { continue }
            return String(line[line.index(after: colon)...].trimmingSpaces)
        }
        return nil
    }
}

public struct POEntry: Sendable, Equatable {
    /// `# ` lines: the translator's own.
    public var translatorComments: [String] = []
    /// `#.` lines: written by the tool that extracted the string (cyd's ids and hints).
    public var extractedComments: [String] = []
    /// `#:` references, each `file:line`.
    public var references: [String] = []
    /// `#,` flags (`fuzzy`, `no-c-format`...).
    public var flags: [String] = []
    /// `#| msgctxt` and `#| msgid`: the source as it was when the translation was made.
    public var previousContext: String?
    public var previousSource: String?
    public var context: String?
    public var source: String
    public var sourcePlural: String?
    /// `msgstr`, or `msgstr[0]`, `msgstr[1]`... for plural entries.
    public var translations: [String]
    public var isObsolete = false
    /// Where the entry starts (its first comment or keyword): line (1-based) and byte offset.
    public var line = 0
    public var offset = 0
    /// Where `msgstr` starts, for findings about the translation.
    public var translationOffset = 0

    public init(context: String? = nil, source: String, translation: String = "") {
        self.context = context
        self.source = source
        translations = [translation]
    }

    public var translation: String { translations.first ?? "" }
    public var isFuzzy: Bool { flags.contains("fuzzy") }

    /// cyd's ids of the entry (`#. id: start.text.1`); one entry can stand for several strings
    /// with the same context and text.
    public var ids: [String] {
        extractedComments.compactMap { comment in
            comment.hasPrefix(POFile.idPrefix) ? String(comment.dropFirst(POFile.idPrefix.count).trimmingSpaces) : nil
        }
    }
}

/// Why a PO file cannot be read: the place and what was expected there.
public struct POSyntaxError: Error, Sendable, Equatable {
    public var line: Int
    public var column: Int
    public var offset: Int
    public var problem: Problem

    public enum Problem: Sendable, Equatable {
        case unknownKeyword(String)
        case expectedString(after: String)
        case unterminatedString
        case badEscape(Character)
        case stringWithoutKeyword
        case missingSource
        case missingTranslation
        case invalidUTF8
        case tooLarge(limit: Int)
    }
}

extension POFile {
    static let idPrefix = "id: "
    /// Larger files are refused: a story's translation is a few megabytes at most.
    public static let maximumSize = 256 << 20

    /// Reads a PO file. Comments that are not PO's own are kept as translator comments.
    public static func parse(_ bytes: [UInt8]) throws(POSyntaxError) -> POFile {
        guard bytes.count <= maximumSize else { throw POSyntaxError(line: 1, column: 1, offset: 0, problem: .tooLarge(limit: maximumSize)) }
        var parser = POParser(bytes: bytes)
        return try parser.parse()
    }
}

extension StringProtocol {
    /// Without the spaces and tabs at either end.
    var trimmingSpaces: Substring {
        var sub = Substring(self)
        while let first = sub.first, first == " " || first == "\t" { sub = sub.dropFirst() }
        while let last = sub.last, last == " " || last == "\t" { sub = sub.dropLast() }
        return sub
    }
}

struct POParser {
    let bytes: [UInt8]
    var position = 0
    var line = 1
    var lineStart = 0

    init(bytes: [UInt8]) { self.bytes = bytes }

    /// The keyword an entry's strings belong to while they are read.
    enum Field { case previousContext, previousSource, context, source, sourcePlural, translation(Int) }

    mutating func parse() throws(POSyntaxError) -> POFile {
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { position = 3 }
        var file = POFile()
        var entry = POEntry(source: "")
        entry.translations = []
        var started = false  // the entry has a comment or keyword
        var hasSource = false
        var field: Field?
        func error(_ problem: POSyntaxError.Problem, at offset: Int) -> POSyntaxError {
            POSyntaxError(line: line, column: offset - lineStart + 1, offset: offset, problem: problem)
        }
        func finish() throws(POSyntaxError) {
            defer {
                entry = POEntry(source: "")
                entry.translations = []
                started = false
                hasSource = false
                field = nil
            }
            guard started else { return }
            guard hasSource else {
                // Comments alone (at the end of a file, or between entries) belong to nothing.
                if entry.context == nil, entry.translations.isEmpty, entry.previousSource == nil { return }
                throw POSyntaxError(line: entry.line, column: 1, offset: entry.offset, problem: .missingSource)
            }
            guard !entry.translations.isEmpty else {
                throw POSyntaxError(line: entry.line, column: 1, offset: entry.offset, problem: .missingTranslation)
            }
            if entry.source.isEmpty, entry.context == nil, !entry.isObsolete, file.header == nil, file.entries.isEmpty {
                file.header = entry
            } else {
                file.entries.append(entry)
            }
        }
        while position < bytes.count {
            let start = position
            var end = start
            while end < bytes.count, bytes[end] != 0x0A { end += 1 }
            var text = bytes[start..<end]
            if text.last == 0x0D { text = text.dropLast() }
            guard let decoded = String(validating: text, as: UTF8.self) else { throw error(.invalidUTF8, at: start) }
            defer {
                position = end + 1
                line += 1
                lineStart = position
            }
            var rest = Substring(decoded)
            var obsolete = false
            if rest.hasPrefix("#~") {
                obsolete = true
                rest = rest.dropFirst(2)
                if rest.hasPrefix(" ") { rest = rest.dropFirst() }
            }
            var trimmed = rest.trimmingSpaces
            if obsolete, trimmed.hasPrefix("|") {
                // `#~| msgid "..."`: an obsolete entry's previous source.
                trimmed = Substring("#" + trimmed)
            }
            if trimmed.isEmpty {
                if !obsolete { try finish() }
                continue
            }
            // A keyword or a comment after the entry's msgstr starts the next entry.
            let startsNew = trimmed.hasPrefix("#") || trimmed.hasPrefix("msgctxt") || trimmed.hasPrefix("msgid ") || trimmed.hasPrefix("msgid\t")
            if startsNew, case .translation = field { try finish() }
            if !started {
                started = true
                entry.line = line
                entry.offset = start
            }
            if obsolete { entry.isObsolete = true }
            if trimmed.hasPrefix("#") {
                let kind = trimmed.dropFirst().first
                let bodyText = trimmed.dropFirst(2).trimmingSpaces
                let body = String(bodyText)
                switch kind {
                case ".": entry.extractedComments.append(body)
                case ":": entry.references += body.split(separator: " ").map(String.init)
                case ",": entry.flags += body.split(separator: ",").map { String($0.trimmingSpaces) }.filter { !$0.isEmpty }
                case "|":
                    if bodyText.hasPrefix("\"") {
                        // A previous string continued on the next `#|` line.
                        let value = try string(bodyText, at: start + Self.distance(decoded, bodyText))
                        switch field {
                        case .previousContext: entry.previousContext = (entry.previousContext ?? "") + value
                        case .previousSource: entry.previousSource = (entry.previousSource ?? "") + value
                        default: throw error(.stringWithoutKeyword, at: start)
                        }
                        continue
                    }
                    let (keyword, value) = try keywordAndString(bodyText, lineOffset: start + Self.distance(decoded, bodyText))
                    switch keyword {
                    case "msgctxt": entry.previousContext = value; field = .previousContext
                    case "msgid": entry.previousSource = value; field = .previousSource
                    case "msgid_plural": field = .previousSource
                    default: throw error(.unknownKeyword(keyword), at: start)
                    }
                case "~": break
                default: entry.translatorComments.append(String(trimmed.dropFirst().trimmingSpaces))
                }
                continue
            }
            let contentOffset = start + Self.distance(decoded, trimmed)
            if trimmed.hasPrefix("\"") {
                guard let field else { throw error(.stringWithoutKeyword, at: contentOffset) }
                let value = try string(trimmed, at: contentOffset)
                switch field {
                case .previousContext: entry.previousContext! += value
                case .previousSource: entry.previousSource = (entry.previousSource ?? "") + value
                case .context: entry.context! += value
                case .source: entry.source += value
                case .sourcePlural: entry.sourcePlural! += value
                case .translation(let index): entry.translations[index] += value
                }
                continue
            }
            let (keyword, value) = try keywordAndString(trimmed, lineOffset: contentOffset)
            switch keyword {
            case "msgctxt":
                entry.context = value
                field = .context
            case "msgid":
                entry.source = value
                hasSource = true
                field = .source
            case "msgid_plural":
                entry.sourcePlural = value
                field = .sourcePlural
            case "msgstr":
                entry.translationOffset = contentOffset
                entry.translations.append(value)
                field = .translation(entry.translations.count - 1)
            default:
                if keyword.hasPrefix("msgstr["), keyword.hasSuffix("]"), Int(keyword.dropFirst(7).dropLast()) != nil {
                    if entry.translations.isEmpty { entry.translationOffset = contentOffset }
                    entry.translations.append(value)
                    field = .translation(entry.translations.count - 1)
                } else {
                    throw error(.unknownKeyword(keyword), at: contentOffset)
                }
            }
        }
        try finish()
        return file
    }

    /// Bytes from the start of `line` to where `part` (a piece of it) starts.
    static func distance(_ line: String, _ part: Substring) -> Int {
        part.base == line ? line.utf8.distance(from: line.startIndex, to: part.startIndex) : 0
    }

    /// `keyword "string"` on one line.
    func keywordAndString(_ text: Substring, lineOffset: Int) throws(POSyntaxError) -> (String, String) {
        guard let space = text.firstIndex(where: { $0 == " " || $0 == "\t" }) else {
            let keyword = String(text)
            if ["msgctxt", "msgid", "msgid_plural", "msgstr"].contains(keyword) || keyword.hasPrefix("msgstr[") {
                throw POSyntaxError(line: line, column: lineOffset - lineStart + 1 + text.utf8.count, offset: lineOffset + text.utf8.count, problem: .expectedString(after: keyword))
            }
            throw POSyntaxError(line: line, column: lineOffset - lineStart + 1, offset: lineOffset, problem: .unknownKeyword(String(keyword.prefix(40))))
        }
        let keyword = String(text[..<space])
        guard ["msgctxt", "msgid", "msgid_plural", "msgstr"].contains(keyword) || keyword.hasPrefix("msgstr[") else {
            throw POSyntaxError(line: line, column: lineOffset - lineStart + 1, offset: lineOffset, problem: .unknownKeyword(String(keyword.prefix(40))))
        }
        let rest = text[space...].trimmingSpaces
        let restOffset = lineOffset + text.utf8.distance(from: text.startIndex, to: rest.startIndex)
        guard rest.hasPrefix("\"") else {
            throw POSyntaxError(line: line, column: restOffset - lineStart + 1, offset: restOffset, problem: .expectedString(after: keyword))
        }
        return (keyword, try string(rest, at: restOffset))
    }

    /// A quoted string with C escapes, nothing after it but spaces.
    func string(_ text: Substring, at offset: Int) throws(POSyntaxError) -> String {
        var result = ""
        var index = text.index(after: text.startIndex)
        var byte = offset + 1
        func fail(_ problem: POSyntaxError.Problem) -> POSyntaxError {
            POSyntaxError(line: line, column: byte - lineStart + 1, offset: byte, problem: problem)
        }
        while index < text.endIndex {
            let character = text[index]
            if character == "\"" {
                let after = text[text.index(after: index)...]
                guard after.allSatisfy({ $0 == " " || $0 == "\t" }) else { throw fail(.unterminatedString) }
                return result
            }
            if character == "\\" {
                let next = text.index(after: index)
                guard next < text.endIndex else { throw fail(.unterminatedString) }
                let escape = text[next]
                switch escape {
                case "n": result.append("\n")
                case "t": result.append("\t")
                case "r": result.append("\r")
                case "\"": result.append("\"")
                case "\\": result.append("\\")
                case "a": result.append("\u{07}")
                case "b": result.append("\u{08}")
                case "f": result.append("\u{0C}")
                case "v": result.append("\u{0B}")
                default:
                    if let digit = escape.wholeNumberValue, digit < 8 {
                        // Up to three octal digits.
                        var value = 0
                        var cursor = next
                        var count = 0
                        while cursor < text.endIndex, count < 3, let d = text[cursor].wholeNumberValue, d < 8 {
                            value = value * 8 + d
                            cursor = text.index(after: cursor)
                            count += 1
                        }
                        result.unicodeScalars.append(Unicode.Scalar(UInt8(truncatingIfNeeded: value)))
                        byte += 1 + count
                        index = cursor
                        continue
                    }
                    throw fail(.badEscape(escape))
                }
                byte += 1 + escape.utf8.count
                index = text.index(after: next)
                continue
            }
            result.append(character)
            byte += character.utf8.count
            index = text.index(after: index)
        }
        throw fail(.unterminatedString)
    }
}
