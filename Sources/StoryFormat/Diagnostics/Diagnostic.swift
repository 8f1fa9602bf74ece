/// How serious a finding is. Ordered: `note < warning < error`.
public enum Severity: String, Sendable, Hashable, Comparable, CaseIterable, Codable {
    case note, warning, error

    private var rank: Int {
        switch self {
        case .note: 0
        case .warning: 1
        case .error: 2
        }
    }

    public static func < (lhs: Severity, rhs: Severity) -> Bool { lhs.rank < rhs.rank }
}

/// A stable diagnostic code such as `CYD302`. Codes are never reused; the rule catalogue in
/// StoryCheck describes each one.
public struct DiagnosticCode: RawRepresentable, Hashable, Comparable, Sendable, Codable,
    CustomStringConvertible, ExpressibleByStringLiteral
{
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(stringLiteral value: String) { self.rawValue = value }
    public var description: String { rawValue }
    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// A secondary place that explains a finding, such as the first definition of a duplicate id.
public struct RelatedLocation: Sendable, Hashable {
    public var message: String
    public var range: Range<Int>
    public init(message: String, range: Range<Int>) {
        self.message = message
        self.range = range
    }
}

/// One finding in one file. Positions are byte offsets into the file; `LineIndex` turns them
/// into line and column when a finding is shown.
public struct Diagnostic: Sendable, Hashable {
    public var code: DiagnosticCode
    public var severity: Severity
    /// Worded as a rule, lowercase, no trailing period: "choice target 'x' does not exist".
    public var message: String
    /// What to do about it, shown on a separate `help:` line.
    public var help: String?
    /// Byte range in the file the finding points at (may be empty for a point).
    public var range: Range<Int>
    /// RFC 6901 pointer to the JSON value concerned ("" is the whole document).
    public var pointer: String
    public var related: [RelatedLocation]
    /// The node the finding is about, while its `pointer` is still to be worked out. Pointers of
    /// all findings are worked out together in one walk over the tree
    /// (`JSONDocument.resolvePointers`): one walk per finding would make a file with many
    /// findings cost findings x file.
    public var subject: Int?
    /// What the finding knows in a form a repair can act on, so that no repair reads the
    /// message's words.
    public var detail: Detail?

    public enum Detail: Sendable, Hashable {
        /// A boolean written as text ("true", "FALSE"): the value it means.
        case booleanWrittenAsText(Bool)
    }

    public init(
        code: DiagnosticCode, severity: Severity, message: String, help: String? = nil,
        range: Range<Int>, pointer: String = "", subject: Int? = nil, related: [RelatedLocation] = [], detail: Detail? = nil
    ) {
        self.detail = detail
        self.code = code
        self.severity = severity
        self.message = message
        self.help = help
        self.range = range
        self.pointer = pointer
        self.subject = subject
        self.related = related
    }
}

extension Diagnostic {
    /// What is left in the place of a finding moved out of a list (`appendMoving`, a sort):
    /// never shown, and holding no memory of its own.
    package static let movedOut = Diagnostic(code: DiagnosticCode(rawValue: ""), severity: .note, message: "", range: 0..<0)
}

extension Array where Element == Diagnostic {
    public var hasErrors: Bool { contains { $0.severity == .error } }

    /// Sorted by position, then code, so output is stable whatever order rules ran in.
    public func sortedByPosition() -> [Diagnostic] {
        sorted { Self.precedesByPosition($0, $1) }
    }

    /// Errors first, then warnings, then notes, each in file order: the cause of a cascade (a
    /// duplicated id, a syntax error) is an error and is read before what follows from it.
    public func sortedBySeverityThenPosition() -> [Diagnostic] {
        var sorted = self
        sorted.sortBySeverityThenPosition()
        return sorted
    }

    /// `sortedBySeverityThenPosition`, in place. The places are sorted, then the findings moved
    /// into their order: sorting the findings themselves copied them (their strings retained and
    /// released) at every step, a few milliseconds for a story's 7,000 findings.
    public mutating func sortBySeverityThenPosition() {
        guard count > 1 else { return }
        let order = withUnsafeBufferPointer { all in
            (0..<Int32(all.count)).sorted { a, b in
                // Field by field through the pointers: no finding is copied to be compared.
                let (x, y) = (all.baseAddress! + Int(a), all.baseAddress! + Int(b))
                if x.pointee.severity != y.pointee.severity { return x.pointee.severity > y.pointee.severity }
                if x.pointee.range.lowerBound != y.pointee.range.lowerBound { return x.pointee.range.lowerBound < y.pointee.range.lowerBound }
                if x.pointee.code != y.pointee.code { return x.pointee.code < y.pointee.code }
                return x.pointee.message < y.pointee.message
            }
        }
        var sorted: [Diagnostic] = []
        sorted.reserveCapacity(count)
        withUnsafeMutableBufferPointer { all in
            for index in order { sorted.append((all.baseAddress! + Int(index)).move()) }
            // Each was moved out once: the room is filled again before it is let go.
            all.initialize(repeating: .movedOut)
        }
        self = sorted
    }

    /// Position, then code, then message; the message (a string, retained to be compared) is
    /// looked at only when the two are the same finding's kind at the same place.
    @inline(__always) static func precedesByPosition(_ a: Diagnostic, _ b: Diagnostic) -> Bool {
        if a.range.lowerBound != b.range.lowerBound { return a.range.lowerBound < b.range.lowerBound }
        if a.code != b.code { return a.code < b.code }
        return a.message < b.message
    }
}
