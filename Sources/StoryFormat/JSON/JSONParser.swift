/// Reads JSON into a `JSONDocument`, keeping the byte range of every value.
///
/// Strict by default. Trailing commas, comments and raw control characters in strings are
/// always read past (so one run reports everything) and reported: as errors when strict, as
/// warnings when lenient. Syntax errors that leave no sensible way on stop the reading with one
/// error at the exact byte. Nesting is limited, and the parser is never recursive past it.
public struct JSONParser: Sendable {
    public struct Options: Sendable, Hashable {
        /// Accept trailing commas, comments and raw control characters as warnings.
        public var lenient: Bool
        /// Deepest nesting of arrays and objects accepted.
        public var maximumDepth: Int
        /// Largest file accepted, in bytes (positions are 32-bit).
        public var maximumSize: Int
        /// What a `\uD800` with no partner is: an error (a story's file), or read as U+FFFD
        /// with nothing said (JSON-RPC from an editor, whose strings may hold one).
        public var loneSurrogates: LoneSurrogates

        public enum LoneSurrogates: Sendable, Hashable {
            case reported, replaced
        }

        /// Files of at least this many bytes are read on two cores: the second half's large
        /// array from a guessed element on, spliced in when the first reaches that element.
        package var twoPartsFrom = 8 << 20
        /// How far the other thread reads before it commits to its guess (past any small array).
        package var twoPartsCommitAfter = 64 << 10

        public init(lenient: Bool = false, maximumDepth: Int = 128, maximumSize: Int = JSONNode.maximumOffset, loneSurrogates: LoneSurrogates = .reported) {
            self.lenient = lenient
            self.maximumDepth = maximumDepth
            self.maximumSize = min(maximumSize, JSONNode.maximumOffset)
            self.loneSurrogates = loneSurrogates
        }
    }

    public var options: Options
    public init(options: Options = Options()) { self.options = options }

    public struct Result: Sendable {
        /// The document; nil when a syntax error stopped the reading.
        public var document: JSONDocument?
        /// Every syntax finding, in file order.
        public var diagnostics: [Diagnostic]
        /// Where the part read on another thread began, when one was taken.
        package var secondPartFrom: Int?
    }

    public func parse(_ bytes: [UInt8]) -> Result { parse(SourceBytes(bytes)) }

    public func parse(_ bytes: SourceBytes) -> Result {
        if bytes.count > options.maximumSize {
            return Result(document: nil, diagnostics: [
                Diagnostic(
                    code: .fileTooLarge, severity: .error,
                    message: "file is \(bytes.count) bytes, more than the limit of \(options.maximumSize)",
                    help: "split the story or raise the limit", range: 0..<0)
            ])
        }
        var state = ParserState(options: options, count: bytes.count)
        if bytes.isMapped {
            state.source = bytes
            bytes.beginPass()
        }
        let completed = bytes.withUnsafeBufferPointer { buffer in
            guard buffer.count >= options.twoPartsFrom else { return state.parseDocument(buffer) }
            let ahead = AheadParse(buffer, options: options, bytes: bytes)
            state.ahead = ahead
            state.aheadFrom = ahead.searchFrom
            let completed = state.parseDocument(buffer)
            ahead.finish()  // the other thread is done with the buffer before it goes
            return completed
        }
        bytes.endPass()
        // Lines can be found from the checkpoints only when the parse saw the whole file and
        // every line feed in it was counted.
        bytes.lineCheckpoints = completed && state.feedsCounted ? state.checkpoints : nil
        let document = completed ? JSONDocument(bytes: bytes, nodes: state.nodes, largeArrays: state.largeArrays) : nil
        return Result(document: document, diagnostics: state.diagnostics, secondPartFrom: state.splicedAt)
    }
}

/// Thrown inside the parser when a syntax error leaves no sensible way on.
struct Stop: Error {}

struct ParserState {
    let options: Options
    typealias Options = JSONParser.Options
    var nodes: [JSONNode] = []
    var diagnostics: [Diagnostic] = []
    var p: UnsafeBufferPointer<UInt8> = UnsafeBufferPointer(start: nil, count: 0)
    var i = 0
    var n = 0
    var depth = 0
    /// Key node indices of the objects being read, for duplicate-key checks.
    var keyStack: [Int] = []
    /// A mapped file, told how far the parser has come (pages behind are given back).
    var source: SourceBytes?
    /// Line feeds in white space so far, the chunk of the last checkpoint (4 KiB:
    /// `LineCheckpoints.chunkShift`), and the checkpoints; `feedsCounted` is cleared by a line
    /// feed seen anywhere else (a comment, a raw one in a string), which makes the checkpoints
    /// unusable.
    var feeds: Int32 = 0
    var checkpointChunk = -1
    var checkpoints = LineCheckpoints()
    var feedsCounted = true
    /// The second part of a large file, read on another thread; array elements from
    /// `aheadFrom` on are compared with where it starts.
    var ahead: AheadParse?
    var aheadFrom = Int.max
    /// The part read on another thread gives its pages back through a sweep of its own.
    var sweep: SourceBytes.Sweep?
    /// The deepest nesting seen, for the second part's check against the whole file's limit.
    var deepest = 0
    /// Where the other thread's part was taken.
    var splicedAt: Int?
    /// The element counts of arrays of `JSONDocument.largeArray` elements or more, by node.
    var largeArrays: [Int: Int] = [:]
    /// Elements read by `parseElements`.
    var partElements = 0

