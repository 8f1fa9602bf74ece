/// What a key of a format object must hold.
struct KeySpec: Sendable {
    enum Expected {
        case string, nonEmptyString, boolean, array, object

        /// Whether a value of `kind` is of this type.
        func accepts(_ kind: JSONKind) -> Bool {
            switch self {
            case .string, .nonEmptyString: kind == .string
            case .boolean: kind == .true || kind == .false
            case .array: kind == .array
            case .object: kind == .object
            }
        }
    }
    let name: String
    let expected: Expected
    let required: Bool

    init(name: String, expected: Expected, required: Bool) {
        self.name = name
        self.expected = expected
        self.required = required
    }
}

/// Value nodes of an object's keys, one field per key: what a `KeyTable` fills in.
/// -1: absent; `KeyTable.unusable` (-2): present with the wrong type (not reported as missing).
protocol KeyFields { init() }

/// One table per kind of object: each key, what it must hold, and the field its value node goes
/// to. Tables have any number of keys; adding one is one line here and one field.
///
/// Every table is a static, made once; what reading an object looks at is kept in storage made
/// then and never freed (`keys`, `keyBytes`), so that reading it retains nothing. An array would
/// be retained and released at each object read, and the threads decoding one story would share
/// its one count: an atomic change on each core in turn, whose cache line passes back and forth.
struct KeyTable<Fields: KeyFields>: @unchecked Sendable {
    /// What reading an object needs of a key: a trivial value.
    struct Key {
        let expected: KeySpec.Expected
        let required: Bool
        /// Byte offset of the key's field in `Fields` (worked out once, from its key path), so
        /// reading an object stores into the fields without applying key paths.
        let offset: Int
        /// The key's UTF-8 bytes in `keyBytes`.
        let bytes: Range<Int>
    }

    /// The keys, with their names for messages.
    let specs: [KeySpec]
    let keys: UnsafeBufferPointer<Key>
    let keyBytes: UnsafeBufferPointer<UInt8>
    static var unusable: Int32 { -2 }

    init(_ keys: [(String, KeySpec.Expected, required: Bool, WritableKeyPath<Fields, Int32> & Sendable)]) {
        self.init(
            specs: keys.map { KeySpec(name: $0.0, expected: $0.1, required: $0.required) },
            offsets: keys.map { key in
                guard let offset = MemoryLayout<Fields>.offset(of: key.3) else { preconditionFailure("a key's field must be a stored property") }
                return offset
            })
    }

    /// A table whose fields are slots at the given byte offsets (`ChapterNodes`).
    init(specs: [KeySpec], offsets: [Int]) {
        self.specs = specs
        var allBytes: [UInt8] = []
        var keys: [Key] = []
        for (spec, offset) in zip(specs, offsets) {
            let start = allBytes.count
            allBytes += spec.name.utf8
            keys.append(Key(expected: spec.expected, required: spec.required, offset: offset, bytes: start..<allBytes.count))
        }
        self.keys = UnsafeBufferPointer(Self.kept(keys))
        keyBytes = UnsafeBufferPointer(Self.kept(allBytes))
    }

    /// A copy of `values` in storage that is never freed.
    private static func kept<Value>(_ values: [Value]) -> UnsafeMutableBufferPointer<Value> {
        let storage = UnsafeMutableBufferPointer<Value>.allocate(capacity: max(1, values.count))
        _ = storage.initialize(from: values)
        return UnsafeMutableBufferPointer(rebasing: storage[..<values.count])
    }

    var names: [String] { specs.map(\.name) }
}

extension Int32 {
    /// The usable value node a field holds, if any.
    var node: Int? { self >= 0 ? Int(self) : nil }
}

/// Reads the members of one object against its key table, reporting missing keys, wrong types,
/// empty strings and unknown keys (with "did you mean" for near misses). Shared by the story and
/// authors decoders.
struct ObjectReader {
    let document: JSONDocument
    var diagnostics: [Diagnostic] = []

    /// The document's nodes and bytes while `holdingNodes` runs.
    private(set) var heldNodes: UnsafeBufferPointer<JSONNode>?
    private var heldBytes: UnsafeBufferPointer<UInt8>?

    init(document: JSONDocument) { self.document = document }

    /// Runs `body` with the document's nodes and bytes held, so that `read` looks at them without
    /// retaining their storage each time: threads decoding one document share its one count,
    /// and an atomic change of it on each core in turn passes its cache line back and forth (it
    /// made two threads decoding a story together slower than one).
    mutating func holdingNodes<T>(_ body: (inout ObjectReader) -> T) -> T {
        let document = document
        return document.nodes.withUnsafeBufferPointer { nodes in
            document.bytes.withUnsafeBufferPointer { bytes in
                heldNodes = nodes
                heldBytes = bytes
                defer {
                    heldNodes = nil
                    heldBytes = nil
                }
                return body(&self)
            }
        }
    }

