@testable import TerminalUI
import TerminalPictures
import Testing

@Suite("Which way a terminal draws pictures")
struct PictureSupportTests {
    func mode(_ environment: [String: String], choice: PictureChoice? = nil, terminal: Bool = true, reply: String? = nil) throws -> PictureMode {
        var asked = false
        let mode = try PictureSupport.mode(choice, onTerminal: terminal, environment: environment) {
            asked = true
            return reply
        }
        if reply == nil { #expect(!asked || environment["TMUX"] == nil, "a multiplexer is never asked") }
        return mode
    }

    @Test("the environment names kitty, iTerm2, WezTerm and sixel terminals without asking")
    func environment() throws {
        #expect(try mode(["KITTY_WINDOW_ID": "1", "TERM": "xterm-kitty"]) == .kitty)
        #expect(try mode(["TERM_PROGRAM": "iTerm.app"]) == .iterm)
        #expect(try mode(["TERM_PROGRAM": "WezTerm"]) == .iterm)
        #expect(try mode(["TERM": "foot"]) == .sixel)
        #expect(try mode(["TERM": "linux"]) == .symbols(.indexed16))
        #expect(try mode(["TERM": "dumb"]) == .off)
    }

    @Test("otherwise the terminal's answers decide: XTVERSION names it, device attribute 4 means sixel")
    func answers() throws {
        let env = ["TERM": "xterm-256color"]
        #expect(try mode(env, reply: "\u{1B}P>|kitty(0.35.2)\u{1B}\\\u{1B}[?62;c") == .kitty)
        #expect(try mode(env, reply: "\u{1B}P>|WezTerm 20240203\u{1B}\\\u{1B}[?65;4;6;18;22c") == .iterm)
        #expect(try mode(env, reply: "\u{1B}[?63;1;2;4;6;9;15;22c") == .sixel)
        #expect(try mode(env, reply: "\u{1B}[?62;22c") == .symbols(.indexed256))
        #expect(try mode(["TERM": "xterm", "COLORTERM": "truecolor"], reply: nil) == .symbols(.trueColor))
    }

    @Test("inside tmux auto draws with symbols and asks nothing; a protocol asked for is used")
    func tmux() throws {
        let env = ["TMUX": "/tmp/tmux-0/default,1,0", "TERM": "tmux-256color"]
        #expect(try mode(env) == .symbols(.indexed256))
        #expect(try mode(env, choice: .kitty) == .kitty)
    }

    @Test("--pictures wins over CYD_PICTURES, which wins over detection; a wrong CYD_PICTURES is named")
    func choices() throws {
        #expect(try mode(["CYD_PICTURES": "off", "KITTY_WINDOW_ID": "1"]) == .off)
        #expect(try mode(["CYD_PICTURES": "off"], choice: .sixel) == .sixel)
        #expect(try mode(["COLORTERM": "24bit"], choice: .symbols) == .symbols(.trueColor))
        #expect {
            try mode(["CYD_PICTURES": "jpeg"])
        } throws: { error in
            "\(error)" == "CYD_PICTURES is 'jpeg'; use one of auto, kitty, iterm, sixel, symbols, off"
        }
    }

    @Test("piped output never draws, whatever was asked")
    func piped() throws {
        #expect(try mode(["KITTY_WINDOW_ID": "1"], choice: .kitty, terminal: false) == .off)
    }

    @Test("keys typed while the terminal was asked are told apart from its answers")
    func typedAhead() {
        let bytes = Array("q\u{1B}P>|XTerm(390)\u{1B}\\\n\u{1B}[?64;4c".utf8)
        let (answers, typed) = Terminal.separateAnswers(bytes)
        #expect(typed == Array("q\n".utf8))
        #expect(String(decoding: answers, as: UTF8.self) == "\u{1B}P>|XTerm(390)\u{1B}\\\u{1B}[?64;4c")
    }
}
