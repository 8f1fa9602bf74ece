#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import StoryCheck
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What cyd knows about where its output goes. Only this module deals with terminals.
enum Terminal {
    struct Stream: Sendable {
        let descriptor: Int32

        /// Writes everything, retrying short writes; a closed pipe (EPIPE) ends quietly.
        func write(_ text: String) {
            var text = text
            text.withUTF8 { buffer in
                var offset = 0
                while offset < buffer.count {
                    let written = POSIX.writeBytes(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                    if written < 0 {
                        if errno == EINTR { continue }
                        return
                    }
                    offset += written
                }
            }
        }

        var isTerminal: Bool { isatty(descriptor) == 1 }
    }

    static let standardOutput = Stream(descriptor: STDOUT_FILENO)
    static let standardError = Stream(descriptor: STDERR_FILENO)

    enum ColorChoice: String, CaseIterable { case auto, always, never }

    /// Colour only on a terminal, unless NO_COLOR is set (any value) or CLICOLOR=0;
    /// CLICOLOR_FORCE (not 0) or --color always forces it.
    static func useColor(_ choice: ColorChoice, for stream: Stream, environment: [String: String] = ProcessInfo.processInfo.environment) -> Bool {
        switch choice {
        case .always: return true
        case .never: return false
        case .auto:
            if let noColor = environment["NO_COLOR"], !noColor.isEmpty { return false }
            if let force = environment["CLICOLOR_FORCE"], !force.isEmpty, force != "0" { return true }
            if environment["CLICOLOR"] == "0" { return false }
            if environment["TERM"] == "dumb" { return false }
            return stream.isTerminal
        }
    }

    /// Columns of the terminal, or nil when output is not a terminal.
    static func width(of stream: Stream) -> Int? {
        var size = winsize()
        guard ioctl(stream.descriptor, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return nil }
        return Int(size.ws_col)
    }

    /// Writes a file so that a reader never sees half of it: a temporary file, then a rename.
    static func writeAtomically(_ text: String, to path: String) throws {
        let url = URL(fileURLWithPath: path)
        try Data(text.utf8).write(to: url, options: .atomic)
    }
}
