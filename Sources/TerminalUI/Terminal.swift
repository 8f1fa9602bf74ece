import LocalFiles
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
package enum Terminal {
    package struct Stream: Sendable {
        package let descriptor: Int32
        package init(descriptor: Int32) { self.descriptor = descriptor }

        /// Writes everything, retrying short writes; a closed pipe (EPIPE) ends quietly.
        package func write(_ text: String) {
            var text = text
            _ = text.withUTF8 { POSIX.writeAll(descriptor, UnsafeRawBufferPointer($0)) }
        }

        /// Writes bytes as they are (a report's UTF-8, made safe where it was made).
        package func write(_ bytes: [UInt8]) {
            _ = bytes.withUnsafeBytes { POSIX.writeAll(descriptor, $0) }
        }

        package var isTerminal: Bool { isatty(descriptor) == 1 }
    }

    package static let standardOutput = Stream(descriptor: STDOUT_FILENO)

    /// Ends the process with a status, on either C library.
    package static func end(_ status: Int32) -> Never {
        #if canImport(Glibc)
        Glibc.exit(status)
        #elseif canImport(Darwin)
        Darwin.exit(status)
        #endif
    }
    package static let standardError = Stream(descriptor: STDERR_FILENO)

    package enum ColorChoice: String, CaseIterable { case auto, always, never }

    /// Colour only on a terminal, unless NO_COLOR is set (any value) or CLICOLOR=0;
    /// CLICOLOR_FORCE (not 0) or --color always forces it.
    package static func useColor(_ choice: ColorChoice, for stream: Stream, environment: [String: String] = ProcessInfo.processInfo.environment) -> Bool {
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
    package static func width(of stream: Stream) -> Int? {
        var size = winsize()
        guard ioctl(stream.descriptor, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return nil }
        return Int(size.ws_col)
    }

    /// The running executable's path.
    package static var executablePath: String {
        var buffer = [CChar](repeating: 0, count: 4096)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        if count > 0 { return buffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) } }
        return CommandLine.arguments.first ?? ""
    }

    /// What Ctrl-C prints before quitting a reading session (a line break, then where the place is
    /// kept): made once the session is known, since a signal handler cannot build a string.
    nonisolated(unsafe) static var interruptFarewell: UnsafeMutableBufferPointer<UInt8>?

    package static func setInterruptFarewell(_ text: String) { interruptFarewell = signalSafeCopy("\n" + text + "\n") }

    /// Text a signal handler can write: bytes made now, kept for the life of the process.
    private static func signalSafeCopy(_ text: String) -> UnsafeMutableBufferPointer<UInt8> {
        let bytes = Array(text.utf8)
        let buffer = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: bytes.count)
        _ = buffer.initialize(from: bytes)
        return buffer
    }

    /// Ctrl-C (or the terminal going away) while reading: progress is saved after every move,
    /// so quit at once, cleanly, with status 0.
    package static func quitOnInterrupt() {
        for signalNumber in [SIGINT, SIGHUP, SIGTERM] {
            signal(signalNumber) { _ in
                // Only write(2) and _exit(2) here: the words were made beforehand.
                if let farewell = Terminal.interruptFarewell {
                    _ = POSIX.writeBytes(STDOUT_FILENO, farewell.baseAddress!, farewell.count)
                } else {
                    let newline: [UInt8] = [0x0A]
                    _ = newline.withUnsafeBytes { POSIX.writeBytes(STDOUT_FILENO, $0.baseAddress!, 1) }
                }
                _exit(0)
            }
        }
        // A parent may have blocked them (the mask is inherited); a reader must be able to quit.
        var set = sigset_t()
        sigemptyset(&set)
        for signalNumber in [SIGINT, SIGHUP, SIGTERM] { sigaddset(&set, signalNumber) }
        sigprocmask(SIG_UNBLOCK, &set, nil)
    }

    /// A large story is mapped, not copied; if another program truncates it while it is being
    /// read, touching the vanished pages raises SIGBUS. That is said in a sentence, exit 2,
    /// rather than a crash.
    package static func reportTruncatedFiles() {
        signal(SIGBUS) { _ in
            let message: StaticString = "cyd: a story file was cut short by another program while it was being read; run the command again\n"
            _ = POSIX.writeBytes(STDERR_FILENO, message.utf8Start, message.utf8CodeUnitCount)
            _exit(2)
        }
    }

    /// What Ctrl-C says when it stops a long task (a sync): the caller's words, made beforehand.
    nonisolated(unsafe) static var stopWords: UnsafeMutableBufferPointer<UInt8>?

    /// Ctrl-C (or the terminal going away) during a long task whose finished parts are already
    /// stored (a sync): clear the progress line, say `words`, and stop with the conventional
    /// status 130.
    package static func stopOnInterrupt(saying words: String) {
        stopWords = signalSafeCopy("\r\u{1B}[2K" + words + "\n")
        for signalNumber in [SIGINT, SIGHUP, SIGTERM] {
            signal(signalNumber) { _ in
                // Only write(2) and _exit(2) here: the words were made beforehand.
                if let words = Terminal.stopWords { _ = POSIX.writeBytes(STDERR_FILENO, words.baseAddress!, words.count) }
                _exit(130)
            }
        }
    }

    /// Starts a program found on PATH without waiting for it; false when there is none.
    package static func launch(_ program: String, _ arguments: [String]) -> Bool {
        let candidates: [String] = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map { "\($0)/\(program)" }
        let path = candidates.first { access($0, X_OK) == 0 }
        guard let path else { return false }
        var pid: pid_t = 0
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        return posix_spawn(&pid, path, nil, nil, argv, environ) == 0
    }

    /// Writes a file so that a reader never sees half of it: a temporary file, then a rename.

}

package extension TextStyle {
    /// The text report on a terminal: SGR colours (bold red errors, yellow warnings, blue gutter,
    /// green help), or none.
    static func terminal(colors: Bool) -> TextStyle {
        guard colors else { return .plain }
        return TextStyle { part, text in
            let code =
                switch part {
                case .emphasis: "1"
                case .quiet: "2"
                case .gutter: "1;34"
                case .help: "32"
                case .error: "1;31"
                case .warning: "1;33"
                case .note: "1;36"
                }
            return "\u{1B}[\(code)m\(text)\u{1B}[0m"
        }
    }
}
