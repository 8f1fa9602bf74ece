import Foundation
import StoryFormat
import StoryInterchange
import TestSupport
import Testing

@Suite("cyd export twee and cyd import twee")
struct InterchangeCommandTests {
    @Test("a bundled story out to Twee and back in: the same story, and it validates")
    func roundTrip() throws {
        let folder = try TemporaryFolder()
        let story = Command.packageRoot.path + "/Stories/the-night-market"
        let exported = try Command.cyd(["export", "twee", story, "-o", folder.path("market.twee"), "--format", "sugarcube"])
        #expect(exported.status == 0, "\(exported.standardError)")
        #expect(exported.standardOutput.contains("passages for SugarCube"))
        let twee = try String(contentsOfFile: folder.path("market.twee"), encoding: .utf8)
        #expect(twee.hasPrefix(":: StoryTitle\nThe Night Market\n\n:: StoryData\n{\n  \"ifid\": "), "\(twee.prefix(120))")
        #expect(twee.contains("\"format\": \"SugarCube\""))
        let imported = try Command.cyd(["import", "twee", folder.path("market.twee"), "-o", folder.path("story.json")])
        #expect(imported.status == 0, "\(imported.standardError)")
        #expect(imported.standardError.isEmpty, "a file cyd wrote reads back without a finding: \(imported.standardError)")
        let original = try #require(LoadedFile.load([UInt8](try Data(contentsOf: URL(fileURLWithPath: story + "/story.json")))).story?.model())
        let back = try #require(LoadedFile.load([UInt8](try Data(contentsOf: URL(fileURLWithPath: folder.path("story.json"))))).story?.model())
        #expect(back == original)
        let validated = try Command.cyd(["validate", folder.path("story.json")])
        #expect(validated.status == 0, "\(validated.standardOutput)")
        // Without -o, both write to standard output.
        let printed = try Command.cyd(["export", "twee", story])
        #expect(printed.standardOutput == twee.replacingOccurrences(of: "\"SugarCube\"", with: "\"Harlowe\"").replacingOccurrences(of: "\"2.37.3\"", with: "\"3.3.9\""))
    }

    @Test("an import with thousands of findings of one kind shows 50 of each kind and counts the rest in one line, as validate does; every finding stays in the count")
    func findingsCapped() throws {
        let folder = try TemporaryFolder()
        // 3,000 passages: 60 with a link that sets a variable, the rest with a macro (a finding each).
        var twee = ":: StoryData\n{\"format\": \"SugarCube\", \"start\": \"p0\"}\n\n"
        for index in 0..<3000 {
            twee += index < 60 ? ":: p\(index)\nRoom \(index).\n[[On|p\(index + 1)][$x to \(index)]]\n\n" : ":: p\(index)\n<<set $seen to true>>Room \(index). [[On->p\(index + 1)]]\n\n"
        }
        twee += ":: p3000\nThe end.\n"
        let file = try folder.write("many.twee", Array(twee.utf8)).path
        let imported = try Command.cyd(["import", "twee", file, "-o", folder.path("story.json")])
        #expect(imported.status == 0, "\(imported.standardError.suffix(400))")
        let lines = imported.standardError.split(separator: "\n")
        #expect(lines.count < 120, "\(lines.count) lines")
        #expect(lines.filter { $0.contains("[CYD") && $0.contains("many.twee:") }.count == 100, "50 macros and 50 setters")
        let counted = lines.filter { $0.hasPrefix("… and ") }
        #expect(counted.count == 2, "\(counted)")
        #expect(counted.contains { $0.contains("2890 more findings") } && counted.contains { $0.contains("10 more findings") }, "\(counted)")
        #expect(counted.allSatisfy { $0.contains("cyd validate") && $0.contains("--max-per-rule 0") })
    }

