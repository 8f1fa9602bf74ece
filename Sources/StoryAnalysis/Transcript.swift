/// The transcript format: what `cyd test --write` writes, `cyd test --replay` checks and
/// `cyd read` takes as scripted input. One step a line:
///
///     # a comment
///     2            a choice, numbered as the reader sees them
///     > harbour    the chapter that choice must lead to
///     = lighthouse the chapter reading must end at
///
/// Lines end in LF or CRLF (a Windows checkout with autocrlf); a UTF-8 byte-order mark is
/// skipped; spaces around a step are ignored.
public struct Transcript: Sendable, Equatable {
    public enum Step: Sendable, Equatable {
        case choose(Int)
        case expectChapter(String)
        case expectEnding(String)
    }

    /// A step and the line (1-based) it stands on.
    public struct Line: Sendable, Equatable {
        public var number: Int
        public var step: Step
        /// The line as written, without its line end or surrounding spaces.
        public var text: String

        public init(number: Int, step: Step, text: String) {
            self.number = number
            self.step = step
            self.text = text
        }
    }

    public var lines: [Line]

    public enum ParseError: Error, Sendable, Equatable {
        /// A line that is none of the four kinds.
        case notAStep(line: Int, text: String)
        /// Only comments and blank lines: a transcript that checks nothing never passes.
        case noSteps
    }

    public init(lines: [Line]) { self.lines = lines }

    /// A transcript of these steps, one a line.
    public init(steps: [Step]) {
        lines = steps.enumerated().map { Line(number: $0.offset + 1, step: $0.element, text: "") }
    }

    /// What a line of a transcript is, for a reader taking it as input: nil for a blank line or a
    /// comment, else the step; `.notAStep` lines are the reader's own commands.
    public enum Kind: Sendable, Equatable {
        case blankOrComment
        case step(Step)
        case other
    }

    public static func kind(of line: some StringProtocol) -> Kind {
        // Scalars, not Characters: a combining mark joins the space before it into one
        // Character, so trimming Characters would keep a space that writing added (found by
        // fuzzing: "=\t\u{35A}x" read back differently once written).
        let trimmed = trim(Substring(line))
        guard let first = trimmed.unicodeScalars.first, first != "#" else { return .blankOrComment }
        let rest = String(trim(Substring(trimmed.unicodeScalars.dropFirst())))
        if first == ">" { return .step(.expectChapter(rest)) }
        if first == "=" { return .step(.expectEnding(rest)) }
        if trimmed.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }), trimmed.utf8.count <= 18, let number = Int(trimmed) {
            return .step(.choose(number))
        }
        return .other
    }

    /// Reads a transcript file's bytes (invalid UTF-8 is shown as U+FFFD, never trusted).
    public static func parse(_ bytes: [UInt8]) throws(ParseError) -> Transcript {
        var body = bytes[...]
        if body.starts(with: [0xEF, 0xBB, 0xBF]) { body = body.dropFirst(3) }
        var lines: [Line] = []
        var number = 0
        // Split on the LF byte, not on Characters: "\r\n" is one Character in Swift, so a CRLF
        // file split on "\n" would be a single line.
        for raw in body.split(separator: 0x0A, omittingEmptySubsequences: false) {
            number += 1
            let content = raw.last == 0x0D ? raw.dropLast() : raw
            let text = String(decoding: content, as: UTF8.self)
            switch kind(of: text) {
            case .blankOrComment: continue
            case .step(let step): lines.append(Line(number: number, step: step, text: String(trim(Substring(text)))))
            case .other: throw .notAStep(line: number, text: String(trim(Substring(text))))
            }
        }
        guard !lines.isEmpty else { throw .noSteps }
        return Transcript(lines: lines)
    }

    /// The transcript as text: LF line ends, a comment first when given.
    public func written(comment: String? = nil) -> String {
        var out: [String] = comment.map { ["# " + $0] } ?? []
        for line in lines {
            switch line.step {
            case .choose(let number): out.append(String(number))
            case .expectChapter(let id): out.append("> " + id)
            case .expectEnding(let id): out.append("= " + id)
            }
        }
        return out.joined(separator: "\n") + "\n"
    }

    /// Without the spaces, tabs and carriage returns at either end, scalar by scalar.
    static func trim(_ text: Substring) -> Substring { Substring(text.trimmingBlanks) }
}