    init(options: Options, count: Int, leastNodes: Int = 16) {
        self.options = options
        // Most stories need a node for every 20 to 40 bytes; reserving more is free until used.
        // A large tree is written in huge pages where the kernel gives them.
        nodes.reserveLarge(max(leastNodes, count / 16))
    }

    var relaxedSeverity: Severity { options.lenient ? .warning : .error }

    mutating func report(
        _ code: DiagnosticCode, _ severity: Severity, _ message: String, help: String? = nil,
        at range: Range<Int>
    ) {
        diagnostics.append(Diagnostic(code: code, severity: severity, message: message, help: help, range: range))
    }

    mutating func fail(_ message: String, help: String? = nil, at range: Range<Int>) -> Stop {
        report(.invalidJSON, .error, message, help: help, at: range)
        return Stop()
    }

    mutating func parseDocument(_ buffer: UnsafeBufferPointer<UInt8>) -> Bool {
        p = buffer
        n = buffer.count
        if n >= 3, p[0] == 0xEF, p[1] == 0xBB, p[2] == 0xBF { i = 3 }
        do {
            try skipTrivia()
            if i >= n {
                report(
                    .emptyFile, .error, "file is empty", help: "a story file holds one object: { \"story\": { ... } }",
                    at: i..<i)
                return false
            }
            try parseValue()
            try skipTrivia()
            if i < n {
                throw fail(
                    "unexpected \(describe(at: i)) after the end of the JSON value",
                    help: "a file holds exactly one value; remove what follows it or wrap both in an array",
                    at: i..<(i + tokenLength(at: i)))
            }
            return true
        } catch {
            return false
        }
    }

    // MARK: Trivia

    @inline(__always)
    mutating func skipTrivia() throws(Stop) {
        while i < n {
            let b = p[i]
            if b == 0x20 || b == 0x0D || b == 0x09 {
                i += 1
            } else if b == 0x0A {
                feeds &+= 1
                if i >> LineCheckpoints.chunkShift != checkpointChunk { recordCheckpoint() }
                i += 1
            } else if b == UInt8(ascii: "/") {
                try skipComment()
            } else {
                return
            }
        }
    }

    /// The line feed at `i` is the first in its chunk: a checkpoint (kept out of line, since
    /// `skipTrivia` is inlined wherever a token may follow white space).
    @inline(never)
    mutating func recordCheckpoint() {
        checkpointChunk = i >> LineCheckpoints.chunkShift
        checkpoints.feeds.append(Int32(truncatingIfNeeded: i))
        checkpoints.counts.append(feeds)
    }

    mutating func skipComment() throws(Stop) {
        let start = i
        guard i + 1 < n, p[i + 1] == UInt8(ascii: "/") || p[i + 1] == UInt8(ascii: "*") else {
            throw fail("unexpected '/'", help: "JSON has no division; if this was meant as a comment, write // or /* */, which only a lenient reading accepts", at: i..<(i + 1))
        }
        var end: Int
        if p[i + 1] == UInt8(ascii: "/") {
            i += 2
            while i < n, p[i] != 0x0A { try stepCommentByte() }
            // A CRLF line's '\r' belongs to the line end, not the comment: removing the comment
            // must leave the file's line ends as they were.
            end = i
            if end > start + 2, p[end - 1] == 0x0D { end -= 1 }
        } else {
            i += 2
            var closed = false
            while i < n {
                if p[i] == UInt8(ascii: "*"), i + 1 < n, p[i + 1] == UInt8(ascii: "/") {
                    i += 2
                    closed = true
                    break
                }
                try stepCommentByte()
            }
            if !closed {
                throw fail("unterminated comment", help: "close the comment with */", at: start..<(start + 2))
            }
            end = i
        }
        report(
            .comment, relaxedSeverity, "comments are not allowed in JSON",
            help: options.lenient ? "remove the comment; strict JSON readers reject it" : "remove the comment; only a lenient reading accepts it",
            at: start..<end)
    }

