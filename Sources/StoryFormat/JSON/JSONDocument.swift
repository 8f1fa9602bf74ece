#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The kind of a JSON value.
public enum JSONKind: UInt8, Sendable {
    case object, array, string, number, `true`, `false`, null

    /// The name used in messages: "expected a string, found a number".
    public var noun: String {
        switch self {
        case .object: "an object"
        case .array: "an array"
        case .string: "a string"
        case .number: "a number"
        case .true, .false: "a boolean"
        case .null: "null"
        }
    }
}

/// One value of the tree, in 12 bytes. Nodes are stored flat in document order; an object's
/// children alternate key (a string node) and value. `next` is the index just past the node's
/// subtree, so siblings are found without pointers.
public struct JSONNode: Sendable {
    /// Byte offset of the value (30 bits) and flags (2 bits).
    @usableFromInline var startAndFlags: UInt32
    /// Byte offset just past the value.
    public internal(set) var end: UInt32
    /// Kind (3 bits) and the index past the subtree (29 bits).
    @usableFromInline var kindAndNext: UInt32

    @usableFromInline static let offsetMask: UInt32 = (1 << 30) - 1
    @usableFromInline static let nextMask: UInt32 = (1 << 29) - 1
    /// Offsets fit in 30 bits and node indices in 29: files up to 1 GiB.
    public static let maximumOffset = Int(offsetMask)
    public static let maximumNodes = Int(nextMask)

    init(start: UInt32, end: UInt32, next: UInt32, kind: JSONKind, flags: UInt8) {
        startAndFlags = start | UInt32(flags) << 30
        self.end = end
        kindAndNext = UInt32(kind.rawValue) << 29 | next
    }

    @inlinable public var start: UInt32 { startAndFlags & Self.offsetMask }
    /// `JSONNode.hasEscapes` for strings holding a backslash escape.
    @inlinable public var flags: UInt8 { UInt8(truncatingIfNeeded: startAndFlags >> 30) }
    @inlinable public var kind: JSONKind { unsafeBitCast(UInt8(truncatingIfNeeded: kindAndNext >> 29), to: JSONKind.self) }
    public internal(set) var next: UInt32 {
        @inlinable get { kindAndNext & Self.nextMask }
        set { kindAndNext = (kindAndNext & ~Self.nextMask) | newValue }
    }

    @usableFromInline static let hasEscapes: UInt8 = 1
    static let isInvalid: UInt8 = 2
}

/// A parsed JSON file: its bytes and a flat tree of nodes with their byte ranges.
/// Immutable and cheap to share; every lookup goes through a node index.
public final class JSONDocument: Sendable {
    public let bytes: SourceBytes
    public let nodes: [JSONNode]
    /// The element counts of arrays of `largeArray` elements or more, counted by the parser:
    /// counting a story's chapters by walking them touches every chapter's nodes (15 ms of
    /// validating 100,000 chapters, a cache miss each).
    let largeArrays: [Int: Int]
    static let largeArray = 1024

    init(bytes: SourceBytes, nodes: [JSONNode], largeArrays: [Int: Int] = [:]) {
        self.bytes = bytes
        self.nodes = nodes
        self.largeArrays = largeArrays
    }

    /// The root value, or nil when the file could not be parsed.
    public var root: Int? { nodes.isEmpty ? nil : 0 }

    @inlinable public func kind(_ node: Int) -> JSONKind { nodes[node].kind }

    /// The bytes the value spans in the file, quotes included for strings.
    @inlinable public func range(_ node: Int) -> Range<Int> { Int(nodes[node].start)..<Int(nodes[node].end) }

    /// Range of a string's contents, without its quotes.
    @inlinable public func contentRange(_ node: Int) -> Range<Int> {
        let r = range(node)
        return nodes[node].kind == .string ? (r.lowerBound + 1)..<max(r.lowerBound + 1, r.upperBound - 1) : r
    }

    /// The same, from nodes a caller holds (see `ObjectReader.holdingNodes`).
    static func contentRange(_ node: Int, in nodes: UnsafeBufferPointer<JSONNode>) -> Range<Int> {
        let start = Int(nodes[node].start), end = Int(nodes[node].end)
        return nodes[node].kind == .string ? (start + 1)..<max(start + 1, end - 1) : start..<end
    }

    @inlinable public func hasEscapes(_ node: Int) -> Bool { nodes[node].flags & JSONNode.hasEscapes != 0 }

    /// The children of an array.
    public func elements(of node: Int) -> Children { Children(document: self, parent: node, step: 1) }

    /// The members of an object, as key and value node indices.
    public func members(of node: Int) -> Members { Members(document: self, parent: node) }

    public func count(of node: Int) -> Int {
        if let known = largeArrays[node] { return known }
        var n = 0
        var child = node + 1
        let end = Int(nodes[node].next)
        while child < end {
            n += 1
            child = Int(nodes[child].next)
        }
        return nodes[node].kind == .object ? n / 2 : n
    }

    /// The value of a member named `key`; with duplicate keys, the last one (as most readers do).
    public func member(_ object: Int, _ key: String) -> Int? {
        var found: Int?
        for (k, v) in members(of: object) where keyEquals(k, key) { found = v }
        return found
    }