    /// Value nodes by key (the last one for duplicate keys); -1 where absent, -2 where wrong.
    mutating func read<Fields: KeyFields>(_ object: Int, _ table: KeyTable<Fields>, label: @autoclosure () -> String) -> Fields {
        if let nodes = heldNodes, let bytes = heldBytes { return read(object, table, nodes: nodes, bytes: bytes, label: label) }
        return holdingNodes { reader in reader.read(object, table, nodes: reader.heldNodes!, bytes: reader.heldBytes!, label: label) }
    }

    private mutating func read<Fields: KeyFields>(
        _ object: Int, _ table: KeyTable<Fields>, nodes: UnsafeBufferPointer<JSONNode>, bytes: UnsafeBufferPointer<UInt8>, label: () -> String
    ) -> Fields {
        var fields = Fields()
        let keys = table.keys
        var child = object + 1
        let end = Int(nodes[object].next)
        while child + 1 < end {
            let key = child
            let value = child + 1
            child = Int(nodes[value].next)
            guard let index = keyIndex(key, table, nodes: nodes, bytes: bytes) else {
                reportUnknown(key: key, names: table.names, label: label())
                continue
            }
            // The usual case is settled here; a value that is not what the key must hold is
            // looked at again, and reported, by `check`.
            let expected = keys[index].expected
            let usable =
                expected.accepts(nodes[value].kind) && !(expected == .nonEmptyString && Self.isBlank(value, nodes, bytes, document))
                || check(value, table.specs[index], label: label)
            let node = usable ? Int32(value) : KeyTable<Fields>.unusable
            let offset = keys[index].offset
            withUnsafeMutableBytes(of: &fields) { $0.storeBytes(of: node, toByteOffset: offset, as: Int32.self) }
        }
        for index in keys.indices where keys[index].required {
            let offset = keys[index].offset
            guard withUnsafeBytes(of: fields, { $0.load(fromByteOffset: offset, as: Int32.self) }) == -1 else { continue }
            let spec = table.specs[index]
            let start = document.range(object).lowerBound
            diagnostics.append(
                Diagnostic(
                    code: .missingKey, severity: .error, message: "\(label()) is missing the required key '\(spec.name)'",
                    help: "add \"\(spec.name)\": \(example(spec.expected)); the original reader refuses a story without it",
                    range: start..<(start + 1), subject: object))
        }
        return fields
    }

    /// Which key of the table a key node names, comparing bytes (keys with escapes are decoded first).
    private func keyIndex<Fields>(
        _ key: Int, _ table: KeyTable<Fields>, nodes: UnsafeBufferPointer<JSONNode>, bytes: UnsafeBufferPointer<UInt8>
    ) -> Int? {
        if nodes[key].flags & JSONNode.hasEscapes != 0 {
            let name = document.string(key)
            return table.specs.firstIndex { $0.name == name }
        }
        let range = JSONDocument.contentRange(key, in: nodes)
        let count = range.count
        let base = bytes.baseAddress! + range.lowerBound
        let keys = table.keys
        for index in keys.indices where keys[index].bytes.count == count {
            if memEqual(base, table.keyBytes.baseAddress! + keys[index].bytes.lowerBound, count) { return index }
        }
        return nil
    }

    /// `JSONDocument.isBlank`, looking at the held nodes and bytes when there are.
    func isBlank(_ node: Int) -> Bool {
        guard let nodes = heldNodes, let bytes = heldBytes else { return document.isBlank(node) }
        return Self.isBlank(node, nodes, bytes, document)
    }

    /// `JSONDocument.isBlank`, from held nodes and bytes for the usual text (one that starts with
    /// a letter after any ASCII white space); the document decides the rest.
    private static func isBlank(_ node: Int, _ nodes: UnsafeBufferPointer<JSONNode>, _ bytes: UnsafeBufferPointer<UInt8>, _ document: JSONDocument) -> Bool {
        JSONDocument.isBlank(JSONDocument.contentRange(node, in: nodes), byItsBytes: bytes) ?? document.isBlank(node)
    }

    /// Reports a value of the wrong type (or an empty required string); true when usable.
    mutating func check(_ value: Int, _ spec: KeySpec, label: () -> String) -> Bool {
        let kind = document.kind(value)
        let ok = spec.expected.accepts(kind)
        if !ok {
            var detail: Diagnostic.Detail?
            if spec.expected == .boolean, kind == .string {
                switch document.string(value).lowercased() {
                case "true": detail = .booleanWrittenAsText(true)
                case "false": detail = .booleanWrittenAsText(false)
                default: break
                }
            }
            diagnostics.append(
                Diagnostic(
                    code: .wrongType, severity: .error,
                    message: "'\(spec.name)' of \(label()) must be \(noun(spec.expected)), found \(kind.noun)",
                    help: wrongTypeHelp(value, spec), range: document.range(value), subject: value, detail: detail))
            return false
        }
        if spec.expected == .nonEmptyString, document.isBlank(value) {
            diagnostics.append(
                Diagnostic(
                    code: .emptyValue, severity: .error, message: "'\(spec.name)' of \(label()) is empty",
                    help: "write a \(spec.name == "id" || spec.name == "chapter_id" ? "short identifier" : "text") between the quotes",
                    range: document.range(value), subject: value))
        }
        return true
    }