    mutating func stepCommentByte() throws(Stop) {
        if p[i] == 0x0A { feedsCounted = false }
        if p[i] < 0x80 {
            i += 1
            return
        }
        let length = UTF8Validation.sequenceLength(p, at: i, end: n)
        if length == 0 {
            reportInvalidUTF8(at: i)
            i += 1
        } else {
            i += length
        }
    }

    mutating func reportInvalidUTF8(at offset: Int) {
        report(
            .invalidUTF8, .error, "invalid UTF-8 byte 0x\(hex(p[offset]))",
            help: "save the file as UTF-8 (in most editors: File > Save with Encoding > UTF-8)",
            at: offset..<(offset + 1))
    }

    // MARK: Values

    mutating func parseValue() throws(Stop) {
        guard i < n else { throw fail("unexpected end of file, expected a value", at: n..<n) }
        source?.release(upTo: i)
        sweep?.release(upTo: i)
        switch p[i] {
        case UInt8(ascii: "{"): try parseObject()
        case UInt8(ascii: "["): try parseArray()
        case UInt8(ascii: "\""): try parseString()
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): try parseNumber()
        case UInt8(ascii: "t"): try parseLiteral("true", .true)
        case UInt8(ascii: "f"): try parseLiteral("false", .false)
        case UInt8(ascii: "n"): try parseLiteral("null", .null)
        case UInt8(ascii: "'"):
            throw fail("unexpected single quote", help: "JSON strings use double quotes: \"like this\"", at: i..<(i + 1))
        case UInt8(ascii: "}"), UInt8(ascii: "]"), UInt8(ascii: ","):
            throw fail("unexpected \(describe(at: i)), expected a value", at: i..<(i + 1))
        default:
            let length = tokenLength(at: i)
            let word = String(decoding: UnsafeBufferPointer(rebasing: p[i..<(i + length)]), as: UTF8.self)
            let help: String? =
                switch word {
                case "True", "TRUE": "JSON booleans are lowercase: true"
                case "False", "FALSE": "JSON booleans are lowercase: false"
                case "None", "NULL", "Null", "nil", "undefined": "JSON's empty value is null"
                case "NaN", "Infinity": "JSON numbers must be finite; use null or a string"
                default: word.first?.isLetter == true ? "text values must be in double quotes" : nil
                }
            throw fail("unexpected \(describe(at: i)), expected a value", help: help, at: i..<(i + length))
        }
    }

    mutating func open(_ kind: JSONKind) throws(Stop) -> Int {
        depth += 1
        if depth > deepest { deepest = depth }
        if depth > options.maximumDepth {
            report(
                .nestingTooDeep, .error, "nesting is deeper than \(options.maximumDepth) levels",
                help: "a story needs about 6 levels; flatten the data", at: i..<(i + 1))
            throw Stop()
        }
        let index = nodes.count
        try checkNodeCount()
        nodes.append(JSONNode(start: UInt32(i), end: 0, next: 0, kind: kind, flags: 0))
        i += 1
        return index
    }

    mutating func checkNodeCount() throws(Stop) {
        if nodes.count >= JSONNode.maximumNodes - 1 {
            report(.fileTooLarge, .error, "file holds more than \(JSONNode.maximumNodes) values", help: "split the story", at: i..<(i + 1))
            throw Stop()
        }
    }

    mutating func close(_ index: Int) {
        i += 1
        nodes[index].end = UInt32(i)
        nodes[index].next = UInt32(nodes.count)
        depth -= 1
    }

    mutating func parseObject() throws(Stop) {
        let object = try open(.object)
        let keyBase = keyStack.count
        defer { keyStack.removeSubrange(keyBase...) }
        try skipTrivia()
        if i < n, p[i] == UInt8(ascii: "}") {
            close(object)
            return
        }
        while true {
            guard i < n else {
                throw fail("unterminated object", help: "add the closing }", at: Int(nodes[object].start)..<(Int(nodes[object].start) + 1))
            }
            guard p[i] == UInt8(ascii: "\"") else {
                let length = tokenLength(at: i)
                let help =
                    p[i] == UInt8(ascii: "'")
                    ? "JSON keys use double quotes: \"key\""
                    : (isIdentifierStart(p[i]) ? "put the key in double quotes: \"\(String(decoding: UnsafeBufferPointer(rebasing: p[i..<(i + length)]), as: UTF8.self))\"" : nil)
                throw fail("expected a key in double quotes, found \(describe(at: i))", help: help, at: i..<(i + length))
            }
            let key = nodes.count
            try parseString()
            checkDuplicate(key: key, from: keyBase)
            keyStack.append(key)
            try skipTrivia()
            guard i < n, p[i] == UInt8(ascii: ":") else {
                throw fail(
                    "expected ':' after the key, found \(i < n ? describe(at: i) : "the end of the file")",
                    help: "write \"key\": value", at: i..<min(n, i + 1))
            }
            i += 1
            try skipTrivia()
            try parseValue()
            switch try afterValue(closer: UInt8(ascii: "}")) {
            case .another:
                continue
            case .closed:
                close(object)
                return
            case .neither:
                guard i < n else {
                    throw fail("unterminated object", help: "add the closing }", at: Int(nodes[object].start)..<(Int(nodes[object].start) + 1))
                }
                let help = p[i] == UInt8(ascii: "\"") ? "add a comma between members" : nil
                throw fail("expected ',' or '}' after an object member, found \(describe(at: i))", help: help, at: i..<(i + tokenLength(at: i)))
            }
        }
    }

    mutating func closeArray(_ array: Int, elements: Int) {
        if elements >= JSONDocument.largeArray { largeArrays[array] = elements }
        close(array)
    }

    mutating func parseArray() throws(Stop) {
        let array = try open(.array)
        try skipTrivia()
        if i < n, p[i] == UInt8(ascii: "]") {
            close(array)
            return
        }
        var elements = 0
        while true {
            if i >= aheadFrom, let spliced = splice(into: array) {
                closeArray(array, elements: elements + spliced)
                return
            }
            elements += 1
            try parseValue()
            switch try afterValue(closer: UInt8(ascii: "]")) {
            case .another:
                continue
            case .closed:
                closeArray(array, elements: elements)
                return
            case .neither:
                guard i < n else {
                    throw fail("unterminated array", help: "add the closing ]", at: Int(nodes[array].start)..<(Int(nodes[array].start) + 1))
                }
                let help = p[i] == UInt8(ascii: "{") || p[i] == UInt8(ascii: "\"") ? "add a comma between elements" : nil
                throw fail("expected ',' or ']' after an array element, found \(describe(at: i))", help: help, at: i..<(i + tokenLength(at: i)))
            }
        }
    }

    enum AfterValue {
        /// A comma, and white space after it: the next element or member starts at `i`.
        case another
        /// The closer (after a trailing comma, which is reported): `i` is at it.
        case closed
        /// Neither: `i` is at what stands there, or at the end of the file.
        case neither
    }

    /// What follows an element of an array or a member of an object, white space skipped.
    @inline(__always)
    mutating func afterValue(closer: UInt8) throws(Stop) -> AfterValue {
        try skipTrivia()
        guard i < n else { return .neither }
        if p[i] == UInt8(ascii: ",") {
            let comma = i
            i += 1
            try skipTrivia()
            if i < n, p[i] == closer {
                reportTrailingComma(at: comma)
                return .closed
            }
            return .another
        }
        return p[i] == closer ? .closed : .neither
    }

    mutating func reportTrailingComma(at comma: Int) {
        report(
            .trailingComma, relaxedSeverity, "trailing comma after the last element",
            help: options.lenient ? "remove the comma; strict JSON readers reject it" : "remove the comma; only a lenient reading accepts it",
            at: comma..<(comma + 1))
    }

    mutating func checkDuplicate(key: Int, from base: Int) {
        let count = keyStack.count - base
        // Objects in stories have a handful of keys; a quadratic scan beats hashing there.
        guard count > 0, count <= 256 else { return }
        for index in base..<keyStack.count where keysEqual(keyStack[index], key) {
            let earlier = keyStack[index]
            let range = Int(nodes[key].start)..<Int(nodes[key].end)
            diagnostics.append(
                Diagnostic(
                    code: .duplicateKey, severity: .warning,
                    message: "duplicate key \(String(decoding: UnsafeBufferPointer(rebasing: p[range]), as: UTF8.self))",
                    help: "remove one of them; readers disagree on which one wins (cyd uses the last)",
                    range: range,
                    related: [RelatedLocation(message: "first used here", range: Int(nodes[earlier].start)..<Int(nodes[earlier].end))]))
            return
        }
    }

    func keysEqual(_ a: Int, _ b: Int) -> Bool {
        let ra = Int(nodes[a].start)..<Int(nodes[a].end)
        let rb = Int(nodes[b].start)..<Int(nodes[b].end)
        if (nodes[a].flags | nodes[b].flags) & JSONNode.hasEscapes == 0 {
            return ra.count == rb.count && memEqual(p.baseAddress! + ra.lowerBound, p.baseAddress! + rb.lowerBound, ra.count)
        }
        func decoded(_ r: Range<Int>) -> [Unicode.Scalar] {
            let key = SourceBytes(Array(p[r]))
            return StringContent(bytes: key, range: 1..<(key.count - 1)).map(\.scalar)
        }
        return decoded(ra) == decoded(rb)
    }

    mutating func parseString() throws(Stop) {
        let start = i
        var flags: UInt8 = 0
        i += 1
        while true {
            // Fast path: plain text, ASCII sixteen bytes at a time, valid UTF-8 and the
            // two-character escapes passed whole, up to the first byte this loop must look at.
            var escapes = false
            i = jsonStringStop(p, from: i, to: n, escapes: &escapes)
            if escapes { flags |= JSONNode.hasEscapes }
            guard i < n else {
                throw fail("unterminated string", help: "add the closing \"", at: start..<(start + 1))
            }
            let b = p[i]
            if b == UInt8(ascii: "\"") {
                i += 1
                break
            } else if b == UInt8(ascii: "\\") {
                flags |= JSONNode.hasEscapes
                try parseEscape()
            } else if b < 0x20 {
                if b == 0x0A {
                    feedsCounted = false
                    // A raw line break almost always means a missing closing quote.
                    var lookahead = i + 1
                    while lookahead < n, p[lookahead] == 0x20 || p[lookahead] == 0x09 { lookahead += 1 }
                    if lookahead < n, p[lookahead] == UInt8(ascii: "\"") || p[lookahead] == UInt8(ascii: "}") || p[lookahead] == UInt8(ascii: "]") {
                        throw fail("unterminated string", help: "add the closing \" before the end of the line", at: start..<i)
                    }
                }
                let name = controlName(b)
                report(
                    .unescapedControlCharacter, relaxedSeverity, "raw \(name) inside a string",
                    help: "write it as \(controlEscape(b)) inside the string", at: i..<(i + 1))
                flags |= JSONNode.isInvalid
                i += 1
            } else {
                let length = UTF8Validation.sequenceLength(p, at: i, end: n)
                if length == 0 {
                    reportInvalidUTF8(at: i)
                    flags |= JSONNode.isInvalid
                    i += 1
                } else {
                    i += length
                }
            }
        }
        try checkNodeCount()
        nodes.append(JSONNode(start: UInt32(start), end: UInt32(i), next: UInt32(nodes.count + 1), kind: .string, flags: flags))
    }

    mutating func parseEscape() throws(Stop) {
        let start = i
        guard i + 1 < n else { throw fail("unterminated string", at: start..<n) }
        switch p[i + 1] {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
            UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
            i += 2
        case UInt8(ascii: "u"):
            guard let unit = hex4(at: i + 2) else {
                report(.invalidJSON, .error, "invalid \\u escape", help: "\\u takes exactly four hexadecimal digits, as in \\u00e9", at: start..<min(n, i + 6))
                i += 2
                return
            }
            i += 6
            if (0xD800...0xDBFF).contains(unit) {
                if i + 1 < n, p[i] == UInt8(ascii: "\\"), p[i + 1] == UInt8(ascii: "u"), let low = hex4(at: i + 2), (0xDC00...0xDFFF).contains(low) {
                    i += 6
                } else if options.loneSurrogates == .reported {
                    report(
                        .invalidJSON, .error, "lone high surrogate \\u\(String(unit, radix: 16, uppercase: true)) in a string",
                        help: "a character outside the basic plane is written as a pair, as in \\uD83E\\uDD8A; or write the character itself",
                        at: start..<i)
                }
            } else if (0xDC00...0xDFFF).contains(unit), options.loneSurrogates == .reported {
                report(
                    .invalidJSON, .error, "lone low surrogate \\u\(String(unit, radix: 16, uppercase: true)) in a string",
                    help: "a low surrogate must follow a high one, as in \\uD83E\\uDD8A", at: start..<i)
            }
        default:
            let length = i + 2 <= n ? (UTF8Validation.sequenceLength(p, at: i + 1, end: n)) : 1
            report(
                .invalidJSON, .error, "invalid escape '\\\(VisibleText.escape(String(decoding: UnsafeBufferPointer(rebasing: p[(i + 1)..<min(n, i + 1 + max(length, 1))]), as: UTF8.self)))'",
                help: "valid escapes are \\\" \\\\ \\/ \\b \\f \\n \\r \\t and \\uXXXX; write a backslash as \\\\",
                at: start..<min(n, i + 1 + max(length, 1)))
            i += 1 + max(length, 1)
        }
    }

    func hex4(at offset: Int) -> UInt32? {
        guard offset + 4 <= n else { return nil }
        return hexQuad(at: offset) { p[$0] }
    }

    mutating func parseNumber() throws(Stop) {
        try checkNodeCount()
        let start = i
        while i < n, isNumberByte(p[i]) { i += 1 }
        if !isValidNumber(start..<i) {
            report(
                .invalidJSON, .error, "invalid number \(String(decoding: UnsafeBufferPointer(rebasing: p[start..<i]), as: UTF8.self))",
                help: "JSON numbers look like 12, -3, 0.5 or 1e6: no leading zeros, no leading '+' or '.', digits after '.'",
                at: start..<i)
        }
        nodes.append(JSONNode(start: UInt32(start), end: UInt32(i), next: UInt32(nodes.count + 1), kind: .number, flags: 0))
    }

    func isNumberByte(_ b: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(b) || b == UInt8(ascii: "-") || b == UInt8(ascii: "+")
            || b == UInt8(ascii: ".") || b == UInt8(ascii: "e") || b == UInt8(ascii: "E")
    }

    /// The JSON number grammar: -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
    func isValidNumber(_ range: Range<Int>) -> Bool {
        var k = range.lowerBound
        let end = range.upperBound
        func digit(_ at: Int) -> Bool { at < end && p[at] >= UInt8(ascii: "0") && p[at] <= UInt8(ascii: "9") }
        if k < end, p[k] == UInt8(ascii: "-") { k += 1 }
        guard digit(k) else { return false }
        if p[k] == UInt8(ascii: "0") {
            k += 1
        } else {
            while digit(k) { k += 1 }
        }
        if k < end, p[k] == UInt8(ascii: ".") {
            k += 1
            guard digit(k) else { return false }
            while digit(k) { k += 1 }
        }
        if k < end, p[k] == UInt8(ascii: "e") || p[k] == UInt8(ascii: "E") {
            k += 1
            if k < end, p[k] == UInt8(ascii: "+") || p[k] == UInt8(ascii: "-") { k += 1 }
            guard digit(k) else { return false }
            while digit(k) { k += 1 }
        }
        return k == end
    }

    mutating func parseLiteral(_ word: StaticString, _ kind: JSONKind) throws(Stop) {
        let length = word.utf8CodeUnitCount
        guard i + length <= n, memEqual(p.baseAddress! + i, word.utf8Start, length),
            i + length == n || !isIdentifierByte(p[i + length])
        else {
            let found = tokenLength(at: i)
            throw fail(
                "unexpected \(describe(at: i)), expected a value",
                help: "text values must be in double quotes", at: i..<(i + found))
        }
        try checkNodeCount()
        nodes.append(JSONNode(start: UInt32(i), end: UInt32(i + length), next: UInt32(nodes.count + 1), kind: kind, flags: 0))
        i += length
    }

    // MARK: Helpers for messages

    func isIdentifierStart(_ b: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(b) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(b) || b == UInt8(ascii: "_")
    }

    func isIdentifierByte(_ b: UInt8) -> Bool {
        isIdentifierStart(b) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(b) || b == UInt8(ascii: "-")
    }

    /// Length of the token at `offset` for error ranges: a word, or one character.
    func tokenLength(at offset: Int) -> Int {
        guard offset < n else { return 0 }
        if isIdentifierByte(p[offset]) {
            var end = offset
            while end < n, isIdentifierByte(p[end]), end - offset < 40 { end += 1 }
            return end - offset
        }
        return max(1, UTF8Validation.sequenceLength(p, at: offset, end: n))
    }

    /// "'x'", "the word 'True'", or a byte's name, never raw control bytes.
    func describe(at offset: Int) -> String {
        guard offset < n else { return "the end of the file" }
        let b = p[offset]
        if b < 0x20 || b == 0x7F { return controlName(b) }
        let length = tokenLength(at: offset)
        if length == 0 || (b >= 0x80 && UTF8Validation.sequenceLength(p, at: offset, end: n) == 0) {
            return "byte 0x\(hex(b))"
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: p[offset..<(offset + length)]), as: UTF8.self)
        return "'\(VisibleText.escape(text))'"
    }
}

