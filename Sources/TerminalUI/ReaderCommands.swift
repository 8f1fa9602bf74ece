import InterfaceWords
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
    package let does: Phrase
    /// Its word on the key line (`m mark`); nil keeps it off the line (it stays in `?`).
    package let keyLine: Phrase?

    package static let all: [ReaderCommand] = [
        ReaderCommand(action: .back, names: ["b", "back"], usage: "b", does: .readerHelpBack, keyLine: .readerKeyBack),
        ReaderCommand(action: .restart, names: ["r", "restart"], usage: "r", does: .readerHelpRestart, keyLine: .readerKeyRestart),
        ReaderCommand(
            action: .bookmark, names: ["m", "mark", "bookmark"], usage: "m [name]", does: .readerHelpMark,
            keyLine: .readerKeyMark),
        ReaderCommand(action: .jump, names: ["j", "jump"], usage: "j [name]", does: .readerHelpJump, keyLine: nil),
        ReaderCommand(action: .unmark, names: ["d", "delete"], usage: "d name", does: .readerHelpDelete, keyLine: nil),
        ReaderCommand(action: .note, names: ["n", "note"], usage: "n [text]", does: .readerHelpNote, keyLine: .readerKeyNote),
        ReaderCommand(action: .history, names: ["h", "history"], usage: "h", does: .readerHelpHistory, keyLine: .readerKeyHistory),
        ReaderCommand(action: .picture, names: ["p", "picture"], usage: "p", does: .readerHelpPicture, keyLine: .readerKeyPicture),
        ReaderCommand(action: .quit, names: ["q", "quit", "exit"], usage: "q", does: .readerHelpQuit, keyLine: .readerKeyQuit),
        ReaderCommand(action: .help, names: ["?", "help"], usage: "?", does: .readerHelpHelp, keyLine: .readerKeyHelp),
    ]

    /// The command a typed word names (any case), or nil.
    package static func find(_ word: String) -> ReaderCommand? {
        let word = word.lowercased()
        return all.first { $0.names.contains(word) }
    }

    /// The key line's items: what to do with the choices first, then each command's short form.
    package static func keyLineItems(atEnding: Bool, words: Phrasebook = .english) -> [String] {
        [words[atEnding ? .readerKeyTheEnd : .readerKeyChoose]] + all.compactMap { command in command.keyLine.map { "\(command.names[0]) \(words[$0])" } }
    }

    /// The help's rows: how each command is typed, and what it does.
    package static func helpRows(_ words: Phrasebook = .english) -> [(usage: String, does: String)] {
        [(words[.readerHelpNumberUsage], words[.readerHelpNumber])] + all.map { ($0.usage, words[$0.does]) }
    }

    /// The help, one command a line, the usages in a column; on a terminal of `width` columns
    /// what a command does wraps under itself, never under the usages.
    package static func helpLines(width: Int? = nil, words: Phrasebook = .english) -> [String] {
        let helpRows = helpRows(words)
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
        (["number: choose"] + all.map { "\($0.usage) \($0.does.english)" }).joined(separator: " · ")
    }
}
