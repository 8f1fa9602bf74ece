/// A Swift file split the way the architecture checks need it: its code with every comment and
/// string literal blanked out (line numbers kept), and the text of every string literal with the
/// line it starts on. Not a parser: enough of Swift's lexical rules that nothing the checks look
/// for hides in a place they skip (an indented or attributed import, a multi-line or raw string,
/// a comment nested in a comment, code inside a string's interpolation).
struct SwiftSourceScan {
    struct Literal: Equatable {
        let line: Int
        let text: String
    }

    /// The file with comments and string contents replaced by spaces (newlines kept).
    private(set) var code = ""
    /// Every string literal's contents, in order; an interpolation is U+FFFC in its text (the
    /// strings inside it are literals of their own).
    private(set) var literals: [Literal] = []

    init(_ source: String) {
        // Bytes, not Characters: every character the lexer cares about is ASCII, and UTF-8 never
        // uses an ASCII byte inside a longer sequence.
        let bytes = Array(source.utf8)
        let quote = UInt8(ascii: "\""), hash = UInt8(ascii: "#"), slash = UInt8(ascii: "/"), star = UInt8(ascii: "*")
        let newline = UInt8(ascii: "\n"), backslash = UInt8(ascii: "\\"), open = UInt8(ascii: "("), close = UInt8(ascii: ")")
        let space = UInt8(ascii: " ")
        var index = 0
        var line = 1
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var found: [Literal] = []

        func at(_ offset: Int) -> UInt8? { index + offset < bytes.count ? bytes[index + offset] : nil }
        func emit(_ byte: UInt8, blank: Bool) {
            if byte == newline { line += 1 }
            // A blanked multi-byte character becomes one space per byte: columns are not used.
            output.append(blank && byte != newline ? space : byte)
        }

        /// Code until an unmatched `)` (an interpolation) or the end; strings and comments inside
        /// are scanned as everywhere else.
        func scanCode(untilCloseParen: Bool) {
            var depth = 0
            while index < bytes.count {
                let byte = bytes[index]
                if byte == slash, at(1) == slash {
                    while index < bytes.count, bytes[index] != newline { emit(bytes[index], blank: true); index += 1 }
                } else if byte == slash, at(1) == star {
                    scanBlockComment()
                } else if byte == hash || byte == quote {
                    var hashes = 0
                    while at(hashes) == hash { hashes += 1 }
                    if at(hashes) == quote {
                        scanString(hashes: hashes)
                    } else {
                        emit(byte, blank: false)
                        index += 1
                    }
                } else {
                    if untilCloseParen {
                        if byte == open { depth += 1 }
                        if byte == close {
                            if depth == 0 { return }
                            depth -= 1
                        }
                    }
                    emit(byte, blank: false)
                    index += 1
                }
            }
        }

        func scanBlockComment() {
            var depth = 0
            while index < bytes.count {
                if bytes[index] == slash, at(1) == star {
                    depth += 1
                    emit(slash, blank: true); emit(star, blank: true)
                    index += 2
                } else if bytes[index] == star, at(1) == slash {
                    depth -= 1
                    emit(star, blank: true); emit(slash, blank: true)
                    index += 2
                    if depth == 0 { return }
                } else {
                    emit(bytes[index], blank: true)
                    index += 1
                }
            }
        }

        /// Whether `quotes` quotes and then `hashes` #s start at `index`.
        func closes(quotes: Int, hashes: Int) -> Bool {
            for offset in 0..<quotes where at(offset) != quote { return false }
            for offset in quotes..<(quotes + hashes) where at(offset) != hash { return false }
            return true
        }

        /// A string literal starting at `index` after `hashes` #s: "…", """…""", #"…"#, …
        func scanString(hashes: Int) {
            let startLine = line
            for _ in 0..<hashes { emit(hash, blank: false); index += 1 }
            let multiline = at(0) == quote && at(1) == quote && at(2) == quote
            let quotes = multiline ? 3 : 1
            for _ in 0..<quotes { emit(quote, blank: false); index += 1 }
            var text: [UInt8] = []
            while index < bytes.count {
                if closes(quotes: quotes, hashes: hashes) {
                    for _ in 0..<(quotes + hashes) { emit(bytes[index], blank: false); index += 1 }
                    break
                }
                if !multiline, bytes[index] == newline { break }  // unterminated: stop at the line's end
                // An escape: a backslash and then as many #s as opened the string.
                if bytes[index] == backslash, (1...max(1, hashes + 1)).allSatisfy({ $0 > hashes || at($0) == hash }) {
                    let after = index + 1 + hashes
                    if after < bytes.count, bytes[after] == open {
                        // An interpolation: code (its own strings are literals of their own),
                        // shown in this literal's text as a placeholder.
                        while index <= after { emit(bytes[index], blank: true); index += 1 }
                        scanCode(untilCloseParen: true)
                        text += Array("\u{FFFC}".utf8)
                        if index < bytes.count { emit(close, blank: true); index += 1 }
                        continue
                    }
                    while index < after { text.append(bytes[index]); emit(bytes[index], blank: true); index += 1 }
                    if index < bytes.count { text.append(bytes[index]); emit(bytes[index], blank: true); index += 1 }
                    continue
                }
                text.append(bytes[index])
                emit(bytes[index], blank: true)
                index += 1
            }
            found.append(Literal(line: startLine, text: String(decoding: text, as: UTF8.self)))
        }

        scanCode(untilCloseParen: false)
        code = String(decoding: output, as: UTF8.self)
        literals = found
    }

    /// The code's lines, numbered from 1.
    var codeLines: [(number: Int, line: Substring)] {
        code.split(separator: "\n", omittingEmptySubsequences: false).enumerated().map { ($0.offset + 1, $0.element) }
    }

    /// The modules the file imports, wherever the import stands (indented under `#if`, with
    /// attributes, an access level or a declaration kind): `import struct Foo.Bar` imports Foo.
    var imports: [(number: Int, module: String)] {
        codeLines.compactMap { number, line in
            guard let match = line.firstMatch(of: Self.importPattern) else { return nil }
            return (number, String(match.output.module))
        }
    }

    nonisolated(unsafe) static let importPattern =
        /^\s*(?:@[A-Za-z_]+(?:\([^)]*\))?\s+)*(?:(?:public|package|internal|fileprivate|private)\s+)?import\s+(?:(?:typealias|struct|class|enum|protocol|let|var|func)\s+)?(?<module>[A-Za-z_][A-Za-z0-9_]*)/
}