func hex(_ byte: UInt8) -> String { Hex.byte(byte) }

func controlName(_ byte: UInt8) -> String {
    switch byte {
    case 0x09: "tab"
    case 0x0A: "line break"
    case 0x0D: "carriage return"
    case 0x1B: "escape character (U+001B)"
    default: "control character U+00\(hex(byte))"
    }
}

func controlEscape(_ byte: UInt8) -> String {
    switch byte {
    case 0x09: "\\t"
    case 0x0A: "\\n"
    case 0x0D: "\\r"
    default: "\\u00\(hex(byte))"
    }
}

// MARK: Two parts on two cores

/// The second part of a large file, read on another thread while the first part is read.
///
/// A story is one large array of chapters, so the second half of its file is, from some
/// element on, the rest of that array. The other thread guesses such an element (a `{` after
/// `}` and a comma, at or after the middle), reads elements from it to the array's `]` exactly
/// as the parser would, and commits to the guess once it has read far enough to be past any
/// small array. The first part, reading on, takes the part when it reaches the same offset as
/// the start of an array element: what follows a value's start depends only on the bytes from
/// there, so the part is what the parser would have made, given the same depth and counts,
/// which are checked. A guess the first part never meets (it was inside a string, or in
/// another kind of array) is dropped, and the file is read in one pass as before.
final class AheadParse: @unchecked Sendable {
    /// What the other thread read: everything the parser's state gains over those bytes.
    struct Part: Sendable {
        var nodes: [JSONNode]
        var diagnostics: [Diagnostic]
        var largeArrays: [Int: Int]
        /// The elements read, of the array it ends.
        var elements: Int
        var feeds: Int32
        var checkpoints: LineCheckpoints
        var feedsCounted: Bool
        var deepest: Int
        /// The offset of the array's closing `]`.
        var end: Int
    }

