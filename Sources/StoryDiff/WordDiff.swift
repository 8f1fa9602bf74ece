/// A text change word by word: the old and new texts as runs of words kept, removed and added.
public struct WordDiff: Sendable, Hashable {
    public enum Kind: String, Sendable, Hashable { case kept, removed, added }

    public struct Run: Sendable, Hashable {
        public var kind: Kind
        public var text: String
    }

    public var runs: [Run]
    /// Words removed and added (white space is not counted).
    public var removedWords: Int
    public var addedWords: Int

    /// The longest middle compared word by word (old × new tokens, after the common beginning
    /// and end are set aside); a larger change is shown as the whole middle replaced.
    public static let comparisonLimit = 4_000_000

    public init(old: String, new: String) {
        let a = Self.tokens(old), b = Self.tokens(new)
        var prefix = 0
        while prefix < a.count, prefix < b.count, a[prefix] == b[prefix] { prefix += 1 }
        var suffix = 0
        while suffix < a.count - prefix, suffix < b.count - prefix, a[a.count - 1 - suffix] == b[b.count - 1 - suffix] { suffix += 1 }
        let oldMiddle = Array(a[prefix..<(a.count - suffix)]), newMiddle = Array(b[prefix..<(b.count - suffix)])
        var runs: [Run] = []
        func add(_ kind: Kind, _ token: Substring) {
            if let last = runs.last, last.kind == kind {
                runs[runs.count - 1].text += token
            } else {
                runs.append(Run(kind: kind, text: String(token)))
            }
        }
        for token in a[..<prefix] { add(.kept, token) }
        if oldMiddle.count * newMiddle.count > Self.comparisonLimit {
            for token in oldMiddle { add(.removed, token) }
            for token in newMiddle { add(.added, token) }
        } else {
            for (kind, token) in Self.lcs(oldMiddle, newMiddle) { add(kind, token) }
        }
        for token in a[(a.count - suffix)...] { add(.kept, token) }
        self.runs = runs
        removedWords = runs.filter { $0.kind == .removed }.reduce(0) { $0 + Self.words($1.text) }
        addedWords = runs.filter { $0.kind == .added }.reduce(0) { $0 + Self.words($1.text) }
    }

    /// Words, runs of white space, and each other character (punctuation) as tokens: "Rock," is
    /// "Rock" and ",", so a comma added after a word does not replace the word.
    static func tokens(_ text: String) -> [Substring] {
        enum Class { case word, space, other }
        func kind(_ character: Character) -> Class {
            character.isWhitespace ? .space : (character.isLetter || character.isNumber || character == "'" || character == "’") ? .word : .other
        }
        func kind(ascii byte: UInt8) -> Class {
            switch byte {
            case 0x09...0x0D, 0x20: .space
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "'"): .word
            default: .other
            }
        }
        let utf8 = text.utf8
        var tokens: [Substring] = []
        var start = text.startIndex
        var current: Class?
        var index = text.startIndex
        while index < text.endIndex {
            // An ASCII character followed by another (or the end) is a character of its own,
            // classed without Unicode's tables; anything else is read as a whole character.
            let byte = utf8[index], following = utf8.index(after: index)
            let here: Class, next: String.Index
            if byte < 0x80, following == utf8.endIndex || utf8[following] < 0x80 {
                (here, next) = (kind(ascii: byte), following)
            } else {
                (here, next) = (kind(text[index]), text.index(after: index))
            }
            if let current, current != here || here == .other {
                tokens.append(text[start..<index])
                start = index
            }
            current = here
            index = next
        }
        if start < text.endIndex { tokens.append(text[start...]) }
        return tokens
    }

    static func words(_ text: String) -> Int { text.split(whereSeparator: \.isWhitespace).count }

    /// The longest common subsequence's edit script, removals before additions at each place.
    static func lcs(_ a: [Substring], _ b: [Substring]) -> [(Kind, Substring)] {
        let n = a.count, m = b.count
        if n == 0 { return b.map { (.added, $0) } }
        if m == 0 { return a.map { (.removed, $0) } }
        // lengths[i][j]: the LCS of a[i...] and b[j...], row-major in one array.
        var lengths = [Int32](repeating: 0, count: (n + 1) * (m + 1))
        for i in stride(from: n - 1, through: 0, by: -1) {
            for j in stride(from: m - 1, through: 0, by: -1) {
                lengths[i * (m + 1) + j] = a[i] == b[j] ? lengths[(i + 1) * (m + 1) + j + 1] + 1 : max(lengths[(i + 1) * (m + 1) + j], lengths[i * (m + 1) + j + 1])
            }
        }
        var script: [(Kind, Substring)] = []
        var i = 0, j = 0
        while i < n, j < m {
            if a[i] == b[j] {
                script.append((.kept, a[i]))
                i += 1
                j += 1
            } else if lengths[(i + 1) * (m + 1) + j] >= lengths[i * (m + 1) + j + 1] {
                script.append((.removed, a[i]))
                i += 1
            } else {
                script.append((.added, b[j]))
                j += 1
            }
        }
        while i < n {
            script.append((.removed, a[i]))
            i += 1
        }
        while j < m {
            script.append((.added, b[j]))
            j += 1
        }
        return script
    }
}
