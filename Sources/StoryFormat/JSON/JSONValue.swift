/// A JSON value, the one the project writes by hand everywhere (the language server's
/// messages, the reader's `--json` events, the command line's JSON answers): read with the
/// project's own JSON reader, written compactly with every string through `JSONQuoting`, so no
/// control or bidi character reaches a terminal raw. Objects keep their members in order.
public enum JSONValue: Sendable, Hashable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([(String, JSONValue)])

    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): true
        case let (.bool(a), .bool(b)): a == b
        case let (.number(a), .number(b)): a == b
        case let (.string(a), .string(b)): a == b
        case let (.array(a), .array(b)): a == b
        case let (.object(a), .object(b)): a.count == b.count && zip(a, b).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        default: false
        }
    }

    public func hash(into hasher: inout Hasher) {
        switch self {
        case .null: hasher.combine(0)
        case let .bool(value): hasher.combine(value)
        case let .number(value): hasher.combine(value)
        case let .string(value): hasher.combine(value)
        case let .array(values): hasher.combine(values)
        case let .object(members):
            for (key, value) in members {
                hasher.combine(key)
                hasher.combine(value)
            }
        }
    }

    /// Parses one message body; nil when it is not JSON.
    public static func parse(_ bytes: [UInt8]) -> JSONValue? {
        // An editor's text may hold a lone surrogate (JavaScript strings can): it is read as
        // U+FFFD rather than refusing the whole message (`document` reads it the same way).
        document(bytes).map { JSONValue($0.document, $0.root) }
    }

    /// A JSON text read into its nodes, not into values (nil as `parse` is nil): for a large
    /// text of which a few parts are wanted as values (cyd's metadata passage in a Twee file
    /// holds 100,000 chapters' fields, each read where it lies).
    package static func document(_ bytes: [UInt8]) -> (document: JSONDocument, root: Int)? {
        let result = JSONParser(options: .init(maximumDepth: 256, loneSurrogates: .replaced)).parse(bytes)
        guard let document = result.document, !result.diagnostics.contains(where: { $0.severity == .error }), let root = document.root else {
            return nil
        }
        return (document, root)
    }

    /// The value of `node` in `document`.
    package init(_ document: JSONDocument, _ node: Int) {
        switch document.kind(node) {
        case .null: self = .null
        case .true: self = .bool(true)
        case .false: self = .bool(false)
        case .number: self = .number(document.number(node) ?? 0)
        case .string: self = .string(document.string(node))
        case .array: self = .array(document.elements(of: node).map { JSONValue(document, $0) })
        case .object: self = .object(document.members(of: node).map { (document.string($0.key), JSONValue(document, $0.value)) })
        }
    }

    public subscript(key: String) -> JSONValue? {
        guard case let .object(members) = self else { return nil }
        return members.first { $0.0 == key }?.1
    }

    public var string: String? { if case let .string(value) = self { value } else { nil } }
    public var int: Int? {
        if case let .number(value) = self, value.rounded() == value, abs(value) < 1e15 { Int(value) } else { nil }
    }
    public var bool: Bool? { if case let .bool(value) = self { value } else { nil } }
    public var array: [JSONValue]? { if case let .array(values) = self { values } else { nil } }

    /// An object from a dictionary, its members in sorted key order (so output is stable).
    public static func object(_ members: [String: JSONValue]) -> JSONValue {
        .object(members.sorted { $0.key < $1.key }.map { ($0.key, $0.value) })
    }

    /// The value as compact JSON text.
    public var encoded: String { String(decoding: bytes, as: UTF8.self) }

    private static let spaces = [UInt8](repeating: 0x20, count: 64)

    /// The value as JSON text for people: one member or element a line, indented by two spaces,
    /// empty arrays and objects as `[]` and `{}`; no line feed at the end.
    public func pretty(indent: Int = 0) -> String {
        var out: [UInt8] = []
        writePretty(to: &out, indent: indent)
        return String(decoding: out, as: UTF8.self)
    }

    private func writePretty(to out: inout [UInt8], indent: Int) {
        func newline(_ depth: Int) {
            out.append(0x0A)
            // Spaces from a ready row, not a generic repeated-element copy (which a profile of
            // the JSON report once found at a quarter of its time).
            var left = depth * 2
            while left > 0 {
                let count = min(left, Self.spaces.count)
                out.append(contentsOf: Self.spaces[..<count])
                left -= count
            }
        }
        switch self {
        case let .array(values) where !values.isEmpty:
            out.append(UInt8(ascii: "["))
            for (index, value) in values.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                newline(indent + 1)
                value.writePretty(to: &out, indent: indent + 1)
            }
            newline(indent)
            out.append(UInt8(ascii: "]"))
        case let .object(members) where !members.isEmpty:
            out.append(UInt8(ascii: "{"))
            for (index, (key, value)) in members.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                newline(indent + 1)
                JSONQuoting.append(key, to: &out)
                out.append(UInt8(ascii: ":"))
                out.append(UInt8(ascii: " "))
                value.writePretty(to: &out, indent: indent + 1)
            }
            newline(indent)
            out.append(UInt8(ascii: "}"))
        default:
            write(to: &out)
        }
    }

    /// The value as compact JSON text.
    public var bytes: [UInt8] {
        var out: [UInt8] = []
        write(to: &out)
        return out
    }

    public func write(to out: inout [UInt8]) {
        switch self {
        case .null: out.append(contentsOf: "null".utf8)
        case let .bool(value): out.append(contentsOf: (value ? "true" : "false").utf8)
        case let .number(value):
            if value.rounded() == value, abs(value) < 1e15 {
                out.append(contentsOf: String(Int(value)).utf8)
            } else {
                out.append(contentsOf: (value.isFinite ? String(value) : "null").utf8)
            }
        case let .string(value): JSONQuoting.append(value, to: &out)
        case let .array(values):
            out.append(UInt8(ascii: "["))
            for (index, value) in values.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                value.write(to: &out)
            }
            out.append(UInt8(ascii: "]"))
        case let .object(members):
            out.append(UInt8(ascii: "{"))
            for (index, (key, value)) in members.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                JSONQuoting.append(key, to: &out)
                out.append(UInt8(ascii: ":"))
                value.write(to: &out)
            }
            out.append(UInt8(ascii: "}"))
        }
    }
}

extension JSONValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByBooleanLiteral,
    ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral, ExpressibleByNilLiteral
{
    public init(stringLiteral value: String) { self = .string(value) }
    public init(integerLiteral value: Int) { self = .number(Double(value)) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    public init(dictionaryLiteral elements: (String, JSONValue)...) { self = .object(elements) }
    public init(nilLiteral: ()) { self = .null }
    public init(_ value: Int) { self = .number(Double(value)) }
}
