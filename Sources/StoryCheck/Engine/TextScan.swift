import StoryFormat

/// One pass over every string of a story file, shared by the text rules: it finds control
/// characters, escape-sequence introducers, bidi controls and `[[placeholders]]`, each at the
/// bytes of the source that wrote it (for `\u001b`, the six characters of the escape).
public struct TextScan: Sendable {
    public enum Kind: Sendable, Hashable { case control, escapeIntroducer, bidiControl, placeholder }

    public struct Finding: Sendable, Hashable {
        public var kind: Kind
        /// The string node it is in.
        public var node: Int
        public var range: Range<Int>
        public var scalar: Unicode.Scalar?
        /// For placeholders: the text between the brackets.
        public var placeholder: String?
    }

    public private(set) var findings: [Finding] = []

    /// Scans every string of `document`, looking for placeholders in all of them, so that it
    /// can start as soon as the tree is parsed, before anyone knows which strings are chapter
    /// texts; `keepingPlaceholders(in:)` then keeps those of the chapter texts.
    public init(document: JSONDocument) {
        let source = document.bytes
        // A sweep of its own: the checker runs this scan on another thread beside the rules.
        var sweep = source.sweep()
        defer { sweep.end() }
        source.withUnsafeBufferPointer { p in
            document.nodes.withUnsafeBufferPointer { nodes in
                for index in nodes.indices where nodes[index].kind == .string {
                    let range = Int(nodes[index].start + 1)..<Int(nodes[index].end - 1)
                    sweep.release(upTo: range.lowerBound)
                    scan(p, range, node: index)
                }
            }
        }
    }

    private mutating func record(_ kind: Kind, _ scalar: UInt32, _ range: Range<Int>, _ node: Int) {
        findings.append(Finding(kind: kind, node: node, range: range, scalar: Unicode.Scalar(scalar)))
    }

    private mutating func classify(_ value: UInt32, _ range: Range<Int>, _ node: Int) {
        if value == 0x1B || VisibleText.isC1(value) {
            record(.escapeIntroducer, value, range, node)
        } else if value < 0x20 && value != 0x0A && value != 0x09 && value != 0x0D || value == 0x7F {
            record(.control, value, range, node)
        } else if VisibleText.isBidiControl(value) {
            record(.bidiControl, value, range, node)
        }
    }

    /// One pass over a string's bytes; plain printable ASCII (almost all text) costs one compare.
    private mutating func scan(_ p: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, node: Int) {
        var i = range.lowerBound
        let end = range.upperBound
        let bracket = UInt8(ascii: "[")
        while i < end {
            // Plain printable ASCII (almost all text) is skipped sixteen bytes at a time, and
            // characters of more than one byte that are neither C1 nor bidi controls whole.
            i = textScanStop(p, from: i, to: end)
            guard i < end else { return }
            let b = p[i]
            if b == bracket {
                if i + 1 < end, p[i + 1] == bracket, let close = placeholderEnd(p, from: i, end: end) {
                    let inner = Array(p[(i + 2)..<close])
                    let name = inner.contains(UInt8(ascii: "\\"))
                        ? String(String.UnicodeScalarView(StringContent.decodeAll(inner)))
                        : String(decoding: inner, as: UTF8.self)
                    findings.append(Finding(kind: .placeholder, node: node, range: i..<(close + 2), scalar: nil, placeholder: name))
                }
                i += 1
            } else if b == UInt8(ascii: "\\") {
                guard i + 1 < end else { return }
                if p[i + 1] == UInt8(ascii: "u"), i + 6 <= end, let value = hex4(p, i + 2) {
                    classify(value, i..<(i + 6), node)
                    i += 6
                } else {
                    i += 2
                }
            } else if b < 0x80 {
                classify(UInt32(b), i..<(i + 1), node)
                i += 1
            } else if b == 0xC2, i + 1 < end {
                if p[i + 1] >= 0x80 && p[i + 1] <= 0x9F { record(.escapeIntroducer, UInt32(p[i + 1]), i..<(i + 2), node) }
                i += 2
            } else if b == 0xE2, i + 2 < end {
                let value = UInt32(b & 0x0F) << 12 | UInt32(p[i + 1] & 0x3F) << 6 | UInt32(p[i + 2] & 0x3F)
                if VisibleText.isBidiControl(value) { record(.bidiControl, value, i..<(i + 3), node) }
                i += 3
            } else {
                // Any other character of more than one byte (é, ’): its continuation bytes, and
                // only those, are passed over here rather than one call of the skip each.
                i += 1
                while i < end, p[i] & 0xC0 == 0x80 { i += 1 }
            }
        }
    }

    /// Index of the "]]" closing a placeholder that opens at `start`, within a short distance
    /// and with no "[" in between; nil when there is none.
    private func placeholderEnd(_ p: UnsafeBufferPointer<UInt8>, from start: Int, end: Int) -> Int? {
        var close = start + 2
        while close + 1 < end, close - start < 64 {
            if p[close] == UInt8(ascii: "]") && p[close + 1] == UInt8(ascii: "]") { return close }
            if p[close] == UInt8(ascii: "[") { return nil }
            close += 1
        }
        return nil
    }

    private func hex4(_ p: UnsafeBufferPointer<UInt8>, _ at: Int) -> UInt32? { hexQuad(at: at) { p[$0] } }

    public func findings(of kind: Kind) -> [Finding] { findings.filter { $0.kind == kind } }

    /// This scan with only the placeholders found in `nodes` (the chapter texts): what a scan
    /// given those nodes would have found.
    public func keepingPlaceholders(in nodes: [Int]) -> TextScan {
        let nodes = nodes.sorted()
        var kept = self
        kept.findings = findings.filter { finding in
            guard finding.kind == .placeholder else { return true }
            var low = 0, high = nodes.count
            while low < high {
                let middle = (low + high) / 2
                if nodes[middle] < finding.node { low = middle + 1 } else { high = middle }
            }
            return low < nodes.count && nodes[low] == finding.node
        }
        return kept
    }
}

extension StringContent {
    /// Decodes the inside of a JSON string given as bytes.
    static func decodeAll(_ bytes: [UInt8]) -> [Unicode.Scalar] {
        StringContent(bytes: SourceBytes(bytes), range: 0..<bytes.count).map(\.scalar)
    }
}
