import Foundation
import TestSupport
import Testing

/// Pictures drawn by `cyd read` in a real terminal (tmux): the pane as a person sees it
/// (capture-pane) and the bytes cyd wrote (pipe-pane).
@Suite("cyd read draws pictures (tmux)", .serialized)
struct TerminalPictureTests {
    let home = try! TemporaryFolder()
    static let pictures = Command.packageRoot.appendingPathComponent("Tests/Fixtures/pictures")
    static let escape = "\u{1B}"

    /// A story whose first chapter shows `picture` (copied from the fixtures, or an https link).
    func story(picture: String, copy: Bool = true) throws -> String {
        try? FileManager.default.removeItem(atPath: home.path("story"))
        if copy {
            try FileManager.default.createDirectory(atPath: home.path("story/resources"), withIntermediateDirectories: true)
            try FileManager.default.copyItem(atPath: Self.pictures.appendingPathComponent(picture).path, toPath: home.path("story/resources/\(picture)"))
        }
        let path = copy ? "resources/\(picture)" : picture
        let story = TestStory(
            id: "harbour", title: "The Harbour", summary: "s",
            chapters: [
                .init(
                    "quay", name: "The Quay", text: "Gulls wheel over the harbour wall while the boats come in with the evening tide.",
                    choices: [("end", "Walk to the lighthouse")], isFirst: true, picture: path),
                .init("end", name: "The Lighthouse", text: "The lamp turns.", isEnding: true),
            ])
        _ = try home.write("story/story.json", story.json)
        return home.path("story")
    }

    func command(_ arguments: String, environment: String = "") -> String {
        "env CYD_HOME='\(home.path("library"))' NO_COLOR= \(environment) '\(Command.cyd.path)' read --name Ana \(arguments)"
    }

    /// Lines holding a block element (U+2580-U+259F) or a background colour: the picture drawn
    /// with symbols (a plain area is spaces on a colour). `screen` is captured with escapes.
    static func blockLines(_ screen: String) -> [Substring] {
        screen.split(separator: "\n").filter { isPictureRow($0) }
    }

    static func isPictureRow(_ line: Substring) -> Bool {
        line.unicodeScalars.contains { (0x2580...0x259F).contains($0.value) } || line.contains("\u{1B}[48;")
    }

    /// The pane with its colours (capture-pane -e).
    static func colouredScreen(_ session: TerminalReadingTests.Session) throws -> String {
        try session.run(["capture-pane", "-e", "-p", "-t", session.name]).standardOutput
    }

