/// A line cyd prints: wrapped to the terminal's width with `indent` before each continuation,
/// or, without an indent, written as it is.
public struct PrintedLine: Sendable, Equatable, CustomStringConvertible {
    public var text: String
    public var indent: String?

    public init(_ text: String, indent: String? = "    ") {
        self.text = text
        self.indent = indent
    }

    public var description: String { text }
}
