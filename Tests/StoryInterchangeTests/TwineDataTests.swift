import Foundation
import StoryFormat
import StoryInterchange
import TestSupport
import Testing

/// What Twine keeps of a story and its passages (tags, IFID, story format, zoom, tag colours,
/// positions and sizes) survives `cyd import` and `cyd export`, in story.json's `twine` objects,
/// for a Twine author's file; and cyd's own exports still come back exactly, whatever those
/// objects hold.
@Suite("Twine's data kept")
struct TwineDataTests {
    /// A Twine author's Twee file: SugarCube at an older version, an IFID, tag colours, a zoom,
    /// passages with tags, positions and a size.
    static let authorsTwee = """
        :: StoryTitle
        The Lighthouse

        :: StoryData
        {
          "ifid": "D674C58C-DEFA-4F70-B7A2-27742230C0FC",
          "format": "SugarCube",
          "format-version": "2.36.1",
          "start": "Beach",
          "tag-colors": {
            "start": "green"
          },
          "zoom": 0.6
        }

        :: Beach [start beach] {"position":"600,400","size":"100,200"}
        You stand on the beach.

        [[Climb->Tower]]

        :: Tower {"position":"725.5,400"}
        The end.

        """

    /// The story through story.json's text, as an author keeps it.
    static func throughStoryJSON(_ story: Story) throws -> Story {
        try #require(LoadedFile.load(StoryJSON.bytes(story), options: .init()).story?.model())
    }

    @Test("a Twine author's Twee file: tags, IFID, story format and version, tag colours, zoom, positions and sizes are kept in story.json and written back by the export")
    func authorsTweeFile() throws {
        let imported = TweeStory.story(from: Array(Self.authorsTwee.utf8))
        let story = try Self.throughStoryJSON(try #require(imported.story))
        #expect(
            story.twine
                == .object([
                    ("ifid", "D674C58C-DEFA-4F70-B7A2-27742230C0FC"), ("format", "SugarCube"), ("format-version", "2.36.1"),
                    ("tag-colors", .object([("start", "green")])), ("zoom", .number(0.6)),
                ]))
        #expect(story.chapters[0].twine == .object([("tags", ["start", "beach"]), ("position", "600,400"), ("size", "100,200")]))
        #expect(story.chapters[1].twine == .object([("position", "725.5,400")]))
        #expect(TweeStory.formatName(of: story, format: nil) == "SugarCube")

        // Exported without a format asked for: the story's own, and every passage as it was.
        let exported = try TweeStory.twee(story)
        #expect(exported.contains("\"format\": \"SugarCube\",\n  \"format-version\": \"2.36.1\""), "\(exported)")
        #expect(exported.contains("\"ifid\": \"D674C58C-DEFA-4F70-B7A2-27742230C0FC\""))
        #expect(exported.contains("\"zoom\": 0.6"))
        #expect(exported.contains("\"tag-colors\": {\n    \"start\": \"green\"\n  }"))
        #expect(exported.contains(":: Beach [start beach] {\"position\":\"600,400\",\"size\":\"100,200\"}\n"))
        #expect(exported.contains(":: Tower {\"position\":\"725.5,400\",\"size\":\"100,100\"}\n"))
        // And back: the same story, Twine's data and all.
        #expect(TweeStory.story(from: Array(exported.utf8)).story == story)
        // As an archive too.
        let archive = try TwineArchive.html(story)
        #expect(archive.contains("format=\"SugarCube\" format-version=\"2.36.1\" ifid=\"D674C58C-DEFA-4F70-B7A2-27742230C0FC\""), "\(archive)")
        #expect(archive.contains("zoom=\"0.6\""))
        #expect(archive.contains("<tw-tag name=\"start\" color=\"green\"></tw-tag>"))
        #expect(archive.contains("name=\"Beach\" tags=\"start beach\" position=\"600,400\" size=\"100,200\""))
        #expect(TwineArchive.story(from: Array(archive.utf8)).story == story)
    }