    enum Outcome {
        /// The array's `]` was reached (after a commitment).
        case done
        /// A syntax error, after a commitment: the first part reads it itself.
        case failed
        /// The array ended, or the reading failed, before the guess was committed to.
        case ended(at: Int)
        /// The first part gave the guess up.
        case cancelled
    }

    enum Meeting {
        /// The part starts further on.
        case later
        /// The part will not be taken.
        case never
        /// The part starts here (nil: it failed).
        case here(Part?)
    }

    /// How often, in bytes read, the other thread looks for a cancellation.
    static let lookEvery = 1 << 20
    /// The part's nodes are reserved above glibc's largest dynamic mmap threshold (32 MiB on
    /// 64-bit, mallopt(3)): freeing a mapped block below it raises the threshold to its size, and
    /// every later block up to that size then stays in the heap when freed (validate's peak rose
    /// from 87 to 106 MB). Reserving is free until used.
    static let leastNodes = (32 << 20) / MemoryLayout<JSONNode>.stride + 1

    let searchFrom: Int
    private let lock = Lock()
    private var committedStart = -1
    private var cancelled = false
    private var work: BackgroundWork<Part?>?

    init(_ buffer: UnsafeBufferPointer<UInt8>, options: JSONParser.Options, bytes: SourceBytes) {
        searchFrom = buffer.count / 2
        let address = UInt(bitPattern: buffer.baseAddress), count = buffer.count
        work = BackgroundWork { [self] in
            let p = UnsafeBufferPointer(start: UnsafePointer<UInt8>(bitPattern: address), count: count)
            return read(p, options: options, bytes: bytes)
        }
    }