    @Test("a Twee file too large to read into memory whole (it is mapped) imports as the same file read whole does, its findings at their lines")
    func largeFileMapped() throws {
        let folder = try TemporaryFolder()
        var twee = ":: StoryData\n{\"format\": \"SugarCube\", \"start\": \"p0\"}\n\n"
        let text = String(repeating: "The corridor goes on, lamp after lamp, and the floor hums. ", count: 70)
        var index = 0
        while twee.utf8.count <= SourceBytes.mappingThreshold + 4096 {
            twee += ":: p\(index)\n\(text)\n[[On->p\(index + 1)]]\n\n"
            index += 1
        }
        // The last passage holds a macro, which is kept as text and said at its line.
        twee += ":: p\(index)\nThe end. <<set $done to true>>\n"
        let macroLine = twee.utf8.count { $0 == 0x0A }
        let file = try folder.write("large.twee", Array(twee.utf8)).path
        let imported = try Command.cyd(["import", "twee", file, "-o", folder.path("story.json")])
        #expect(imported.status == 0, "\(imported.standardError.suffix(400))")
        #expect(imported.standardError.contains("large.twee:\(macroLine):"), "\(imported.standardError.suffix(400))")
        let written = [UInt8](try Data(contentsOf: URL(fileURLWithPath: folder.path("story.json"))))
        let whole = try #require(TweeStory.story(from: Array(twee.utf8), placing: false).story)
        #expect(written == StoryJSON.bytes(whole))
        #expect(whole.chapters.count == index + 1)
    }

    @Test("a bundled story out to a Twine archive and back in: the same story")
    func twineArchive() throws {
        let folder = try TemporaryFolder()
        let story = Command.packageRoot.path + "/Stories/the-keeper-of-gull-rock"
        let exported = try Command.cyd(["export", "twine", story, "-o", folder.path("gull.html")])
        #expect(exported.status == 0, "\(exported.standardError)")
        let html = try String(contentsOfFile: folder.path("gull.html"), encoding: .utf8)
        #expect(html.hasPrefix("<tw-storydata name=\"The Keeper of Gull Rock\""))
        let imported = try Command.cyd(["import", "twine", folder.path("gull.html"), "-o", folder.path("story.json")])
        #expect(imported.status == 0 && imported.standardError.isEmpty, "\(imported.standardError)")
        let original = try #require(LoadedFile.load([UInt8](try Data(contentsOf: URL(fileURLWithPath: story + "/story.json")))).story?.model())
        let back = try #require(LoadedFile.load([UInt8](try Data(contentsOf: URL(fileURLWithPath: folder.path("story.json"))))).story?.model())
        #expect(back == original)
    }

    @Test("a Twine author's SugarCube story keeps its format, IFID, tags and places through import, validate and export, with no word about its twine keys")
    func twineDataThroughTheCommands() throws {
        let folder = try TemporaryFolder()
        let file = try folder.write("tide.twee", """
            :: StoryTitle
            Tide

            :: StoryData
            {"ifid": "0A1B2C3D-1111-4222-8333-444455556666", "format": "SugarCube", "format-version": "2.36.1", "start": "Pier", "zoom": 0.6}

            :: Pier [start dock] {"position":"600,400","size":"200,100"}
            Waves.
            [[Swim->Sea]]

            :: Sea {"position":"850,400"}
            The end.

            """).path
        let imported = try Command.cyd(["import", "twee", file, "-o", folder.path("story.json")])
        #expect(imported.status == 0, "\(imported.standardError)")
        let validated = try Command.cyd(["validate", folder.path("story.json")])
        // Only the summary Twee has no place for is wanting; the twine keys are the format's.
        #expect(validated.standardOutput.contains("1 error") && validated.standardOutput.contains("CYD203"), "\(validated.standardOutput)")
        #expect(!validated.standardOutput.contains("unknown key"), "\(validated.standardOutput)")
        let exported = try Command.cyd(["export", "twee", folder.path("story.json")])
        #expect(exported.status == 0, "\(exported.standardError)")
        #expect(exported.standardError.contains("passages for SugarCube") || exported.standardOutput.contains("\"format\": \"SugarCube\""))
        #expect(exported.standardOutput.contains("\"format-version\": \"2.36.1\""), "\(exported.standardOutput)")
        #expect(exported.standardOutput.contains("\"ifid\": \"0A1B2C3D-1111-4222-8333-444455556666\""))
        #expect(exported.standardOutput.contains(":: Pier [start dock] {\"position\":\"600,400\",\"size\":\"200,100\"}"))
        let written = try Command.cyd(["export", "twine", folder.path("story.json"), "-o", folder.path("tide.html")])
        #expect(written.standardOutput.contains("passages in a Twine archive for SugarCube"), "\(written.standardOutput)")
    }

