import CLineEditor

/// The reader's prompt on a terminal: libedit's line editing and history when it can be loaded
/// (arrow keys move the cursor and recall earlier commands, never reach the parser as `^[[D`),
/// a plain line read otherwise.
package enum LineEditor {
    /// Whether libedit was found (it is loaded on the first call).
    package static var isAvailable: Bool { cle_load() == 1 }

    /// Shows `prompt` and reads a line; nil at end of input. Lines typed are kept in the history.
    package static func readLine(prompt: String) -> String? {
        guard isAvailable else {
            Terminal.standardOutput.write(prompt)
            return Swift.readLine()
        }
        guard let raw = cle_readline(prompt) else { return nil }
        defer { cle_free(raw) }
        let line = String(cString: raw)
        if !line.allSatisfy(\.isWhitespace) { cle_add_history(raw) }
        return line
    }
}
