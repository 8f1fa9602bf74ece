import Foundation
import Testing

@testable import StoryCheck
@testable import StoryFormat

/// What makes a flawed file cost what a clean one costs: every finding's pointer, position and
/// suggestion comes from work done once for the file, and those shared results must equal the
/// answers worked out one at a time.
@Suite("Findings at linear cost")
struct LinearCostTests {
    /// A nested document with arrays, objects, escapes and non-ASCII keys.
    static let nested = #"{"a/b": {"m~n": [0, {"x": true, "é🦊": [1, 2, [3, {"y\"z": null}]]}]}, "list": [[], {}, "s", 4]}"#

    /// The pointer of a node found the slow way: by searching the tree from the root.
    static func slowPointer(_ document: JSONDocument, to target: Int) -> String? {
        func search(_ node: Int, _ path: String) -> String? {
            if node == target { return path }
            switch document.kind(node) {
            case .object:
                for (key, value) in document.members(of: node) {
                    let token = document.string(key).replacingOccurrences(of: "~", with: "~0").replacingOccurrences(of: "/", with: "~1")
                    if key == target { return path + "/" + token }
                    if let found = search(value, path + "/" + token) { return found }
                }
            case .array:
                for (index, element) in document.elements(of: node).enumerated() {
                    if let found = search(element, path + "/\(index)") { return found }
                }
            default: break
            }
            return nil
        }
        return search(0, "")
    }

    @Test("pointers to many nodes at once equal the pointer of each, in any order and with repeats")
    func batchPointers() throws {
        let document = try #require(JSONParser().parse(Array(Self.nested.utf8)).document)
        let all = Array(document.nodes.indices)
        let expected = all.map { Self.slowPointer(document, to: $0) }
        #expect(document.pointers(to: all).map(Optional.some) == expected)
        let shuffled = all.reversed() + all.filter { $0 % 3 == 0 }
        #expect(document.pointers(to: Array(shuffled)).map(Optional.some) == shuffled.map { Self.slowPointer(document, to: $0) })
    }

    @Test("positions of many offsets in one sweep equal each offset's own, on CRLF, BOM, tabs and invalid bytes")
    func batchPositions() {
        var bytes: [UInt8] = [0xEF, 0xBB, 0xBF]
        bytes += Array("{ \"é\": \"🦊\tx\",\r\n  \"k\": [1,\n2], \"bad\": \"".utf8) + [0x80, 0xC3, 0x41] + Array("\" }\n".utf8)
        let lines = LineIndex(bytes)
        let offsets = Array(0...bytes.count) + [bytes.count + 5, -3] + Array((0...bytes.count).reversed())
        #expect(LineIndex.locate(offsets, in: bytes).map(\.position) == offsets.map { lines.position(of: $0) })
        #expect(LineIndex.locate(offsets, in: bytes).map(\.lineStart) == offsets.map { lines.start(ofLine: lines.position(of: $0).line) })
    }

    @Test("columns on a long line, counted eight bytes at a time, are the byte rule's: continuation bytes, stray ones, a BOM")
    func columnsOnLongLines() {
        // The rule spelled out a byte at a time: a column for each byte that is not 10xxxxxx,
        // and for a 10xxxxxx byte at the line's start or after an ASCII byte.
        func column(_ bytes: [UInt8], _ offset: Int, lineStart: Int) -> Int {
            var column = 1
            for index in lineStart..<offset where bytes[index] & 0xC0 != 0x80 || index == lineStart || bytes[index - 1] < 0x80 { column += 1 }
            return column
        }
        var random = SplitMix64(state: 1_129)  // a seed: a failure is found again
        let pieces: [[UInt8]] = [Array("plain words ".utf8), Array("é".utf8), Array("🦊".utf8), Array("中文".utf8), [0x80], [0xBF, 0x80], [0xC3], [0xF0, 0x9F], [0x41, 0x80, 0x80]]
        for round in 0..<40 {
            var bytes: [UInt8] = round % 4 == 0 ? [0xEF, 0xBB, 0xBF] : []
            if round % 5 == 1 { bytes += [0x80, 0x80] }  // stray continuation bytes first on the line
            while bytes.count < 600 { bytes += pieces[Int.random(in: 0..<pieces.count, using: &random)] }
            let lineStart = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
            let offsets = Array(0...bytes.count)
            let expected = offsets.map { SourcePosition(line: 1, column: $0 <= lineStart ? 1 : column(bytes, $0, lineStart: lineStart)) }
            #expect(LineIndex.locate(offsets, in: bytes).map(\.position) == expected, "bytes \(bytes)")
            #expect(offsets.map { LineIndex(bytes).position(of: $0) } == expected)
            // From a place on the line other than its start, as a sweep goes on from a finding.
            for from in stride(from: lineStart + 1, to: bytes.count, by: 37) {
                let counted = bytes.withUnsafeBufferPointer { LineIndex.columns($0, from: from, to: bytes.count, lineStart: lineStart) }
                #expect(counted == column(bytes, bytes.count, lineStart: lineStart) - column(bytes, from, lineStart: lineStart))
            }
        }
    }