    /// A Twine archive as Twine 2.7 writes it, with what Twee's StoryData has no place for:
    /// the story's tags and options.
    static let authorsArchive = """
        <tw-storydata name="Gull Rock" startnode="2" creator="Twine" creator-version="2.7.1" format="Chapbook" format-version="2.0.0" ifid="7A1C6E7C-2E0F-4D2C-9B8E-1F2A3B4C5D6E" options="debug" tags="draft mystery" zoom="1.5" hidden><style role="stylesheet" id="twine-user-stylesheet" type="text/twine-css"></style><script role="script" id="twine-user-script" type="text/twine-javascript"></script><tw-tag name="ending" color="red"></tw-tag><tw-tag name="clue" color="blue"></tw-tag><tw-passagedata pid="1" name="Cave" tags="ending" position="300,700" size="200,100">Dark.</tw-passagedata><tw-passagedata pid="2" name="Shore" tags="clue start" position="300,450" size="100,100">Waves, {name}.

        [[Enter->Cave]]</tw-passagedata></tw-storydata>

        """

    @Test("a Twine author's archive: story tags, options, zoom, tag colours, the format and IFID, each passage's tags, position and size come back in the export")
    func authorsArchiveFile() throws {
        let imported = TwineArchive.story(from: Array(Self.authorsArchive.utf8))
        let story = try Self.throughStoryJSON(try #require(imported.story))
        #expect(
            story.twine
                == .object([
                    ("ifid", "7A1C6E7C-2E0F-4D2C-9B8E-1F2A3B4C5D6E"), ("format", "Chapbook"), ("format-version", "2.0.0"), ("zoom", .number(1.5)),
                    ("tags", ["draft", "mystery"]), ("options", "debug"), ("tag-colors", .object([("ending", "red"), ("clue", "blue")])),
                ]))
        #expect(story.chapters.map(\.twine) == [.object([("tags", ["ending"]), ("position", "300,700"), ("size", "200,100")]), .object([("tags", ["clue", "start"]), ("position", "300,450")])])
        #expect(story.chapters[1].text == "Waves, [[name]].", "Chapbook's {name}, read as the format it declares")
        let archive = try TwineArchive.html(story)
        #expect(archive.contains("format=\"Chapbook\" format-version=\"2.0.0\" ifid=\"7A1C6E7C-2E0F-4D2C-9B8E-1F2A3B4C5D6E\" options=\"debug\" tags=\"draft mystery\" zoom=\"1.5\""), "\(archive)")
        #expect(archive.contains("<tw-tag name=\"ending\" color=\"red\"></tw-tag><tw-tag name=\"clue\" color=\"blue\"></tw-tag>"))
        #expect(archive.contains("name=\"Cave\" tags=\"ending\" position=\"300,700\" size=\"200,100\">Dark.</tw-passagedata>"))
        #expect(archive.contains("name=\"Shore\" tags=\"clue start\" position=\"300,450\" size=\"100,100\">Waves, {name}."), "Chapbook's variable for the name")
        #expect(TwineArchive.story(from: Array(archive.utf8)).story == story)
        // And through Twee, where the story's tags and options travel in cyd's metadata.
        #expect(TweeStory.story(from: Array(try TweeStory.twee(story).utf8)).story == story)
    }

    @Test("a passage's position and size are kept as its attributes write them, quotes, backslashes and character references included")
    func oddPlaces() throws {
        let archive = """
            <tw-storydata name="Odd" startnode="1" format="Harlowe" ifid="7A1C6E7C-2E0F-4D2C-9B8E-1F2A3B4C5D6E">\
            <tw-passagedata pid="1" name="A" position="1\\2,&quot;3&quot;" size="100,&amp;50">One.</tw-passagedata>\
            <tw-passagedata pid="2" name="B" position="725.5,400">Two.</tw-passagedata>\
            <tw-passagedata pid="3" name="C" size="50,50">Three.</tw-passagedata></tw-storydata>
            """
        let imported = TwineArchive.story(from: Array(archive.utf8))
        let story = try #require(imported.story)
        #expect(imported.findings.isEmpty, "\(imported.findings)")
        #expect(story.chapters.map(\.twine) == [.object([("position", "1\\2,\"3\""), ("size", "100,&50")]), .object([("position", "725.5,400")]), nil])
    }

