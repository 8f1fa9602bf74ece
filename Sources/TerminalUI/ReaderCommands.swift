import StoryReader

/// The reader's commands, in one table: the loop finds a typed word here, `?` lists the table,
/// the key line before each prompt shows its short forms, and `cyd read --help` quotes it. A new
/// command is one row, and cannot be missing from any of them.
package struct ReaderCommand: Sendable {
    package let action: ReaderAction
    /// What may be typed; the first is the key the key line and help show.
    package let names: [String]
    /// How it is typed, in the help: `m [name]`.
    package let usage: String
    /// What it does, in the help.
    package let does: String
    /// Its word on the key line (`m mark`); nil keeps it off the line (it stays in `?`).
    package let keyLine: String?

    package static let all: [ReaderCommand] = [
        ReaderCommand(action: .back, names: ["b", "back"], usage: "b", does: "back to the chapter before", keyLine: "back"),
        ReaderCommand(action: .restart, names: ["r", "restart"], usage: "r", does: "start again from the first chapter", keyLine: "restart"),
        ReaderCommand(
            action: .bookmark, names: ["m", "mark", "bookmark"], usage: "m [name]", does: "bookmark this chapter (under its title unless named)",
            keyLine: "mark"),
        ReaderCommand(action: .jump, names: ["j", "jump"], usage: "j [name]", does: "jump to a bookmark (alone: list them)", keyLine: nil),
        ReaderCommand(action: .unmark, names: ["d", "delete"], usage: "d name", does: "delete a bookmark", keyLine: nil),
        ReaderCommand(action: .note, names: ["n", "note"], usage: "n [text]", does: "write a note on this chapter (alone: list them; n -N deletes one)", keyLine: "note"),
        ReaderCommand(action: .history, names: ["h", "history"], usage: "h", does: "the path you took", keyLine: "history"),
        ReaderCommand(action: .picture, names: ["p", "picture"], usage: "p", does: "the chapter's picture (p save FILE, p open, p retry)", keyLine: "picture"),
        ReaderCommand(action: .quit, names: ["q", "quit", "exit"], usage: "q", does: "quit (your place is kept)", keyLine: "quit"),
        ReaderCommand(action: .help, names: ["?", "help"], usage: "?", does: "this list", keyLine: "help"),
    ]

    /// The command a typed word names (any case), or nil.
    package static func find(_ word: String) -> ReaderCommand? {
        let word = word.lowercased()
        return all.first { $0.names.contains(word) }
    }

    /// The key line's items: what to do with the choices first, then each command's short form.
    package static func keyLineItems(atEnding: Bool) -> [String] {
        [atEnding ? "the end" : "1-9 choose"] + all.compactMap { command in command.keyLine.map { "\(command.names[0]) \($0)" } }
    }

    /// The help's rows: how each command is typed, and what it does.
    package static var helpRows: [(usage: String, does: String)] { [("number", "take that choice")] + all.map { ($0.usage, $0.does) } }

    /// The help, one command a line, the usages in a column; on a terminal of `width` columns
    /// what a command does wraps under itself, never under the usages.
    package static func helpLines(width: Int? = nil) -> [String] {
        let column = 2 + (helpRows.map(\.usage.count).max() ?? 0) + 2
        return helpRows.flatMap { usage, does -> [String] in
            let head = "  " + usage + String(repeating: " ", count: column - 2 - usage.count)
            guard let width, column + does.count > width else { return [head + does] }
            let parts = TextLayout.wrap(does, width: max(20, width - column))
            return parts.enumerated().map { ($0.offset == 0 ? head : String(repeating: " ", count: column)) + $0.element }
        }
    }

    /// The help on one line, for `cyd read --help`.
    package static var helpSummary: String {
        (["number: choose"] + all.map { "\($0.usage) \($0.does)" }).joined(separator: " · ")
    }
}