    @Test("symbols: block characters above the text, fitted to the window; p draws it bigger")
    func symbols() throws {
        let folder = try story(picture: "harbour.png")
        let session = try TerminalReadingTests.Session(command: command("--pictures symbols '\(folder)'"))
        var screen = try session.waitFor("1-9 choose")
        let lines = screen.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.allSatisfy { $0.count <= 90 })
        let coloured = try Self.colouredScreen(session).split(separator: "\n", omittingEmptySubsequences: false)
        let title = try #require(coloured.firstIndex { $0.contains("The Quay") })
        let text = try #require(coloured.firstIndex { $0.contains("Gulls wheel") })
        let drawn = coloured.filter { Self.isPictureRow($0) }
        // 960 x 600 in 90 columns and half of 45 rows: 22 rows high, 70 columns wide.
        #expect(drawn.count >= 18 && drawn.count <= 22, "\(drawn.count) rows of picture:\n\(screen)")
        #expect(coloured[title..<text].filter { Self.isPictureRow($0) }.count == drawn.count, "the picture sits between the title and the text:\n\(screen)")
        let widest = lines[title..<text].map { $0.trimmingCharacters(in: .whitespaces).count }.max() ?? 0
        #expect(widest <= 70, "\(screen)")
        try session.type("p", "Enter")
        screen = try session.waitFor("stored in the library")
        // Full window: 90 columns by 28 rows; some rows of blocks are now wider than 70.
        let bigger = screen.split(separator: "\n").filter { $0.unicodeScalars.contains { (0x2580...0x259F).contains($0.value) } }
        #expect(bigger.contains { $0.count > 75 }, "p drew it no bigger:\n\(screen)")
        try session.type("q", "Enter")
        #expect(try session.exitStatus() == 0)
    }

    @Test("at 40 columns the picture is 40 wide at most and no line of text is broken mid-word")
    func narrow() throws {
        let folder = try story(picture: "harbour.png")
        let session = try TerminalReadingTests.Session(command: command("--pictures symbols '\(folder)'"), columns: 40)
        let screen = try session.waitFor("? help")
        let lines = screen.split(separator: "\n")
        #expect(lines.allSatisfy { $0.count <= 40 }, "\(screen)")
        let coloured = try Self.colouredScreen(session)
        #expect(Self.blockLines(coloured).count >= 8, "the picture is drawn: \(screen)")
        let words = Set("Gulls wheel over the harbour wall while the boats come in with the evening tide.".split(separator: " "))
        let text = lines.drop { !$0.hasPrefix("Gulls") }.prefix { !$0.isEmpty && !$0.hasPrefix("  1)") }
        #expect(!text.isEmpty && text.allSatisfy { $0.split(separator: " ").allSatisfy { words.contains($0) } }, "\(screen)")
        try session.type("q", "Enter")
        #expect(try session.exitStatus() == 0)
    }

    /// The bytes cyd writes into the pane with `--pictures how`.
    func rawOutput(_ how: String, picture: String = "harbour.png") throws -> String {
        let folder = try story(picture: picture)
        let raw = home.path("raw-\(how).bin")
        // The reader waits a moment so that pipe-pane is in place before its first byte.
        let session = try TerminalReadingTests.Session(command: "sleep 1; " + command("--pictures \(how) '\(folder)'"))
        _ = try session.run(["pipe-pane", "-o", "-t", session.name, "cat >> '\(raw)'"])
        _ = try session.waitFor("1-9 choose")
        try session.type("q", "Enter")
        #expect(try session.exitStatus() == 0)
        _ = try session.run(["pipe-pane", "-t", session.name])
        return String(decoding: (try? Data(contentsOf: URL(fileURLWithPath: raw))) ?? Data(), as: UTF8.self)
    }

    /// The numbers of `key=` in a sequence's parameters.
    static func parameter(_ key: String, in text: Substring) -> Int? {
        text.split(whereSeparator: { $0 == "," || $0 == ";" || $0 == ":" }).first { $0.hasPrefix(key + "=") }.flatMap { Int($0.dropFirst(key.count + 1)) }
    }

    @Test("kitty: an APC _G image whose declared cells fit the window")
    func kitty() throws {
        let raw = try rawOutput("kitty")
        let start = try #require(raw.range(of: Self.escape + "_G"), "no kitty graphics in the output")
        let header = raw[start.upperBound...].prefix { $0 != "\u{1B}" }
        let columns = try #require(Self.parameter("c", in: header)), rows = try #require(Self.parameter("r", in: header))
        #expect(columns <= 90 && rows <= 22 && columns >= 40, "\(header)")
        #expect(Self.parameter("f", in: header) == 32 && Self.parameter("s", in: header) != nil && Self.parameter("v", in: header) != nil)
        // Every chunk is terminated (ST) and the last says m=0.
        let chunks = raw.components(separatedBy: Self.escape + "_G").dropFirst()
        #expect(chunks.allSatisfy { $0.contains(Self.escape + "\\") })
        #expect(chunks.last?.hasPrefix("m=0") == true)
        #expect(raw.contains("Gulls wheel over the harbour"))
    }

    @Test("iterm: an OSC 1337 inline image whose width and height fit the window")
    func iterm() throws {
        let raw = try rawOutput("iterm")
        let start = try #require(raw.range(of: Self.escape + "]1337;File=inline=1;"), "no iTerm2 image in the output")
        let header = raw[start.upperBound...].prefix { $0 != ":" }
        let columns = try #require(Self.parameter("width", in: header)), rows = try #require(Self.parameter("height", in: header))
        #expect(columns <= 90 && rows <= 22 && columns >= 40, "\(header)")
        // The payload is base64, ended by BEL or ST.
        let payload = raw[raw.index(start.upperBound, offsetBy: header.count + 1)...].prefix { $0 != "\u{07}" && $0 != "\u{1B}" }
        #expect(payload.count > 100 && payload.allSatisfy { $0.isLetter || $0.isNumber || "+/=".contains($0) })
    }

    @Test("sixel: a DCS q image whose raster size fits the window's pixels")
    func sixel() throws {
        let raw = try rawOutput("sixel")
        let start = try #require(raw.range(of: Self.escape + "P"), "no sixel image in the output")
        let body = raw[start.upperBound...]
        let q = try #require(body.firstIndex(of: "q"))
        #expect(body[..<q].allSatisfy { $0.isNumber || $0 == ";" }, "\(body.prefix(20))")
        let raster = body[body.index(after: q)...].dropFirst().prefix { $0 != "#" }.split(separator: ";").compactMap { Int($0) }
        // tmux reports 16 x 32 pixel cells when its own client says nothing (1440 x 1440 for 90 x 45):
        // at most 90 columns wide and half the window high, the picture's shape kept.
        try #require(raster.count == 4, "\(body.prefix(40))")
        #expect(raster[2] <= 90 * 16 && raster[3] <= 22 * 32 && raster[2] >= 400, "\(raster)")
        #expect(abs(Double(raster[2]) / Double(raster[3]) - 960.0 / 600.0) < 0.05, "\(raster)")
        #expect(body.contains(Self.escape + "\\"))
    }

    @Test("off, and inside tmux by default with a protocol unasked: no graphics sequence")
    func noGraphics() throws {
        for how in ["off", "symbols"] {
            let raw = try rawOutput(how)
            #expect(!raw.contains(Self.escape + "_G") && !raw.contains(Self.escape + "]1337") && !raw.contains(Self.escape + "Pq"), "\(how)")
            #expect(raw.contains("Gulls wheel"))
        }
        // --json, a pipe: never drawn, even when asked for.
        let folder = home.path("story")
        let json = try Command.run(Command.cyd, ["read", "--json", "--pictures", "kitty", "--name", "Ana", folder], environment: ["CYD_HOME": home.path("library")], input: "q\n")
        #expect(json.standardOutput.contains("\"event\":\"chapter\""))
        #expect(!json.standardOutput.contains(Self.escape))
    }

    @Test("an https picture: a placeholder while it loads, drawn in place when it comes, what the reader types untouched")
    func placeholder() throws {
        let certificate = try TestCertificate()
        let server = try TestHTTPServer(tls: certificate, files: Self.pictures.path)
        let folder = try story(picture: server.url("/late/3/harbour.png"), copy: false)
        let session = try TerminalReadingTests.Session(
            command: command("--pictures symbols '\(folder)'", environment: "CURL_CA_BUNDLE='\(certificate.certificate)'"))
        _ = try session.waitFor("1-9 choose")
        var screen = try session.waitForPrompt()
        #expect(screen.contains("harbour.png, loading…"), "\(screen)")
        #expect(Self.blockLines(try Self.colouredScreen(session)).isEmpty)
        let before = screen.split(separator: "\n", omittingEmptySubsequences: false)
        let placeholderLine = try #require(before.firstIndex { $0.contains("loading…") })
        let textLine = try #require(before.firstIndex { $0.hasPrefix("Gulls wheel") })
        // The reader starts typing while the picture is on its way.
        try session.type("m har")
        var coloured = ""
        for _ in 0..<100 {
            coloured = try Self.colouredScreen(session)
            if Self.blockLines(coloured).count >= 18 { break }
            Thread.sleep(forTimeInterval: 0.1)
        }
        screen = try session.screen()
        let lines = coloured.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(!screen.contains("loading…"), "\(screen)")
        let rows = lines.indices.filter { Self.isPictureRow(lines[$0]) }
        #expect(rows.count >= 18, "\(screen)")
        #expect(rows.allSatisfy { $0 >= placeholderLine && $0 < textLine }, "drawn in the placeholder (lines \(placeholderLine)..<\(textLine)): \(rows)\n\(screen)")
        let plain = screen.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(plain.firstIndex { $0.hasPrefix("Gulls wheel") } == textLine, "the text did not move")
        #expect(plain.last { !$0.isEmpty }?.hasPrefix("> m har") == true, "the prompt and what was typed stay:\n\(screen)")
        try session.type("bour", "Enter")
        _ = try session.waitFor("as 'harbour'")
        try session.type("q", "Enter")
        #expect(try session.exitStatus() == 0)
    }
}