    /// The value of the first member named `key` (as `JSONValue`'s look-up finds it).
    public func firstMember(_ object: Int, _ key: String) -> Int? {
        members(of: object).first { keyEquals($0.key, key) }?.value
    }

    /// Whether the string node's decoded text equals `text`, without decoding when possible.
    public func keyEquals(_ node: Int, _ text: String) -> Bool {
        if hasEscapes(node) { return string(node) == text }
        let r = contentRange(node)
        var utf8 = text.utf8
        return utf8.withContiguousStorageIfAvailable { expected in
            expected.count == r.count && bytes.withUnsafeBufferPointer { buffer in
                memEqual(buffer.baseAddress! + r.lowerBound, expected.baseAddress!, r.count)
            }
        } ?? {
            utf8 = text.utf8
            return Array(utf8) == Array(bytes[r])
        }()
    }

    /// Whether two string nodes hold the same text; compares bytes unless an escape is involved.
    public func stringEquals(_ a: Int, _ b: Int) -> Bool {
        if hasEscapes(a) || hasEscapes(b) { return string(a) == string(b) }
        let ra = contentRange(a)
        let rb = contentRange(b)
        guard ra.count == rb.count else { return false }
        return bytes.withUnsafeBufferPointer { memEqual($0.baseAddress! + ra.lowerBound, $0.baseAddress! + rb.lowerBound, ra.count) }
    }

    /// Whether a string node here and one in `other` hold the same text: the same bytes as
    /// written (escapes and all) are; other bytes are decoded and compared as Swift compares
    /// strings (an escape for a letter, another normalization).
    public func sameText(_ node: Int, as otherNode: Int, in other: JSONDocument) -> Bool {
        let here = contentRange(node), there = other.contentRange(otherNode)
        let sameBytes = here.count == there.count
            && bytes.withUnsafeBufferPointer { left in
                other.bytes.withUnsafeBufferPointer { right in here.isEmpty || memEqual(left.baseAddress! + here.lowerBound, right.baseAddress! + there.lowerBound, here.count) }
            }
        return sameBytes || string(node) == other.string(otherNode)
    }

    /// Calls `body` with the raw bytes of a string node's contents when it has no escapes (so the
    /// bytes are its UTF-8 text), or nil otherwise.
    public func withContentBytes<T>(_ node: Int, _ body: (UnsafeBufferPointer<UInt8>?) -> T) -> T {
        if hasEscapes(node) { return body(nil) }
        let r = contentRange(node)
        return bytes.withUnsafeBufferPointer { body(UnsafeBufferPointer(rebasing: $0[r])) }
    }

    /// Whether a string node holds nothing but white space. Decides on the first byte in almost
    /// every case, without decoding.
    public func isBlank(_ node: Int) -> Bool {
        let range = contentRange(node)
        if let known = bytes.withUnsafeBufferPointer({ Self.isBlank(range, byItsBytes: $0) }) { return known }
        return scalars(node).allSatisfy { $0.scalar.properties.isWhitespace }
    }

    /// Whether the text at `range` is white space, told from its bytes: ASCII white space to the
    /// end (true), or up to an ASCII character other than a backslash (false); nil when an escape
    /// or a character beyond ASCII comes first, for its scalars to decide.
    static func isBlank(_ range: Range<Int>, byItsBytes bytes: UnsafeBufferPointer<UInt8>) -> Bool? {
        var first = range.lowerBound
        while first < range.upperBound {
            let byte = bytes[first]
            if byte != 0x20 && byte != 0x09 && byte != 0x0A && byte != 0x0D { break }
            first += 1
        }
        guard first < range.upperBound else { return true }
        guard bytes[first] == UInt8(ascii: "\\") || bytes[first] >= 0x80 else { return false }
        return nil
    }

    /// The decoded text of a string node. Invalid UTF-8 and lone surrogates become U+FFFD.
    public func string(_ node: Int) -> String {
        let r = contentRange(node)
        if !hasEscapes(node) {
            return bytes.withUnsafeBufferPointer { buffer in
                String(decoding: UnsafeBufferPointer(rebasing: buffer[r]), as: UTF8.self)
            }
        }
        // Copy the runs between escapes as bytes; decode only the escapes.
        var utf8: [UInt8] = []
        utf8.reserveCapacity(r.count)
        bytes.withUnsafeBufferPointer { p in
            var i = r.lowerBound
            while i < r.upperBound {
                var runEnd = i
                while runEnd < r.upperBound, p[runEnd] != UInt8(ascii: "\\") { runEnd += 1 }
                utf8.append(contentsOf: UnsafeBufferPointer(rebasing: p[i..<runEnd]))
                i = runEnd
                guard i < r.upperBound else { break }
                var iterator = StringContent(bytes: bytes, range: i..<r.upperBound).makeIterator()
                guard let piece = iterator.next() else { break }
                utf8.append(contentsOf: Array(String(piece.scalar).utf8))
                i = piece.source.upperBound
            }
        }
        return String(decoding: utf8, as: UTF8.self)
    }