    private func read(_ p: UnsafeBufferPointer<UInt8>, options: JSONParser.Options, bytes: SourceBytes) -> Part? {
        var candidate = Self.element(in: p, from: searchFrom)
        var tries = 0
        while let start = candidate, tries < 16 {
            tries += 1
            var state = ParserState(options: options, count: p.count - start, leastNodes: Self.leastNodes)
            if bytes.isMapped { state.sweep = SourceBytes.Sweep(bytes, from: start) }
            switch state.parseElements(p, from: start, ahead: self) {
            case .done:
                return Part(
                    nodes: state.nodes, diagnostics: state.diagnostics, largeArrays: state.largeArrays, elements: state.partElements,
                    feeds: state.feeds, checkpoints: state.checkpoints,
                    feedsCounted: state.feedsCounted, deepest: state.deepest, end: state.i)
            case .failed, .cancelled:
                return nil
            case .ended(let offset):
                // A small array (a chapter's choices) or not an element at all: the next guess.
                candidate = Self.element(in: p, from: max(offset, start + 1))
            }
        }
        return nil
    }

    /// The next `{` at or after `offset` that follows `}` and a comma (white space between).
    static func element(in p: UnsafeBufferPointer<UInt8>, from offset: Int) -> Int? {
        func blank(_ b: UInt8) -> Bool { b == 0x20 || b == 0x0A || b == 0x0D || b == 0x09 }
        var k = offset
        while k < p.count {
            if p[k] == UInt8(ascii: "{") {
                var j = k - 1
                while j >= 0, blank(p[j]) { j -= 1 }
                if j >= 0, p[j] == UInt8(ascii: ",") {
                    j -= 1
                    while j >= 0, blank(p[j]) { j -= 1 }
                    if j >= 0, p[j] == UInt8(ascii: "}") { return k }
                }
            }
            k += 1
        }
        return nil
    }