    @Test("suggestions among many ids find a typo at the start, the middle or the end, and nothing far away")
    func suggestionIndex() throws {
        let ids = (0..<20_000).map { String(format: "chapter-%05d", $0) } + ["Cellar_Door"]
        let index = SuggestionIndex(ids)
        #expect(index.nearest(to: "chaptre-01234") == "chapter-01234")
        #expect(index.nearest(to: "xhapter-01234") == "chapter-01234")
        let dropped = try #require(index.nearest(to: "chapter-0123"), "a dropped digit")
        #expect(KeySuggestion.editDistance(Array("chapter-0123".unicodeScalars), Array(dropped.unicodeScalars), limit: 3) == 1)
        #expect(index.nearest(to: "chapter-12345x") == "chapter-12345")
        #expect(index.nearest(to: "cellar door") == "Cellar_Door", "folded match: case, '_', '-' and spaces")
        #expect(index.nearest(to: "completely-different") == nil)
        #expect(SuggestionIndex(["cellar", "attic"]).nearest(to: "celar") == "cellar", "small sets are searched whole")
        #expect(SuggestionIndex(["a", "b"]).nearest(to: "c") == nil, "short ids get no fuzzy match")
    }

    @Test("ids in other scripts fold as ASCII ids do, among many: case, '_', '-' and spaces, letter by letter")
    func suggestionsBeyondASCII() {
        let ids = (0..<500).map { "chapter-\($0)" } + ["Église_Haute", "ÇA-VA", "Straße Ende", "big_HALL"]
        for index in [SuggestionIndex(ids), SuggestionIndex(Array(ids.suffix(4)))] {
            #expect(index.nearest(to: "église haute") == "Église_Haute")
            #expect(index.nearest(to: "églis-haute") == "Église_Haute", "one letter dropped, beside a folded '-'")
            #expect(index.nearest(to: "ça va") == "ÇA-VA")
            #expect(index.nearest(to: "straße-ende") == "Straße Ende")
            #expect(index.nearest(to: "Big Hall") == "big_HALL")
            #expect(index.nearest(to: "bighal") == "big_HALL")
        }
    }

    /// A large index sorts its two orders on two threads, and the missing-target rule asks for
    /// many suggestions on two threads: the answers must be those of one thread, in order.
    @Test("suggestions made on two threads are the ones one thread makes, in the same order")
    func suggestionsOnTwoThreads() {
        let ids = (0..<3_000).map { String(format: "chapter-%05d", ($0 * 7_919) % 3_000) } + ["Cellar_Door", "cellar-door", "attic"]
        let one = SuggestionIndex(ids, parallelFrom: .max)
        let two = SuggestionIndex(ids, parallelFrom: 2)
        let queries = (0..<600).map { n in
            switch n % 6 {
            case 0: String(format: "chaptre-%05d", n)
            case 1: String(format: "xhapter-%05d", n)
            case 2: String(format: "chapter-%04d", n)
            case 3: "cellar door"
            case 4: "completely-different-\(n)"
            default: String(format: "chapter-%05dx", n)
            }
        }
        #expect(queries.map(two.nearest) == queries.map(one.nearest))
        #expect(MissingChoiceTarget.nearest(queries, in: one, parallelFrom: 2) == queries.map(one.nearest))
        #expect(MissingChoiceTarget.nearest(Array(queries.prefix(3)), in: one, parallelFrom: 2) == queries.prefix(3).map(one.nearest))
    }