    @Test("a twine object holding what Twine cannot take is said at the value (CYD206), and what the export does instead; a valid one says nothing")
    func twineValuesChecked() throws {
        let folder = try TemporaryFolder()
        let file = try folder.write("story.json", """
            {
              "story": {
                "id": "t", "name": "T", "rating": "G", "summary": "s",
                "twine": { "ifid": 7, "zoom": 0, "tags": ["ok", "two words"], "tag-colors": { "ok": 3 }, "theme": "dark" },
                "chapters": [
                  { "id": "a", "name": "A", "text": "Go.", "is_first_chapter": true, "choices": [ { "chapter_id": "b", "text": "On" } ],
                    "twine": { "tags": ["script", "fine"], "position": "left", "size": "100,100", "colour": "red" } },
                  { "id": "b", "name": "B", "text": "End.", "twine": { "tags": ["end"], "position": "600.5,-20", "size": [1, 2] } }
                ]
              }
            }

            """).path
        let validated = try Command.cyd(["validate", file])
        #expect(validated.status == 0, "warnings only: \(validated.standardOutput)")
        let lines = validated.standardOutput.split(separator: "\n").filter { $0.contains("CYD206") }
        #expect(lines.count == 9, "\(validated.standardOutput)")
        for expected in [
            "the twine ifid of the story is not a string", "the twine zoom of the story is not a positive number",
            "a twine tag of the story is not a word without spaces", "a twine tag colour of the story is not a string",
            "Twine has no 'theme' for a story", "the twine tag 'script' of chapter 'a' would make its passage code",
            "the twine position of chapter 'a' is not \"x,y\": an export to Twine lays the passage out", "Twine has no 'colour' for a passage",
            "the twine size of chapter 'b' is not \"x,y\"",
        ] {
            #expect(validated.standardOutput.contains(expected), "\(expected): \(validated.standardOutput)")
        }
        #expect(validated.standardOutput.contains("--> \(file):4:"), "placed at the story's twine object: \(validated.standardOutput)")
    }

    @Test("cyd import twine of an HTML page with no story, or of a story with no passages, fails and says which, in the archive's words")
    func twineWithoutStory() throws {
        let folder = try TemporaryFolder()
        let page = try folder.write("page.html", "<html><head><script>var t = '<tw-storydata name=\"x\">';</script></head><body>Hi</body></html>\n").path
        let none = try Command.cyd(["import", "twine", page, "-o", folder.path("story.json")])
        #expect(none.status == 2)
        #expect(none.standardError.contains("\(page):1:1: error[CYD150]: no story: a Twine archive or published story holds a <tw-storydata> element"), "\(none.standardError)")
        #expect(!none.standardError.contains("'::'"), "no word of Twee's notation for an HTML file")
        let empty = try folder.write("empty.html", "<tw-storydata name=\"Empty\"></tw-storydata>\n").path
        let nothing = try Command.cyd(["import", "twine", empty, "-o", folder.path("story.json")])
        #expect(nothing.status == 2)
        #expect(nothing.standardError.contains("the story 'Empty' has no passages"), "\(nothing.standardError)")
        #expect(!FileManager.default.fileExists(atPath: folder.path("story.json")), "nothing written")
    }

    @Test("cyd import twine of an archive cut short fails at the file's end with the fix, writes nothing and replaces nothing; validate says the same")
    func twineCutShort() throws {
        let folder = try TemporaryFolder()
        let cut = try folder.write("cut.html", "<tw-storydata name=\"Tide\" startnode=\"1\">\n<tw-passagedata pid=\"1\" name=\"Shore\">The tide is in.</tw-passagedata>\n<tw-passagedata pid=\"2\" name=\"Cave\">It is da").path
        try Self.refused(
            "twine", cut, in: folder, at: "3:45",
            saying: ["error[CYD159]: the file ends inside passage 'Cave' of the story 'Tide'", "help: archive the story again from Twine's library"])
    }