    /// Asked by the other thread as it reads: false when the first part gave the guess up;
    /// `committing` commits to the guess that starts there.
    func stillWanted(committing start: Int?) -> Bool {
        lock.withLock {
            if cancelled { return false }
            if let start { committedStart = start }
            return true
        }
    }

    /// Asked by the first part at an array element at `offset`.
    func meet(at offset: Int) -> Meeting {
        let wait: Bool = lock.withLock {
            if cancelled { return false }
            if committedStart == offset { return true }
            // Not committed yet (the first part has come this far first), or committed to an
            // offset the first part has passed without meeting it as an element: given up.
            if committedStart < 0 || committedStart < offset { cancelled = true }
            return false
        }
        // Taken, not copied: the part's buffer gives its pages to the joined tree (`joined`).
        if wait { return .here(work?.take() ?? nil) }
        return lock.withLock { cancelled } ? .never : .later
    }

    /// The first part is done: the other thread stops at its next look and is joined.
    func finish() {
        lock.withLock { cancelled = true }
        work?.join()
    }
}

extension ParserState {
    /// The other thread's reading: array elements from `start` to the array's `]`, as
    /// `parseArray`'s loop reads them.
    mutating func parseElements(_ buffer: UnsafeBufferPointer<UInt8>, from start: Int, ahead: AheadParse) -> AheadParse.Outcome {
        p = buffer
        n = buffer.count
        i = start
        var committed = false
        var look = start + options.twoPartsCommitAfter
        do {
            while true {
                if i >= look {
                    look = i + AheadParse.lookEvery
                    guard ahead.stillWanted(committing: committed ? nil : start) else { return .cancelled }
                    committed = true
                }
                partElements += 1
                try parseValue()
                switch try afterValue(closer: UInt8(ascii: "]")) {
                case .another: continue
                case .closed: return committed ? .done : .ended(at: i)
                case .neither: return committed ? .failed : .ended(at: i)
                }
            }
        } catch {
            return committed ? .failed : .ended(at: i)
        }
    }

