/// Colours for the text format; `.plain` when the output is not a terminal or NO_COLOR is set.
/// The CLI decides; this module only applies it.
public struct TextStyle: Sendable {
    public var colors: Bool
    public init(colors: Bool) { self.colors = colors }
    public static let plain = TextStyle(colors: false)

    func paint(_ text: String, _ code: String) -> String { colors ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text }
    func bold(_ text: String) -> String { paint(text, "1") }
    func dim(_ text: String) -> String { paint(text, "2") }
    func blue(_ text: String) -> String { paint(text, "1;34") }
    func green(_ text: String) -> String { paint(text, "32") }
    func severity(_ severity: Severity, _ text: String) -> String {
        switch severity {
        case .error: paint(text, "1;31")
        case .warning: paint(text, "1;33")
        case .note: paint(text, "1;36")
        }
    }
}

import StoryFormat