    @Test("what the author changes in Twine after a cyd export comes back: a passage moved and tagged, the zoom, a tag colour taken away")
    func changedInTwine() throws {
        let story = try #require(TweeStory.story(from: Array(Self.authorsTwee.utf8)).story)
        var edited = try TweeStory.twee(story)
        edited = edited.replacingOccurrences(of: ":: Tower {\"position\":\"725.5,400\"", with: ":: Tower [lit] {\"position\":\"900,100\"")
        edited = edited.replacingOccurrences(of: "\"zoom\": 0.6", with: "\"zoom\": 0.3")
        edited = edited.replacingOccurrences(of: ",\n  \"tag-colors\": {\n    \"start\": \"green\"\n  }", with: "")
        let back = try #require(TweeStory.story(from: Array(edited.utf8)).story)
        #expect(back.chapters[1].twine == .object([("tags", ["lit"]), ("position", "900,100")]))
        #expect(back.twine?["zoom"] == .number(0.3))
        #expect(back.twine?["tag-colors"] == nil)
        #expect(back.twine?["ifid"] == "D674C58C-DEFA-4F70-B7A2-27742230C0FC")

        // A story that had none, exported by cyd, then given a zoom and a passage moved in Twine.
        let plain = Story(id: "p", name: "Plain", rating: "G", summary: "s", chapters: [Chapter(id: "a", name: "a", text: "A.", isFirstChapter: true)])
        let archive = try TwineArchive.html(plain).replacingOccurrences(of: "zoom=\"1\"", with: "zoom=\"2\"")
            .replacingOccurrences(of: "name=\"a\" tags=\"\" position=\"100,100\"", with: "name=\"a\" tags=\"\" position=\"5,5\"")
        let moved = try #require(TwineArchive.story(from: Array(archive.utf8)).story)
        #expect(moved.twine == .object([("zoom", .number(2))]))
        #expect(moved.chapters[0].twine == .object([("position", "5,5")]))
    }

