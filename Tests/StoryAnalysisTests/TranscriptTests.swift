import Foundation
import StoryAnalysis
import Testing

@Suite("The transcript format")
struct TranscriptTests {
    let walk = "# walkthrough 1\n2\n> harbour\n1\n= lighthouse\n"

    @Test("steps are read in order with their line numbers; comments and blank lines are passed over")
    func steps() throws {
        let transcript = try Transcript.parse(Array(walk.utf8))
        #expect(transcript.lines.map(\.step) == [.choose(2), .expectChapter("harbour"), .choose(1), .expectEnding("lighthouse")])
        #expect(transcript.lines.map(\.number) == [2, 3, 4, 5])
    }

    @Test("CRLF line ends (a Windows checkout) read as the same steps, not as one long comment")
    func crlf() throws {
        let crlf = walk.replacingOccurrences(of: "\n", with: "\r\n")
        #expect(try Transcript.parse(Array(crlf.utf8)) == Transcript.parse(Array(walk.utf8)))
    }

    @Test("a UTF-8 byte-order mark is skipped")
    func byteOrderMark() throws {
        let withMark: [UInt8] = [0xEF, 0xBB, 0xBF] + Array("2\n> harbour\n".utf8)
        #expect(try Transcript.parse(withMark).lines.map(\.step) == [.choose(2), .expectChapter("harbour")])
    }

    @Test("a transcript with no step is an error, never a pass")
    func noSteps() {
        #expect(throws: Transcript.ParseError.noSteps) { try Transcript.parse(Array("# only a comment\r\n\r\n".utf8)) }
        #expect(throws: Transcript.ParseError.noSteps) { try Transcript.parse([]) }
    }

    @Test("a line that is no step names its line")
    func notAStep() {
        #expect(throws: Transcript.ParseError.notAStep(line: 3, text: "go north")) { try Transcript.parse(Array("1\n> a\n go north \n".utf8)) }
        #expect(throws: Transcript.ParseError.notAStep(line: 1, text: "99999999999999999999999")) {
            try Transcript.parse(Array("99999999999999999999999\n".utf8))
        }
    }

    @Test("what is written reads back as the same steps")
    func roundTrip() throws {
        let steps: [Transcript.Step] = [.choose(3), .expectChapter("cellar"), .expectEnding("cellar")]
        let text = Transcript(steps: steps).written(comment: "three steps")
        #expect(text == "# three steps\n3\n> cellar\n= cellar\n")
        #expect(try Transcript.parse(Array(text.utf8)).lines.map(\.step) == steps)
    }

    @Test("an id that starts with a combining mark reads back the same once written (found by fuzzing)")
    func combiningMark() throws {
        let transcript = try Transcript.parse(Array("=\t\u{35A}>2\n".utf8))
        #expect(transcript.lines.map(\.step) == [.expectEnding("\u{35A}>2")])
        #expect(try Transcript.parse(Array(transcript.written().utf8)).lines.map(\.step) == transcript.lines.map(\.step))
    }

    @Test("a reader taking a transcript as input skips comments and expectations, and keeps choices and commands")
    func kinds() {
        #expect(Transcript.kind(of: "  # note") == .blankOrComment)
        #expect(Transcript.kind(of: "> harbour") == .step(.expectChapter("harbour")))
        #expect(Transcript.kind(of: "2") == .step(.choose(2)))
        #expect(Transcript.kind(of: "m harbour") == .other)
    }
}