    /// The decoded scalars of a string node with the byte range each came from in the file,
    /// so a finding inside a string (an escape sequence, a placeholder) points at its source.
    public func scalars(_ node: Int) -> StringContent { StringContent(bytes: bytes, range: contentRange(node)) }

    /// The value of a number node as a Double (nil when it does not fit).
    public func number(_ node: Int) -> Double? {
        Double(String(decoding: bytes[range(node)], as: UTF8.self))
    }

    /// The raw source text of a node, for messages.
    public func sourceText(_ node: Int) -> String { String(decoding: bytes[range(node)], as: UTF8.self) }

    /// RFC 6901 pointer to a node. For a key node, the pointer of its member's value.
    public func pointer(to node: Int) -> String { pointers(to: [node])[0] }

    /// RFC 6901 pointers to many nodes, in the order given, from one walk over the tree in
    /// document order that skips every subtree holding none of them: O(nodes + k log k) for k
    /// nodes, and memory for the k pointers and the nesting depth only. (A walk per node would
    /// make a file with many findings cost findings x file.)
    public func pointers(to targets: [Int]) -> [String] {
        guard !targets.isEmpty else { return [] }
        let order = targets.indices.sorted { targets[$0] < targets[$1] }
        var result = [String](repeating: "", count: targets.count)
        // One frame per open container: its node, how many children were met so far, and for an
        // object the key of the member being walked.
        struct Frame {
            var node: Int
            var children: Int
            var key: Int
        }
        var stack: [Frame] = []
        var next = 0
        while next < order.count, targets[order[next]] < 0 { next += 1 }
        var index = 0
        bytes.beginPass()
        defer { bytes.endPass() }
        while next < order.count, index < nodes.count {
            bytes.release(upTo: Int(nodes[index].start))
            while let top = stack.last, Int(nodes[top.node].next) <= index { stack.removeLast() }
            if !stack.isEmpty {
                let frame = stack.count - 1
                if nodes[stack[frame].node].kind == .object, stack[frame].children % 2 == 0 { stack[frame].key = index }
                stack[frame].children += 1
            }
            if targets[order[next]] == index {
                var path = ""
                for frame in stack {
                    path += "/"
                    // The child at each level is the node of the frame above it, or the target.
                    path += nodes[frame.node].kind == .object ? escapePointer(string(frame.key)) : String(frame.children - 1)
                }
                while next < order.count, targets[order[next]] == index {
                    result[order[next]] = path
                    next += 1
                }
                guard next < order.count else { break }
            }
            let target = targets[order[next]]
            let subtreeEnd = Int(nodes[index].next)
            if target < subtreeEnd, kind(index) == .object || kind(index) == .array {
                stack.append(Frame(node: index, children: 0, key: -1))
                index += 1
            } else {
                index = subtreeEnd
            }
        }
        return result
    }

    /// Fills in the pointers of findings that name their subject node, all in one walk.
    public func resolvePointers(_ diagnostics: inout [Diagnostic]) {
        let pending = diagnostics.indices.filter { diagnostics[$0].subject != nil }
        guard !pending.isEmpty else { return }
        let found = pointers(to: pending.map { diagnostics[$0].subject! })
        for (position, pointer) in zip(pending, found) {
            diagnostics[position].pointer = pointer
            diagnostics[position].subject = nil
        }
    }

    private func escapePointer(_ token: String) -> String {
        var escaped = ""
        for character in token {
            switch character {
            case "~": escaped += "~0"
            case "/": escaped += "~1"
            default: escaped.append(character)
            }
        }
        return escaped
    }

    public struct Children: Sequence, Sendable {
        let document: JSONDocument
        let parent: Int
        let step: Int
        public func makeIterator() -> Iterator {
            Iterator(nodes: document.nodes, cursor: parent + 1, end: Int(document.nodes[parent].next))
        }
        public struct Iterator: IteratorProtocol {
            let nodes: [JSONNode]
            var cursor: Int
            let end: Int
            public mutating func next() -> Int? {
                guard cursor < end else { return nil }
                defer { cursor = Int(nodes[cursor].next) }
                return cursor
            }
        }
    }

    public struct Members: Sequence, Sendable {
        let document: JSONDocument
        let parent: Int
        public func makeIterator() -> Iterator {
            Iterator(nodes: document.nodes, cursor: parent + 1, end: Int(document.nodes[parent].next))
        }
        public struct Iterator: IteratorProtocol {
            let nodes: [JSONNode]
            var cursor: Int
            let end: Int
            public mutating func next() -> (key: Int, value: Int)? {
                guard cursor + 1 < end else { return nil }
                let key = cursor
                let value = cursor + 1
                cursor = Int(nodes[value].next)
                return (key, value)
            }
        }
    }
}

@inline(__always)
func memEqual(_ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, _ count: Int) -> Bool {
    // Long runs (chapter texts) by the C library's vectorised compare; ids byte by byte.
    if count >= 32 { return memcmp(a, b, count) == 0 }
    var i = 0
    while i < count {
        if a[i] != b[i] { return false }
        i += 1
    }
    return true
}