    @Test("a passage's metadata that is not JSON, or holds more than a position and size, is said at the passage: nothing is left out without a word")
    func passageMetadataLeftOut() throws {
        let twee = """
            :: Start {"position":"100,200","note":"remember the lamp"}
            Hello.

            :: Next {position: 5}
            Bye.

            """
        let imported = TweeStory.story(from: Array(twee.utf8))
        #expect(imported.story?.chapters.map(\.id) == ["Start", "Next"])
        #expect(imported.story?.chapters[0].twine == .object([("position", "100,200")]))
        #expect(
            imported.findings == [
                TweeFinding(kind: .passageMetadataLeftOut(passage: "Start", member: "note"), line: 1, column: 1),
                TweeFinding(kind: .passageMetadataLeftOut(passage: "Next", member: nil), line: 4, column: 1),
            ])
    }

    /// Values of `twine` objects chosen to break the rule: a position at the very place cyd lays
    /// the passage out, tags that are code or hold spaces, sizes and positions that are not
    /// pairs, members of other types and other names.
    static func randomTwine(_ generator: inout SplitMix64, laidOut: String) -> JSONValue? {
        let tags: [JSONValue] = ["start", "script", "a b", "", "widget", "dark", "ça", "[x]", 3, "tab\there"]
        var members: [(String, JSONValue)] = []
        for key in ["tags", "position", "size", "note"].shuffled(using: &generator) where Bool.random(using: &generator) {
            switch key {
            case "tags": members.append((key, .array((0..<Int.random(in: 0...3, using: &generator)).map { _ in tags.randomElement(using: &generator)! })))
            case "position", "size":
                let values: [JSONValue] = [.string(laidOut), "600,400", "100,100", "12.5,-3", "here", "1,2,3", 7, "-,1", ""]
                members.append((key, values.randomElement(using: &generator)!))
            default: members.append((key, [1, true]))
            }
        }
        return members.isEmpty && Bool.random(using: &generator) ? nil : .object(members)
    }

    static func randomStoryTwine(_ generator: inout SplitMix64) -> JSONValue? {
        let choices: [String: [JSONValue]] = [
            "ifid": ["D674C58C-DEFA-4F70-B7A2-27742230C0FC", "", 7],
            "format": ["Harlowe", "SugarCube", "Chapbook", "Snowman", "", "sugarcube", 1],
            "format-version": ["3.3.9", "2.37.3", "2.3.0", "1.0", ""],
            "zoom": [.number(1), .number(0.6), "big", .number(-1)],
            "tags": [["a", "b"], ["a b"], [], "x", ["a", 3]],
            "options": ["debug", "", 2],
            "tag-colors": [.object([("a", "red")]), .object([]), .object([("b", 5)]), "red"],
            "other": [true, .null],
        ]
        guard Bool.random(using: &generator) else { return nil }
        var members: [(String, JSONValue)] = []
        for key in choices.keys.sorted().shuffled(using: &generator) where Bool.random(using: &generator) {
            members.append((key, choices[key]!.randomElement(using: &generator)!))
        }
        return .object(members)
    }

    /// A story of `count` chapters named c0, c1, …, each with up to two choices to any of them,
    /// the story and every chapter with random twine objects (a chapter's position sometimes
    /// where cyd's layout puts it).
    static func randomStory(_ id: String, chapters count: Int, _ generator: inout SplitMix64) -> Story {
        let ids = (0..<count).map { "c\($0)" }
        var story = Story(
            id: id, name: "Story \(id)", rating: "G", summary: "x", twine: Self.randomStoryTwine(&generator),
            chapters: ids.enumerated().map { index, chapterID in
                Chapter(
                    id: chapterID, name: chapterID, text: "Text \(index).", isFirstChapter: index == 0,
                    choices: (0..<Int.random(in: 0...2, using: &generator)).map { _ in Choice(chapterID: ids.randomElement(using: &generator)!, text: "Go") })
            })
        let laidOut = TweeLayoutProbe.positions(of: story)
        for index in story.chapters.indices {
            story.chapters[index].twine = Self.randomTwine(&generator, laidOut: laidOut[index])
        }
        return story
    }

    @Test("cyd's own exports come back exactly, Twee and archive, in any format or the story's own, whatever the twine objects hold (500 random stories)")
    func randomRoundTrips() throws {
        var generator = SplitMix64(state: 2026_11_27)
        for number in 0..<500 {
            let story = Self.randomStory("s\(number)", chapters: Int.random(in: 1...6, using: &generator), &generator)
            let format: TweeStory.Format? = [nil, .harlowe, .sugarcube, .chapbook].randomElement(using: &generator)!
            let twee = try TweeStory.twee(story, format: format)
            let fromTwee = TweeStory.story(from: Array(twee.utf8)).story
            // Asking for another format than the story's is a change the story keeps.
            var expected = story
            if let format, TweeStory.formatName(of: story, format: nil) != TweeStory.formatName(of: story, format: format) {
                expected.twine = fromTwee?.twine
            }
            #expect(fromTwee == expected, "story \(number) in \(String(describing: format)):\n\(twee)")
            let archive = try TwineArchive.html(story, format: format)
            let fromArchive = TwineArchive.story(from: Array(archive.utf8)).story
            #expect(fromArchive?.chapters == story.chapters, "story \(number), archive:\n\(archive)")
            if format == nil { #expect(fromArchive?.twine == story.twine, "story \(number), archive:\n\(archive)") }
            if fromTwee != expected || fromArchive?.chapters != story.chapters { break }
        }
    }

    @Test("a story large enough to be written in two halves on two cores (2,500 chapters) comes back exactly, whatever its twine objects hold, in both halves")
    func largeRoundTrip() throws {
        var generator = SplitMix64(state: 2026_11_28)
        let story = Self.randomStory("large", chapters: 2_500, &generator)
        // Both halves hold chapters whose twine objects the passages alone do not give back.
        let tweeText = try TweeStory.twee(story)
        let metadata = try #require(TweeDocument.parse(Array(tweeText.utf8)).passages.first { $0.name == "CydMetadata" })
        #expect(metadata.content.contains("\"c10\"") || metadata.content.contains("\"c1\""), "the first half has metadata members")
        #expect(metadata.content.contains("\"c24"), "the second half has metadata members")
        let fromTwee = try #require(TweeStory.story(from: Array(tweeText.utf8)).story)
        #expect(fromTwee == story)
        let fromArchive = try #require(TwineArchive.story(from: Array(try TwineArchive.html(story).utf8)).story)
        #expect(fromArchive.chapters == story.chapters && fromArchive.twine == story.twine)
    }
}

/// Where cyd's export lays passages out, read from an export of the story without Twine's data.
enum TweeLayoutProbe {
    static func positions(of story: Story) -> [String] {
        var plain = story
        plain.twine = nil
        for index in plain.chapters.indices { plain.chapters[index].twine = nil }
        let twee = (try? TweeStory.twee(plain)) ?? ""
        // Each header's name and position, read once (a large story has thousands).
        var positions: [String: String] = [:]
        for line in twee.split(separator: "\n") where line.hasPrefix(":: ") {
            guard let brace = line.range(of: " {"), let start = line.range(of: "\"position\":\"")?.upperBound,
                let end = line[start...].firstIndex(of: "\"")
            else { continue }
            positions[String(line[line.index(line.startIndex, offsetBy: 3)..<brace.lowerBound])] = String(line[start..<end])
        }
        return plain.chapters.map { positions[$0.id] ?? "" }
    }
}