    private func wrongTypeHelp(_ value: Int, _ spec: KeySpec) -> String {
        let kind = document.kind(value)
        switch (spec.expected, kind) {
        case (.boolean, .string):
            let text = document.string(value).lowercased()
            if text == "true" || text == "false" {
                return "write \(text) without quotes; the original reader treated the text \"\(text)\" as false"
            }
            return "write true or false without quotes"
        case (.string, .number), (.nonEmptyString, .number):
            return "put the value in double quotes: \"\(document.sourceText(value))\""
        case (.array, .object):
            return "wrap the object in [ ] to make a list"
        default:
            return "write \(example(spec.expected))"
        }
    }

    private mutating func reportUnknown(key: Int, names: [String], label: String) {
        let name = document.string(key)
        let suggestion = KeySuggestion.nearest(to: name, among: names)
        diagnostics.append(
            Diagnostic(
                code: .unknownKey, severity: .warning,
                message: "unknown key '\(VisibleText.escape(name))' in \(label)",
                help: suggestion.map { "did you mean '\($0)'?" } ?? "readers ignore it; known keys here: \(names.joined(separator: ", "))",
                range: document.range(key), subject: key))
    }

    private func noun(_ expected: KeySpec.Expected) -> String {
        switch expected {
        case .string, .nonEmptyString: "a string"
        case .boolean: "a boolean"
        case .array: "an array"
        case .object: "an object"
        }
    }

    private func example(_ expected: KeySpec.Expected) -> String {
        switch expected {
        case .string, .nonEmptyString: "\"...\""
        case .boolean: "true"
        case .array: "[ ... ]"
        case .object: "{ ... }"
        }
    }
}

/// "Did you mean" for keys and ids: the same letters ignoring case, '_', '-' and spaces first,
/// then a small edit distance.
public enum KeySuggestion {
    /// For a few candidates (the keys of an object); `SuggestionIndex` serves many.
    public static func nearest(to name: String, among candidates: [String]) -> String? {
        let folded = fold(name)
        if let exact = candidates.first(where: { fold($0) == folded }) { return exact }
        let query = Array(name.lowercased().unicodeScalars)
        let limit = limit(for: query.count)
        guard limit > 0, query.count <= SuggestionIndex.longestFuzzy else { return nil }
        var best: (String, Int)?
        for candidate in candidates {
            let distance = editDistance(query, Array(candidate.lowercased().unicodeScalars), limit: limit)
            if distance <= limit, distance < (best?.1 ?? .max) { best = (candidate, distance) }
        }
        return best?.0
    }

    /// Short names get no fuzzy match: one edit turns any one-letter id into any other.
    static func limit(for length: Int) -> Int { min(3, length / 3) }

    /// An id or key as suggestions compare it: lowercase, without '_', '-' and spaces
    /// (`SuggestionIndex.fold`, the one definition).
    public static func fold(_ text: String) -> String {
        var buffer: [UInt8] = []
        SuggestionIndex.fold(text, into: &buffer)
        return String(decoding: buffer, as: UTF8.self)
    }

    /// Levenshtein distance, giving up (returning limit + 1) once it exceeds `limit`. Only the
    /// band of width 2 x limit + 1 around the diagonal is computed: O(length x limit).
    public static func editDistance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar], limit: Int) -> Int {
        if abs(a.count - b.count) > limit { return limit + 1 }
        if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
        let outside = limit + 1
        return withUnsafeTemporaryAllocation(of: Int.self, capacity: 2 * (b.count + 1)) { buffer in
            var previous = UnsafeMutableBufferPointer(rebasing: buffer[0...b.count])
            var current = UnsafeMutableBufferPointer(rebasing: buffer[(b.count + 1)...])
            for j in 0...b.count { previous[j] = j <= limit ? j : outside }
            for i in 1...a.count {
                let low = max(1, i - limit)
                let high = min(b.count, i + limit)
                current[0] = i <= limit ? i : outside
                if low > 1 { current[low - 1] = outside }
                var rowMin = current[0]
                if low <= high {
                    for j in low...high {
                        let substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
                        let value = min(substitution, previous[j] + 1, current[j - 1] + 1, outside)
                        current[j] = value
                        rowMin = min(rowMin, value)
                    }
                }
                if high < b.count { current[high + 1] = outside }
                if rowMin > limit { return outside }
                swap(&previous, &current)
            }
            return min(previous[b.count], outside)
        }
    }
}
