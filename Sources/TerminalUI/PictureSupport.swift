#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif
import StoryFormat
import TerminalPictures

/// `--pictures` and CYD_PICTURES.
package enum PictureChoice: String, CaseIterable, Sendable {
    case auto, kitty, iterm, sixel, symbols, off
}

/// CYD_PICTURES names no way of drawing.
package struct UnknownPictureChoice: Error, CustomStringConvertible {
    package let value: String
    package var description: String {
        "CYD_PICTURES is '\(VisibleText.escape(value))'; use one of \(PictureChoice.allCases.map(\.rawValue).joined(separator: ", "))"
    }
}

/// Which way of drawing pictures the reader's terminal takes.
package enum PictureSupport {
    /// The mode for this run: none unless output is a terminal (piped output and --json never
    /// draw); the reader's choice (`--pictures`, else CYD_PICTURES) when given; else what the
    /// environment says; else what the terminal answers to a query; else symbols.
    package static func mode(
        _ choice: PictureChoice?, onTerminal: Bool, environment: [String: String] = ProcessInfo.processInfo.environment,
        ask: () -> String? = { Terminal.askTerminal() }
    ) throws -> PictureMode {
        guard onTerminal else { return .off }
        var chosen = choice
        if chosen == nil, let variable = environment["CYD_PICTURES"], !variable.isEmpty {
            guard let parsed = PictureChoice(rawValue: variable.lowercased()) else {
                throw UnknownPictureChoice(value: variable)
            }
            chosen = parsed
        }
        switch chosen ?? .auto {
        case .off: return .off
        case .kitty: return .kitty
        case .iterm: return .iterm
        case .sixel: return .sixel
        case .symbols: return .symbols(colors(environment))
        case .auto:
            if environment["TERM"] == "dumb" { return .off }
            if let known = fromEnvironment(environment) { return known }
            // tmux redraws the window from its own copy, which holds no pictures: inside it
            // (and in screen) auto draws with symbols and asks nothing. A protocol can still
            // be asked for with --pictures.
            if isMultiplexed(environment) { return .symbols(colors(environment)) }
            if let reply = ask(), let answered = fromReply(reply) { return answered }
            return .symbols(colors(environment))
        }
    }

    package static func isMultiplexed(_ environment: [String: String]) -> Bool {
        environment["TMUX"] != nil || environment["STY"] != nil
            || (environment["TERM"] ?? "").hasPrefix("screen") || (environment["TERM"] ?? "").hasPrefix("tmux")
    }

    /// What the environment alone says, or nil when it does not.
    package static func fromEnvironment(_ environment: [String: String]) -> PictureMode? {
        let term = environment["TERM"] ?? ""
        let program = environment["TERM_PROGRAM"] ?? ""
        if environment["KITTY_WINDOW_ID"] != nil || term == "xterm-kitty" || term == "xterm-ghostty" || program == "ghostty" { return .kitty }
        if program == "iTerm.app" || program == "WezTerm" || environment["WEZTERM_EXECUTABLE"] != nil { return .iterm }
        if term.hasPrefix("foot") || term.hasPrefix("mlterm") || term.hasPrefix("contour") || term == "yaft-256color" { return .sixel }
        if term == "linux" { return .symbols(.indexed16) }
        return nil
    }

    /// What a terminal's answers to XTVERSION and primary device attributes say.
    package static func fromReply(_ reply: String) -> PictureMode? {
        let lowered = reply.lowercased()
        if lowered.contains("kitty") || lowered.contains("ghostty") { return .kitty }
        if lowered.contains("iterm2") || lowered.contains("wezterm") { return .iterm }
        // Device attributes: ESC [ ? 62 ; 4 ; ... c, where 4 means sixel graphics.
        if let start = reply.range(of: "\u{1B}[?"), let end = reply[start.upperBound...].firstIndex(of: "c") {
            let attributes = reply[start.upperBound..<end].split(separator: ";").map(String.init)
            if attributes.dropFirst().contains("4") { return .sixel }
        }
        return nil
    }

    package static func colors(_ environment: [String: String]) -> SymbolColors {
        let colorTerm = (environment["COLORTERM"] ?? "").lowercased()
        if colorTerm == "truecolor" || colorTerm == "24bit" { return .trueColor }
        let term = environment["TERM"] ?? ""
        if term.contains("256color") || term.contains("direct") { return term.contains("direct") ? .trueColor : .indexed256 }
        return .indexed16
    }
}