    /// The whole table of edits, cell by cell: the rule both fast ways must agree with.
    static func fullDistance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar]) -> Int {
        var row = Array(0...b.count)
        for i in 1...max(1, a.count) where !a.isEmpty {
            var next = [i] + Array(repeating: 0, count: b.count)
            for j in 1...max(1, b.count) where !b.isEmpty {
                next[j] = min(row[j] + 1, next[j - 1] + 1, row[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            row = next
        }
        return a.isEmpty ? b.count : row[b.count]
    }

    /// Random texts over a few letters (so that they share many), ASCII and not, up to 70
    /// letters: past the 64 that the question's bits hold.
    static func randomScalars(_ random: inout SplitMix64, upTo most: Int) -> [Unicode.Scalar] {
        let letters: [Unicode.Scalar] = ["a", "b", "c", "-", "0", "é", "🦊", "ß", "\u{7F}", "\u{80}"]
        let count = Int.random(in: 0...most, using: &random)
        return (0..<count).map { _ in letters[Int.random(in: 0..<(Int.random(in: 0..<4, using: &random) == 0 ? letters.count : 3), using: &random)] }
    }

    @Test("the bit-parallel distance of a question to many candidates is the table's, up to its limit")
    func distancePattern() {
        var random = SplitMix64(state: 8_191)  // a seed: a failure is found again
        var compared = 0
        for round in 0..<3_000 {
            let question = Self.randomScalars(&random, upTo: round % 10 == 0 ? 70 : 16)
            let candidate = Int.random(in: 0..<3, using: &random) == 0 ? question.shuffled(using: &random) : Self.randomScalars(&random, upTo: round % 10 == 0 ? 70 : 16)
            let limit = Int.random(in: 0...6, using: &random)
            guard let pattern = KeySuggestion.DistancePattern(question) else {
                #expect(question.isEmpty || question.count > 64, "only empty or long questions have no pattern")
                continue
            }
            let expected = min(Self.fullDistance(question, candidate), limit + 1)
            #expect(pattern.distance(to: candidate, limit: limit) == expected, "\(question) / \(candidate) / \(limit)")
            if candidate.allSatisfy(\.isASCII) {
                let bytes = candidate.map { UInt8($0.value) }
                #expect(bytes.withUnsafeBufferPointer { pattern.distance(toASCII: $0, limit: limit) } == expected)
            }
            compared += 1
        }
        #expect(compared > 2_500)
    }

    @Test("the two orders of a suggestion index are those of a plain sort: by bytes, read forwards or backwards, equal texts in file order")
    func suggestionOrders() {
        var random = SplitMix64(state: 524_287)  // a seed: a failure is found again
        // Texts that share long starts and ends, tie in their first eight bytes after what they
        // share, hold zero bytes (a short text against the same one with zeros after it),
        // repeat, or are empty.
        let pieces: [[UInt8]] = [[], [0], [0, 0], Array("chapter-".utf8), Array("-end".utf8), Array("abcdefgh".utf8), [0xC3, 0xA9], Array("x".utf8), Array("0123456789".utf8)]
        for round in 0..<60 {
            let count = round % 3 == 0 ? Int.random(in: 0...4, using: &random) : Int.random(in: 5...400, using: &random)
            let prefix = round % 2 == 0 ? Array("chapter-".utf8) : []
            let texts: [[UInt8]] = (0..<count).map { _ in
                prefix + (0..<Int.random(in: 0...5, using: &random)).flatMap { _ in pieces[Int.random(in: 0..<pieces.count, using: &random)] }
            }
            let folded = texts.flatMap { $0 }
            var starts: [Int32] = [0]
            for text in texts { starts.append(starts.last! + Int32(text.count)) }
            for reversed in [false, true] {
                let expected = (0..<Int32(count)).sorted { a, b in
                    let (x, y) = (texts[Int(a)], texts[Int(b)])
                    let (p, q) = reversed ? (Array(x.reversed()), Array(y.reversed())) : (x, y)
                    return p == q ? a < b : p.lexicographicallyPrecedes(q)
                }
                #expect(SuggestionIndex.sorted(count, folded, starts, reversed: reversed) == expected, "round \(round), reversed \(reversed)")
            }
        }
    }

    @Test("the banded edit distance agrees with the full one up to its limit")
    func editDistance() {
        let words = ["", "a", "ab", "abc", "kitten", "sitting", "flaw", "lawn", "chapter", "chaptre", "🦊é", "é🦊x", "intention", "execution"]
        for a in words {
            for b in words {
                let (x, y) = (Array(a.unicodeScalars), Array(b.unicodeScalars))
                for limit in 0...4 {
                    #expect(KeySuggestion.editDistance(x, y, limit: limit) == min(Self.fullDistance(x, y), limit + 1), "\(a) / \(b) / \(limit)")
                }
            }
        }
    }
}
