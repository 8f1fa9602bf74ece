/// "1 chapter", "3 chapters", "2 repositories": a count and its noun, the one way every
/// module words a number of things.
public func plural(_ count: Int, _ one: String, _ many: String? = nil) -> String {
    "\(count) \(count == 1 ? one : many ?? one + "s")"
}

extension StringProtocol {
    /// The text without the scalars `isEdge` accepts at its end (and at its start too, unless
    /// `atStart` is false), looked at scalar by scalar: a combining mark after a space is not a
    /// space, so it stays, and the space before it too. The one way text is trimmed in the
    /// project's modules (Transport's HTTP headers, plain ASCII, keep their own).
    public func trimmingScalars(atStart: Bool = true, where isEdge: (Unicode.Scalar) -> Bool) -> String {
        let scalars = unicodeScalars
        guard let last = scalars.lastIndex(where: { !isEdge($0) }) else { return "" }
        let first = atStart ? scalars.firstIndex(where: { !isEdge($0) })! : scalars.startIndex
        var out = String.UnicodeScalarView()
        out.append(contentsOf: scalars[first...last])
        return String(out)
    }

    /// Without spaces, tabs and carriage returns at either end (a line read from a file or a
    /// terminal, CRLF or not).
    public var trimmingBlanks: String { trimmingScalars { $0 == " " || $0 == "\t" || $0 == "\r" } }
}