package extension Terminal {
    /// The window in cells, and a cell's size in pixels when the terminal reports it.
    struct Window: Equatable {
        package var columns: Int
        package var rows: Int
        package var cell: CellSize
    }

    static func window(of stream: Stream) -> Window? {
        var size = winsize()
        guard ioctl(stream.descriptor, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0, size.ws_row > 0 else { return nil }
        let cell =
            size.ws_xpixel > 0 && size.ws_ypixel > 0
            ? CellSize(width: Int(size.ws_xpixel) / Int(size.ws_col), height: Int(size.ws_ypixel) / Int(size.ws_row)) : CellSize.usual
        return Window(columns: Int(size.ws_col), rows: Int(size.ws_row), cell: cell)
    }

    /// Asks the terminal who it is (XTVERSION) and what it can do (primary device attributes),
    /// waiting at most `timeout` seconds; every terminal answers the second, which ends the wait.
    /// Nil when standard input or output is not a terminal, or nothing came back in time.
    static func askTerminal(timeout: Double = 0.5) -> String? {
        guard isatty(STDIN_FILENO) == 1, isatty(STDOUT_FILENO) == 1 else { return nil }
        var saved = termios()
        guard tcgetattr(STDIN_FILENO, &saved) == 0 else { return nil }
        var raw = saved
        raw.c_lflag &= ~tcflag_t(ICANON | ECHO)
        withUnsafeMutableBytes(of: &raw.c_cc) { cc in
            cc[Int(VMIN)] = 0
            cc[Int(VTIME)] = 0
        }
        guard tcsetattr(STDIN_FILENO, TCSANOW, &raw) == 0 else { return nil }
        defer { tcsetattr(STDIN_FILENO, TCSANOW, &saved) }
        standardOutput.write("\u{1B}[>0q\u{1B}[c")
        var reply: [UInt8] = []
        let deadline = monotonicSeconds() + timeout
        while reply.count < 4096 {
            let left = deadline - monotonicSeconds()
            guard left > 0 else { break }
            var poller = pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, Int32(left * 1000) + 1) > 0 else { break }
            var buffer = [UInt8](repeating: 0, count: 256)
            let count = read(STDIN_FILENO, &buffer, buffer.count)
            guard count > 0 else { break }
            reply += buffer[0..<count]
            // The device attributes answer, ESC [ ? ... c, comes last.
            if let start = reply.lastIndex(of: 0x1B), reply[start...].starts(with: [0x1B, 0x5B, 0x3F]), reply.last == 0x63 { break }
        }
        let (answers, typed) = separateAnswers(reply)
        // What the reader typed meanwhile goes back to the terminal's input, for the prompt.
        for byte in typed {
            var character = byte
            _ = ioctl(STDIN_FILENO, UInt(TIOCSTI), &character)
        }
        return answers.isEmpty ? nil : String(decoding: answers, as: UTF8.self)
    }

    /// Splits what came back into the terminal's answers (DCS ... ST and CSI ? ... c) and
    /// anything else: keys the reader typed while the question was out.
    static func separateAnswers(_ bytes: [UInt8]) -> (answers: [UInt8], typed: [UInt8]) {
        var answers: [UInt8] = []
        var typed: [UInt8] = []
        var index = 0
        while index < bytes.count {
            if bytes[index] == 0x1B, index + 1 < bytes.count, bytes[index + 1] == 0x50 {
                // DCS: up to ESC \ (XTVERSION's answer).
                var end = index + 2
                while end + 1 < bytes.count, !(bytes[end] == 0x1B && bytes[end + 1] == 0x5C) { end += 1 }
                let stop = min(bytes.count, end + 2)
                answers += bytes[index..<stop]
                index = stop
            } else if bytes[index] == 0x1B, index + 2 < bytes.count, bytes[index + 1] == 0x5B, bytes[index + 2] == 0x3F {
                // CSI ? ... c (device attributes).
                var end = index + 3
                while end < bytes.count, bytes[end] != 0x63 { end += 1 }
                let stop = min(bytes.count, end + 1)
                answers += bytes[index..<stop]
                index = stop
            } else {
                typed.append(bytes[index])
                index += 1
            }
        }
        return (answers, typed)
    }

    static func monotonicSeconds() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }
}
