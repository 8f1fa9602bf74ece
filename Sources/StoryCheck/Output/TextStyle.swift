import StoryFormat

/// Which part of the text report a piece of text is: this module says which, the CLI decides how
/// each looks (colours on a terminal, nothing elsewhere). `.plain` marks nothing.
public struct TextStyle: Sendable {
    public enum Part: Sendable, Hashable {
        /// The finding's message, the summary line.
        case emphasis
        /// The rule's name, the line counting findings not shown.
        case quiet
        /// The `-->`, `|` and `=` gutter and line numbers.
        case gutter
        /// The help line.
        case help
        case error, warning, note
    }

    let mark: @Sendable (Part, String) -> String

    public init(mark: @escaping @Sendable (Part, String) -> String) { self.mark = mark }
    public static let plain = TextStyle { _, text in text }

    func bold(_ text: String) -> String { mark(.emphasis, text) }
    func dim(_ text: String) -> String { mark(.quiet, text) }
    func blue(_ text: String) -> String { mark(.gutter, text) }
    func green(_ text: String) -> String { mark(.help, text) }
    func severity(_ severity: Severity, _ text: String) -> String {
        switch severity {
        case .error: mark(.error, text)
        case .warning: mark(.warning, text)
        case .note: mark(.note, text)
        }
    }
}