    @Test("cyd import twee of a file saved as Windows-1252 fails at the bad byte with the fix and writes nothing; validate says the same")
    func tweeNotUTF8() throws {
        let folder = try TemporaryFolder()
        let file = folder.path("lamp.twee")
        try Data(":: StoryTitle\nLamp\n\n:: Start\nThe caf".utf8 + [0xE9] + " is shut.\n".utf8).write(to: URL(fileURLWithPath: file))
        try Self.refused("twee", file, in: folder, at: "5:8", saying: ["error[CYD104]: invalid UTF-8 byte 0xE9", "help: save the file as UTF-8"])
    }

    /// `cyd import KIND FILE -o story.json` fails (2) with `saying` on standard error, the first
    /// at `FILE:at`, and leaves the story.json there as it was; `cyd validate FILE` fails there too.
    static func refused(_ kind: String, _ file: String, in folder: TemporaryFolder, at place: String, saying: [String]) throws {
        let story = try folder.write("story.json", "keep me").path
        let imported = try Command.cyd(["import", kind, file, "-o", story])
        #expect(imported.status == 2)
        #expect(imported.standardError.contains("\(file):\(place): " + saying[0]), "\(imported.standardError)")
        for words in saying.dropFirst() { #expect(imported.standardError.contains(words), "\(imported.standardError)") }
        #expect(try String(contentsOfFile: story, encoding: .utf8) == "keep me", "the story.json is left as it was")
        let validated = try Command.cyd(["validate", file])
        #expect(validated.status != 0)
        #expect(validated.standardOutput.contains("--> \(file):\(place)"), "\(validated.standardOutput)")
    }

    @Test("a Twine author's file: what a story cannot hold is said at file:line:column, and the story is written")
    func twineFile() throws {
        let folder = try TemporaryFolder()
        let file = try folder.write("lamp.twee", """
            :: StoryTitle
            The Lamp

            :: StoryData
            {"ifid": "0A1B2C3D-1111-4222-8333-444455556666", "format": "Harlowe", "format-version": "3.3.9", "start": "Hall"}

            :: Setup [script]
            window.x = 1;

            :: Hall
            Hello $name. (set: $lamp to true)The lamp is lit.
            [[Go up->Upstairs]]

            :: Upstairs
            The end.

            """).path
        let imported = try Command.cyd(["import", "twee", file])
        #expect(imported.status == 0, "\(imported.standardError)")
        #expect(imported.standardError.contains("\(file):7:1: warning[CYD152]: passage 'Setup' is code for a story format; stories hold no code, so it is left out"), "\(imported.standardError)")
        #expect(imported.standardError.contains("\(file):11:14: warning[CYD153]: '(set:' in passage 'Hall' is story-format code"), "\(imported.standardError)")
        let story = try #require(LoadedFile.load(Array(imported.standardOutput.utf8)).story?.model())
        #expect(story.name == "The Lamp")
        #expect(story.firstChapter?.text == "Hello [[name]]. (set: $lamp to true)The lamp is lit.")
        #expect(story.firstChapter?.choices == [Choice(chapterID: "Upstairs", text: "Go up")])
        let empty = try folder.write("empty.twee", "nothing here\n").path
        let refused = try Command.cyd(["import", "twee", empty])
        #expect(refused.status == 2)
        #expect(refused.standardError.contains("\(empty):1:1: warning[CYD151]: text before the first passage") && refused.standardError.contains("error[CYD150]: no passage"), "\(refused.standardError)")
        // cyd validate reads the file the same way, with every rule, at the same places.
        let validated = try Command.cyd(["validate", "--format", "json", file])
        #expect(validated.status == 0, "\(validated.standardError)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(validated.standardOutput.utf8)) as? [String: Any])
        let findings = try #require((report["files"] as? [[String: Any]])?.first?["diagnostics"] as? [[String: Any]])
        let codes = findings.compactMap { $0["code"] as? String }
        #expect(codes.contains("CYD152") && codes.contains("CYD153"), "\(codes)")
        let broken = try folder.write("broken.twee", ":: Start\nHi.\n[[Onward->Nowhere]]\n")
        let refusedChoice = try Command.cyd(["validate", broken.path])
        #expect(refusedChoice.status == 1)
        #expect(refusedChoice.standardOutput.contains("error[CYD302]: choice target 'Nowhere' does not exist"), "\(refusedChoice.standardOutput)")
        #expect(refusedChoice.standardOutput.contains("--> \(broken.path):3:1"), "\(refusedChoice.standardOutput)")
    }
}