    /// The first part's nodes followed by the part's (each of whose `next` is counted from the
    /// part's start), with room for `room` more: a new buffer made of the two buffers' own pages
    /// (`PageMove`) rather than a copy of the part into pages never used. The two buffers are
    /// left emptied or shifted: the caller lets both go.
    static func joined(_ first: [JSONNode], _ part: [JSONNode], room: Int) -> [JSONNode] {
        let stride = MemoryLayout<JSONNode>.stride
        let base = first.count, total = first.count + part.count
        // A buffer of 32 MiB or more is mapped by malloc, at the same place in its first page as
        // the others large enough to join, so that the first part's pages move as they are.
        let capacity = max(total + room, (32 << 20) / stride + 1)
        return [JSONNode](unsafeUninitializedCapacity: capacity) { joined, count in
            let destination = UnsafeMutableRawPointer(joined.baseAddress!)
            func give(_ nodes: [JSONNode], at offset: Int) {
                nodes.withUnsafeBufferPointer { buffer in
                    guard let start = buffer.baseAddress, !buffer.isEmpty else { return }
                    // Room after the nodes, in the buffer's own capacity, for a shift within a page.
                    PageMove.move(
                        from: UnsafeMutableRawPointer(mutating: start), count: buffer.count * stride,
                        slack: (nodes.capacity - nodes.count) * stride, to: destination + offset * stride)
                }
            }
            give(first, at: 0)
            give(part, at: base)
            for index in base..<total { joined[index].next += UInt32(base) }
            count = total
        }
    }

    /// At an element of `array`: when the other thread's part starts here, it is taken, `i`
    /// is at the array's `]`, and the result is the number of elements the part read.
    mutating func splice(into array: Int) -> Int? {
        guard let ahead else { aheadFrom = .max; return nil }
        switch ahead.meet(at: i) {
        case .later:
            return nil
        case .never:
            aheadFrom = .max
            return nil
        case .here(let part):
            aheadFrom = .max
            guard let part, depth + part.deepest <= options.maximumDepth, nodes.count + part.nodes.count < JSONNode.maximumNodes - 1 else {
                return nil
            }
            let base = UInt32(nodes.count)
            for (node, count) in part.largeArrays { largeArrays[node + Int(base)] = count }
            // The first part's nodes handed over whole (this state keeps no second reference).
            var first: [JSONNode] = []
            swap(&first, &nodes)
            nodes = Self.joined(first, part.nodes, room: n - part.end + 1)
            if depth + part.deepest > deepest { deepest = depth + part.deepest }
            diagnostics += part.diagnostics
            for k in part.checkpoints.feeds.indices where Int(part.checkpoints.feeds[k]) >> LineCheckpoints.chunkShift != checkpointChunk {
                checkpoints.feeds.append(part.checkpoints.feeds[k])
                checkpoints.counts.append(part.checkpoints.counts[k] &+ feeds)
                checkpointChunk = Int(part.checkpoints.feeds[k]) >> LineCheckpoints.chunkShift
            }
            feeds &+= part.feeds
            feedsCounted = feedsCounted && part.feedsCounted
            splicedAt = i
            i = part.end
            return part.elements
        }
    }
}
