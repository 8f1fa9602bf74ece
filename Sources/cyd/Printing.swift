import CydWords
import TerminalUI

extension Terminal.Stream {
    /// Prints lines the words made: each wrapped to the window on a terminal, its continuations
    /// indented, or written as it is.
    func print(_ lines: [PrintedLine]) {
        for line in lines {
            if let indent = line.indent { TextLayout.write(line.text, to: self, indent: indent) } else { write(line.text + "\n") }
        }
    }
}
