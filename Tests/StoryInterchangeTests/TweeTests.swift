import Foundation
import StoryCheck
import StoryFormat
import StoryInterchange
import TestSupport
import Testing

/// Twee 3 in and out: the specification's examples read as it says, Twine's four link forms, a
/// Twine author's file read with findings for what a story cannot hold, and every story (the
/// bundled ones, 400 random ones written to break it) back exactly after a round trip.
@Suite("Twee 3")
struct TweeTests {
    static func read(_ text: String) -> TweeStory.Imported { TweeStory.story(from: Array(text.utf8)) }

    /// A story of `count` chapters in a chain, each leading on to the next; every third is named
    /// by `room`, the others by their ids.
    static func chain(_ count: Int, title: String, room: (Int) -> String, text: (Int) -> String) -> Story {
        let chapters = (0..<count).map { n in
            Chapter(id: "c\(n)", name: n % 3 == 0 ? room(n) : "c\(n)", text: text(n),
                isFirstChapter: n == 0, choices: n + 1 < count ? [Choice(chapterID: "c\(n + 1)", text: "On")] : [])
        }
        return Story(id: "s", name: title, rating: "G", summary: "x", chapters: chapters)
    }

    /// `cyd export twee` writes the file a megabyte at a time as the writer takes it: the pieces,
    /// one after the other, are the file made whole, for a small story and one of several megabytes.
    @Test("Twee written in chunks is byte for byte the file written whole")
    func chunks() throws {
        for count in [1, 3, 30_000] {
            let story = Self.chain(count, title: "S", room: { "Room \($0)" }, text: { "Text of \($0), “quoted”, with [[name]].\n\nA second paragraph to make the file long." })
            let chunks = Array(try TweeStory.tweeChunks(story))
            let whole = try TweeStory.tweeBytes(story)
            // Compared first: a failing #expect on megabytes would diff them for hours.
            let same = Array(chunks.joined()) == whole
            #expect(same, "\(chunks.map(\.count)) against \(whole.count)")
            #expect(count < 30_000 ? chunks.count == 1 : whole.count > 2 << 20 && chunks.count > 2)
            #expect(chunks.dropLast().allSatisfy { $0.count >= 1 << 20 })
        }
    }

    /// `cyd export twine` too: the archive's pieces, made on two cores as the writer takes them,
    /// are the archive made in one piece, and a large one reads back as the story.
    @Test("a Twine archive written in pieces is byte for byte the archive made in one, and reads back whole")
    func archivePieces() throws {
        for count in [1, 3, 30_000] {
            let story = Self.chain(count, title: "S & T", room: { "Room <\($0)>" }, text: { "Text of \($0) & “quoted”, with [[name]].\r\n\r\nA second paragraph, 'long'." })
            let pieces = Array(try TwineArchive.htmlChunks(story))
            let one = Array(try TwineArchive.htmlChunks(story, format: nil, pieceSize: .max))
            #expect(one.count == 1)
            let same = Array(pieces.joined()) == one[0]
            #expect(same, "\(pieces.map(\.count)) against \(one[0].count)")
            #expect(count < 30_000 ? pieces.count == 1 : one[0].count > 2 << 20 && pieces.count > 2)
            #expect(pieces.dropLast().allSatisfy { $0.count >= 1 << 20 })
            #expect(TwineArchive.story(from: one[0]).story == story)
        }
    }

    @Test("the specification's header examples: name, tags, metadata, each optional, spaces allowed")
    func specificationHeaders() {
        let document = TweeDocument.parse(Array("""
            :: An overgrown path
            one
            :: An overgrown path [forest spooky]
            :: An overgrown path {"position":"600,400","size":"100,200"}
            :: An overgrown path [forest spooky] {"position":"600,400","size":"100,200"}


            """.utf8))
        #expect(document.passages.map(\.name) == Array(repeating: "An overgrown path", count: 4))
        #expect(document.passages.map(\.tags) == [[], ["forest", "spooky"], [], ["forest", "spooky"]])
        #expect(document.passages[2].metadata == #"{"position":"600,400","size":"100,200"}"#)
        #expect(document.passages[3].metadata == #"{"position":"600,400","size":"100,200"}"#)
        #expect(document.passages[0].content == "one")
        #expect(document.passages[3].content == "", "trailing blank lines are not content")
        // Escapes: `\[` is `[`, `\\` is `\`, `\q` is `q`.
        let escaped = TweeDocument.parse(Array(#":: a\[b\]\{c\}\\d\q [t\]ag]"#.utf8))
        #expect(escaped.passages[0].name == #"a[b]{c}\dq"#)
        #expect(escaped.passages[0].tags == ["t]ag"])
    }

    @Test("the specification's StoryData example: IFID, format and start")
    func specificationStoryData() {
        let imported = Self.read("""
            :: StoryData
            {
            \t"ifid": "D674C58C-DEFA-4F70-B7A2-27742230C0FC",
            \t"format": "SugarCube",
            \t"format-version": "2.28.2",
            \t"start": "My Starting Passage",
            \t"tag-colors": {
            \t\t"bar": "green",
            \t\t"foo": "red",
            \t\t"qaz": "blue"
            \t},
            \t"zoom": 0.25
            }

            :: First
            Hello.

            :: My Starting Passage
            Start here.
            """)
        #expect(imported.ifid == "D674C58C-DEFA-4F70-B7A2-27742230C0FC")
        #expect(imported.format == "SugarCube")
        #expect(imported.story?.firstChapter?.id == "My Starting Passage")
        #expect(imported.findings.isEmpty, "\(imported.findings)")
    }

    @Test("Twine's four link forms, on lines of their own or inside a sentence")
    func linkForms() throws {
        let imported = Self.read("""
            :: Start
            You can [[go north->North]] or [[South<-head south]].
            [[West]]
            [[the sea|Shore]]
            """)
        let start = try #require(imported.story?.chapter(id: "Start"))
        #expect(start.text == "You can go north or head south.")
        #expect(start.choices == [
            Choice(chapterID: "North", text: "go north"), Choice(chapterID: "South", text: "head south"),
            Choice(chapterID: "West", text: "West"), Choice(chapterID: "Shore", text: "the sea"),
        ])
        // The rightmost -> and the leftmost <- divide.
        #expect(TweeLink(inner: "a->b->c") == TweeLink(text: "a->b", target: "c"))
        #expect(TweeLink(inner: "c<-b<-a") == TweeLink(text: "b<-a", target: "c"))
    }

    @Test("a Twine author's file: $name is the reader's name, code passages left out, macros kept as text, each said at its line and column")
    func twineAuthorsFile() throws {
        let imported = Self.read("""
            :: StoryTitle
            The Lamp

            :: StoryData
            {"ifid": "0A1B2C3D-1111-4222-8333-444455556666", "format": "Harlowe", "format-version": "3.3.9", "start": "Hall"}

            :: Setup [script]
            window.x = 1;

            :: Hall
            Hello $name, and $names.
            (set: $lamp to true)The lamp is lit.
            [[Upstairs]]

            :: Upstairs
            The end.
            """)
        let story = try #require(imported.story)
        #expect(story.name == "The Lamp")
        #expect(story.chapters.map(\.id) == ["Hall", "Upstairs"])
        #expect(story.firstChapter?.id == "Hall")
        let hall = try #require(story.chapter(id: "Hall"))
        #expect(hall.text == "Hello [[name]], and $names.\n(set: $lamp to true)The lamp is lit.")
        #expect(imported.findings.contains(TweeFinding(kind: .codeLeftOut(passage: "Setup"), line: 7, column: 1)))
        #expect(imported.findings.contains(TweeFinding(kind: .macroKeptAsText(passage: "Hall", code: "(set:"), line: 12, column: 1)), "\(imported.findings)")
        // Chapbook writes the name as {name}; SugarCube's <<macros>> are code.
        let chapbook = Self.read(":: StoryData\n{\"ifid\": \"X\", \"format\": \"Chapbook\"}\n\n:: A\nHi {name}. {back link}\n")
        #expect(chapbook.story?.chapters.first?.text == "Hi [[name]]. {back link}")
        #expect(chapbook.findings.map(\.kind) == [.macroKeptAsText(passage: "A", code: "{back link}")])
        let sugar = Self.read(":: StoryData\n{\"format\": \"SugarCube\"}\n\n:: A\n<<if $x>>yes<</if>>\n[[Go|B][$x to 1]]\n")
        #expect(sugar.findings.contains { if case .macroKeptAsText(_, let code) = $0.kind { code == "<<if" } else { false } })
        #expect(sugar.findings.contains(TweeFinding(kind: .setterLeftOut(passage: "A", setter: "$x to 1"), line: 6, column: 1)))
        #expect(Self.read("no header here\n").story == nil)
    }

    @Test("every story format's code is said whatever format the file declares: SugarCube's tags (closing ones by their name) and variables in a Harlowe story, Harlowe's macros in a SugarCube one, Chapbook's inserts and Snowman's code anywhere; what is inside a macro is not said again")
    func everyFormatsMarkup() {
        func codes(_ format: String, _ line: String) -> [String] {
            Self.read(":: StoryData\n{\"format\": \"\(format)\"}\n\n:: A\n\(line)\n").findings.compactMap {
                if case .macroKeptAsText(_, let code) = $0.kind { code } else { nil }
            }
        }
        for format in ["Harlowe", "SugarCube", "Chapbook", "Snowman", "Unknown"] {
            #expect(codes(format, "<<if $oil gt 2>>Lit.<</if>> The $oil burns.") == ["<<if", "<</if", "$oil"], "\(format)")
            #expect(codes(format, "(if: $lamp is true)[Lit (print: $oil).] Done.") == ["(if:", "(print:"], "\(format)")
            #expect(codes(format, "{back link} and <% s.x = 1 %> then <%= s.x %>") == ["{back link}", "<%", "<%"], "\(format)")
            #expect(codes(format, "Costs $5, for $name, in {name}: [[Pay $oil->B]]").isEmpty, "prices, the reader's name and links are not code: \(format)")
        }
    }

    static func bundled() throws -> [Story] {
        let root = TestHTTPServer.packageRoot.appendingPathComponent("Stories")
        return try FileManager.default.contentsOfDirectory(atPath: root.path).sorted().map { folder in
            let bytes = try [UInt8](Data(contentsOf: root.appendingPathComponent(folder + "/story.json")))
            return try #require(LoadedFile.load(bytes, options: .init(lenient: true)).story?.model())
        }
    }

    @Test("every bundled story, in each story format: story.json to Twee and back is the same story, and its story.json text reads back the same")
    func bundledRoundTrip() throws {
        for story in try Self.bundled() {
            for format in TweeStory.Format.allCases {
                let twee = try TweeStory.twee(story, format: format)
                let back = Self.read(twee)
                #expect(back.story == story, "\(story.name) in \(format)")
                #expect(back.findings.isEmpty, "\(back.findings)")
                #expect(back.ifid == TweeStory.ifid(for: story))
            }
            let json = StoryJSON.text(story)
            #expect(LoadedFile.load(Array(json.utf8)).story?.model() == story)
            #expect(json == JSONValue.parse(StoryJSON.bytes(story))!.pretty() + "\n", "written straight out, the same text as the tree of values gives")
        }
    }

    @Test("a chapter with every key the format declares (ChapterField) comes back from Twee whole, in each story format")
    func everyKeyRoundTrip() throws {
        let chapter = Chapter.withEveryKey()
        let story = Story(id: "s", name: "S", rating: "PG", summary: "x", chapters: [chapter, Chapter(id: "b", name: "B", text: "End.")])
        for format in TweeStory.Format.allCases {
            let back = Self.read(try TweeStory.twee(story, format: format))
            #expect(back.story == story, "in \(format)")
        }
    }

    /// Strings written to break Twee: link and header syntax, escapes, the name placeholder and
    /// its variables, line ends, spaces at the edges, other scripts.
    static let pieces = [
        "[[", "]]", "->", "<-", "|", "[[name]]", "$name", "$names", "{name}", "::", "\n::", "\n", "\n\n", "\r\n", " ", "\t", "\\", "[", "]", "{", "}",
        "(set:", "<<if>>", "é", "日本", "🐚", "\u{301}", "Start", "StoryTitle", "\"", "a", "b", "Hello", ".",
    ]

    static func random(_ generator: inout SplitMix64, pieces count: Int) -> String {
        (0..<Int.random(in: 0...count, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }.joined()
    }

    @Test("an import that keeps no map of places reads the same story and the same findings, in Twee and in archives, small and in two halves")
    func importWithoutPlaces() throws {
        let author = "::StoryTitle\nLamp\n\n::StoryData\n{\"format\": \"SugarCube\", \"start\": \"Nowhere\"}\n\n:: Setup [script]\nx\n\n:: Hall {\"position\":\"1,1\",\"zoom\":2}\n<<if $x>>Hi $name.<</if>>\n[[Go|Cellar][$x to 1]]\n\n:: Hall\nAgain.\n\n:: Cellar\nEnd.\n"
        var files: [(String, [UInt8])] = [("the author's file", Array(author.utf8))]
        var generator = SplitMix64(state: 2026_11_28)
        for number in 0..<20 {
            let story = Self.chain(Int.random(in: 1...12, using: &generator), title: "S\(number)", room: { _ in Self.random(&generator, pieces: 3) }, text: { _ in Self.random(&generator, pieces: 8) })
            files.append(("random \(number) as Twee", Array(try TweeStory.twee(story).utf8)))
            files.append(("random \(number) as an archive", try TwineArchive.htmlBytes(story)))
        }
        let large = Self.chain(3000, title: "Large", room: { "Room \($0)" }, text: { "Text \($0) with $name and (set: $x to \($0))." })
        files.append(("3,000 chapters as Twee", Array(try TweeStory.twee(large).utf8)))
        files.append(("3,000 chapters as an archive", try TwineArchive.htmlBytes(large)))
        for (what, bytes) in files {
            let notation: (Bool) -> TweeStory.Imported =
                what.hasSuffix("archive") ? { TwineArchive.story(from: bytes, placing: $0) } : { TweeStory.story(from: bytes, placing: $0) }
            let placed = notation(true)
            let bare = notation(false)
            #expect(bare.story == placed.story, "\(what)")
            #expect(bare.findings == placed.findings, "\(what)")
            #expect(bare.ifid == placed.ifid && bare.format == placed.format && bare.carriedMetadata == placed.carriedMetadata, "\(what)")
            #expect(bare.places.chapters.isEmpty && bare.places.choices.isEmpty && bare.places.textLines.isEmpty, "\(what): no map")
            #expect(placed.places.chapters.count == placed.story?.chapters.count, "\(what): a map with places")
        }
    }

    @Test("cyd's metadata is read whatever order it lists the chapters in: out of order, missing one, an id twice (the first is its)")
    func metadataInAnyOrder() throws {
        let passages = ":: StoryTitle\nT\n\n:: StoryData\n{\"start\": \"a\"}\n\n:: a\nA.\n\n:: b\nB.\n\n:: c\nC.\n\n:: d\nD.\n"
        func names(_ chapters: String) -> [String]? {
            let metadata = ":: CydMetadata [cyd]\n{\"story\": {\"id\": \"t\", \"name\": \"T\", \"rating\": \"G\", \"summary\": \"s\"}, \"chapters\": {\(chapters)}}\n\n"
            return Self.read(metadata + passages).story?.chapters.map(\.name)
        }
        #expect(names(#""a": {"name": "A"}, "b": {"name": "B"}, "c": {"name": "C"}, "d": {"name": "D"}"#) == ["A", "B", "C", "D"])
        #expect(names(#""d": {"name": "D"}, "c": {"name": "C"}, "b": {"name": "B"}, "a": {"name": "A"}"#) == ["A", "B", "C", "D"])
        #expect(names(#""a": {"name": "A"}, "c": {"name": "C"}, "d": {"name": "D"}"#) == ["A", "b", "C", "D"])
        #expect(names(#""a": {"name": "A"}, "b": {"name": "B"}, "a": {"name": "Second"}, "c": {"name": "C"}"#) == ["A", "B", "C", "d"])
        #expect(names(#""b": {"name": "B"}, "a": {"name": "A"}, "b": {"name": "Second"}"#) == ["A", "B", "c", "d"])
    }

    @Test("a chapter's metadata: each key's first member is its value, of the right type or not taken; its id and unknown keys change nothing")
    func metadataMembers() throws {
        let chapters = #"""
            "a": {"name": 3, "name": "Not", "pic_path": "p.png", "pic_path": "q.png", "pic_alt": 4, "pic_alt": "x", "is_ending": true,
                  "is_ending": false, "id": "zz", "text": "Over.", "text": "Again", "unknown": 1, "is_first_chapter": false,
                  "is_first_chapter": true, "twine": {"position": "1,2"}, "twine": null, "vid_path": "v.mp4"},
            "b": {"name": "B", "choices": [{"chapter_id": "a", "text": "Back"}], "choices": [], "twine": {"tags": ["x"]}},
            "c": "not an object",
            "d": {"is_first_chapter": true, "choices": "none", "text": 2}
            """#
        let metadata = ":: CydMetadata [cyd]\n{\"story\": {\"id\": \"t\", \"name\": \"T\", \"rating\": \"G\", \"summary\": \"s\"}, \"chapters\": {\(chapters)}}\n\n"
        let read = Self.read(":: StoryData\n{\"start\": \"a\"}\n\n" + metadata + ":: a\nA. [[On->b]]\n\n:: b\nB.\n\n:: c\nC.\n\n:: d\nD. [[Back->a]]\n")
        #expect(read.findings.isEmpty, "\(read.findings)")
        let story = try #require(read.story)
        #expect(story.chapters == [
            Chapter(id: "a", name: "a", text: "Over.", isEnding: true, picPath: "p.png", vidPath: "v.mp4",
                    choices: [Choice(chapterID: "b", text: "On")], twine: .object([("position", .string("1,2"))])),
            Chapter(id: "b", name: "B", text: "B.", choices: [Choice(chapterID: "a", text: "Back")], twine: .object([("tags", .array([.string("x")]))])),
            Chapter(id: "c", name: "c", text: "C."),
            Chapter(id: "d", name: "d", text: "D. Back", isFirstChapter: true, choices: [Choice(chapterID: "a", text: "Back")]),
        ], "\(story.chapters)")
    }

    @Test("cyd's metadata keys are read as JSON strings: escaped, or another normalization of a passage's name; a top-level key twice, the first is its")
    func metadataKeysAsText() throws {
        let passages = ":: Caf\u{E9}\nOne. [[On->b]]\n\n:: b\nTwo.\n"
        func read(_ metadata: String) -> [String]? {
            Self.read(":: CydMetadata [cyd]\n\(metadata)\n\n" + passages).story?.chapters.map(\.name)
        }
        let story = #"{"id": "t", "name": "T", "rating": "G", "summary": "s"}"#
        // In order, found where the last one was; out of order, through the table of ids.
        #expect(read(#"{"story": \#(story), "chapters": {"Cafe\#u{301}": {"name": "Decomposed"}, "\u0062": {"n\u0061me": "Escaped"}}}"#) == ["Decomposed", "Escaped"])
        #expect(read(#"{"story": \#(story), "chapters": {"\u0062": {"n\u0061me": "Escaped"}, "Cafe\#u{301}": {"name": "Decomposed"}}}"#) == ["Decomposed", "Escaped"])
        #expect(read(#"{"story": \#(story), "chapters": {"Caf\u00e9": {"name": "Escaped too"}}}"#) == ["Escaped too", "b"])
        let twice = #"{"story": \#(story), "story": {"id": "u", "name": "U", "rating": "G", "summary": "s"}, "chapters": {"b": {"name": "First"}}, "chapters": {"b": {"name": "Second"}}}"#
        let imported = Self.read(":: CydMetadata [cyd]\n\(twice)\n\n" + passages)
        #expect(imported.story?.name == "T" && imported.story?.id == "t")
        #expect(imported.story?.chapters.map(\.name) == ["Caf\u{E9}", "First"])
    }

    @Test("a chapter's metadata 'twine': null leaves the chapter without Twine data, not with a null that validation refuses")
    func metadataTwineNull() throws {
        let metadata = #":: CydMetadata [cyd]\#n{"story": {"id": "t", "name": "T", "rating": "G", "summary": "s"}, "chapters": {"b": {"twine": null}}}\#n\#n"#
        for header in ["", " {\"position\":\"5,5\"}"] {
            let story = try #require(Self.read(metadata + ":: b\(header)\nB.\n").story)
            #expect(story.chapters.map(\.twine) == [nil], "\(header)")
            let json = StoryJSON.text(story)
            #expect(!json.contains("\"twine\""), "\(json)")
            let findings = Checker.check(bytes: StoryJSON.bytes(story), path: "story.json").flatMap(\.diagnostics).filter { $0.severity == .error }
            #expect(findings.isEmpty, "\(findings.map(\.message))")
        }
    }

    @Test("400 random stories built to break it come back exactly")
    func randomRoundTrip() throws {
        var generator = SplitMix64(state: 2026_11_24)
        for number in 0..<400 {
            var ids: [String] = []
            for index in 0..<Int.random(in: 1...8, using: &generator) {
                // Line breaks left out by scalar: "\n\u{301}" is one character, not "\n".
                var id = String(String.UnicodeScalarView(Self.random(&generator, pieces: 3).unicodeScalars.filter { $0 != "\n" && $0 != "\r" }))
                if id.isEmpty || ids.contains(id) || ["StoryTitle", "StoryData", "CydMetadata"].contains(id) { id = "c\(index)" }
                ids.append(id)
            }
            let chapters = ids.enumerated().map { index, id in
                Chapter(
                    id: id, name: Bool.random(using: &generator) ? id : Self.random(&generator, pieces: 4), text: Self.random(&generator, pieces: 12),
                    isFirstChapter: index == 0, isEnding: Bool.random(using: &generator),
                    picPath: Bool.random(using: &generator) ? "resources/\(index).png" : nil, picAlt: Bool.random(using: &generator) ? Self.random(&generator, pieces: 3) : nil,
                    choices: (0..<Int.random(in: 0...3, using: &generator)).map { _ in
                        Choice(chapterID: ids.randomElement(using: &generator)!, text: Self.random(&generator, pieces: 5))
                    })
            }
            let story = Story(
                id: "s\(number)", name: Self.random(&generator, pieces: 4), rating: "PG", summary: Self.random(&generator, pieces: 4),
                picPath: Bool.random(using: &generator) ? "https://example.invalid/c.png" : nil, chapters: chapters)
            let format = TweeStory.Format.allCases.randomElement(using: &generator)!
            let twee = try TweeStory.twee(story, format: format)
            let back = Self.read(twee).story
            #expect(back == story, "story \(number) in \(format):\n\(twee)")
            #expect(StoryJSON.text(story) == JSONValue.parse(StoryJSON.bytes(story))!.pretty() + "\n")
            if back != story { break }
        }
    }

    @Test("a second StoryData, StoryTitle or metadata passage is left out and said at its line; the first is the story's")
    func secondStoryPassages() {
        let read = Self.read("""
            :: StoryTitle
            The Lamp

            :: StoryData
            {"ifid": "D674C58C-DEFA-4F70-B7A2-27742230C0FC", "format": "Harlowe", "start": "Dock"}

            :: Dock
            The boat is in. [[On->Hill]]

            :: Hill
            The lamp.

            :: StoryData
            {"ifid": "00000000-0000-0000-0000-000000000000", "format": "SugarCube", "start": "Hill"}

            :: StoryTitle
            Another

            """)
        #expect(read.story?.firstChapter?.id == "Dock", "the first StoryData's start")
        #expect(read.story?.name == "The Lamp" && read.ifid == "D674C58C-DEFA-4F70-B7A2-27742230C0FC" && read.format == "Harlowe")
        #expect(read.findings == [TweeFinding(kind: .duplicatePassage("StoryData"), line: 13, column: 1), TweeFinding(kind: .duplicatePassage("StoryTitle"), line: 16, column: 1)], "\(read.findings)")
        let words = TweeValidation.diagnostics(read.findings, in: Array("".utf8)).map(\.message)
        #expect(words.allSatisfy { $0.contains("the first is the story's") }, "\(words)")
    }

    @Test("cyd's metadata that is not JSON is said in its place among the other findings, though it is read on another core")
    func unreadableMetadataInOrder() {
        let read = Self.read(":: Start\nGo. [[On->Dock]]\n\n:: Start\nAgain.\n\n:: CydMetadata [cyd]\n{ \"format\": ,\n\n:: StoryInit\n(set: $oil to 3)\n\n:: Dock\nEnd.\n")
        #expect(read.findings == [
            TweeFinding(kind: .duplicatePassage("Start"), line: 4, column: 1),
            TweeFinding(kind: .unreadableData(passage: "CydMetadata"), line: 8, column: 1),
            TweeFinding(kind: .codeLeftOut(passage: "StoryInit"), line: 10, column: 1),
        ], "\(read.findings)")
        #expect(read.story?.chapters.map(\.id) == ["Start", "Dock"] && !read.carriedMetadata)
    }

    /// cyd's metadata is read on another core while the passages become chapters, each passage's
    /// position kept apart in case the file is cyd's; a file whose metadata turns out unreadable,
    /// or without the story's fields, keeps each position in its chapter as any Twine file does.
    @Test("passages' positions and sizes stay in their chapters when cyd's metadata passage is not JSON or has no story, in a small file and one read in halves")
    func positionsWithMetadataThatIsNot() throws {
        for count in [3, 1_200] {
            var passages = ""
            for number in 0..<count {
                let tags = number % 3 == 0 ? " [dock x]" : ""
                let place = number % 2 == 0 ? " {\"position\":\"\(700 + number),\(400 + number)\"\(number % 4 == 0 ? ",\"size\":\"200,100\"" : "")}" : ""
                passages += ":: p\(number)\(tags)\(place)\nText \(number). [[On->p\((number + 1) % count)]]\n\n"
            }
            let plain = Self.read(":: StoryData\n{\"start\": \"p0\"}\n\n" + passages)
            let plainStory = try #require(plain.story)
            #expect(plainStory.chapters[0].twine == .object([("tags", .array([.string("dock"), .string("x")])), ("position", .string("700,400")), ("size", .string("200,100"))]))
            for metadata in ["{ \"format\": ,", "{\"chapters\": {}}", "[1, 2]"] {
                let read = Self.read(":: StoryData\n{\"start\": \"p0\"}\n\n:: CydMetadata [cyd]\n\(metadata)\n\n" + passages)
                #expect(read.story?.chapters.map(\.twine) == plainStory.chapters.map(\.twine), "\(count) passages, metadata \(metadata)")
                #expect(!read.carriedMetadata)
            }
        }
    }

    @Test("one rule for ids: two passages named 'Café', composed and decomposed, are one name: the second is left out and said once, and a link in either spelling reaches the first")
    func idsByCanonicalEquivalence() throws {
        let read = Self.read(":: Start\nGo. [[On->Cafe\u{301}]]\n\n:: Caf\u{E9}\nOne.\n\n:: Cafe\u{301}\nTwo.\n")
        #expect(read.findings.map(\.kind) == [.duplicatePassage("Cafe\u{301}")], "\(read.findings)")
        let story = try #require(read.story)
        let checked = Checker.check(bytes: StoryJSON.bytes(story), path: "story.json").flatMap(\.diagnostics).filter { $0.code != "CYD203" }  // Twee has no summary
        #expect(checked.isEmpty, "\(checked.map(\.message))")
        #expect(throws: Never.self) { try TweeStory.twee(story) }
    }

    @Test("an archive's passages never share a place on Twine's map: cyd's metadata sits beside the first chapter, alone in its row")
    func archivePositions() throws {
        var story = try Self.bundled()[0]
        story.rating = "PG-13"  // carried in cyd's metadata passage
        let html = try TwineArchive.html(story)
        let positions = html.matches(of: /position="([0-9]+),([0-9]+)"/).map { "\($0.1),\($0.2)" }
        #expect(positions.count == story.chapters.count + 1, "\(positions.count)")
        #expect(Set(positions).count == positions.count, "two passages at one place: \(positions.prefix(4))")
        #expect(TwineArchive.story(from: Array(html.utf8)).story == story)
    }

    @Test("Twine's archive HTML: the bundled stories and 100 random ones come back exactly; the specification's example archive reads, its first story with a word about the second")
    func twineArchive() throws {
        for story in try Self.bundled() {
            let html = try TwineArchive.html(story)
            #expect(html.hasPrefix("<tw-storydata name=\"\(story.name)\" startnode=\""))
            #expect(html.hasSuffix("</tw-storydata>\n\n"))
            let back = TwineArchive.story(from: Array(html.utf8))
            #expect(back.story == story, "\(story.name)")
            #expect(back.findings.isEmpty, "\(back.findings)")
        }
        var generator = SplitMix64(state: 7)
        for number in 0..<100 {
            let ids = (0..<Int.random(in: 1...5, using: &generator)).map { "c\($0)" + String(String.UnicodeScalarView(Self.random(&generator, pieces: 2).unicodeScalars.filter { $0 != "\n" && $0 != "\r" })) }
            let unique = Array(NSOrderedSet(array: ids).array as! [String])
            let story = Story(
                id: "s\(number)", name: Self.random(&generator, pieces: 4), rating: "G", summary: Self.random(&generator, pieces: 3),
                chapters: unique.enumerated().map { index, id in
                    Chapter(
                        id: id, name: Self.random(&generator, pieces: 3), text: Self.random(&generator, pieces: 10), isFirstChapter: index == 0,
                        choices: (0..<Int.random(in: 0...2, using: &generator)).map { _ in Choice(chapterID: unique.randomElement(using: &generator)!, text: Self.random(&generator, pieces: 4)) })
                })
            let back = TwineArchive.story(from: Array(try TwineArchive.html(story).utf8)).story
            #expect(back == story, "story \(number)")
            if back != story { break }
        }
        let example = """
            <tw-storydata name="Example 1" startnode="1" creator="Twine" creator-version="2.7.1" format="Harlowe" format-version="3.3.7" ifid="606B5476-BA53-4A70-B4F5-F6794AE67744" options="" tags="" zoom="1" hidden><style role="stylesheet" id="twine-user-stylesheet" type="text/twine-css"></style><script role="script" id="twine-user-script" type="text/twine-javascript"></script><tw-passagedata pid="1" name="Untitled Passage" tags="" position="900,400" size="100,100"></tw-passagedata></tw-storydata>

            <tw-storydata name="Example 2" startnode="1" creator="Twine" creator-version="2.7.1" format="Harlowe" format-version="3.3.7" ifid="1188096A-464B-4A12-9B08-822D4BB60D0E" options="" tags="" zoom="1" hidden><style role="stylesheet" id="twine-user-stylesheet" type="text/twine-css"></style><script role="script" id="twine-user-script" type="text/twine-javascript"></script><tw-passagedata pid="1" name="Untitled Passage" tags="" position="900,400" size="100,100"></tw-passagedata></tw-storydata>

            """
        let read = TwineArchive.story(from: Array(example.utf8))
        #expect(read.story?.name == "Example 1")
        #expect(read.ifid == "606B5476-BA53-4A70-B4F5-F6794AE67744")
        #expect(read.story?.chapters.map(\.id) == ["Untitled Passage"])
        #expect(read.story?.firstChapter?.id == "Untitled Passage")
        #expect(read.findings.map(\.kind) == [.moreStories])
        // Character references, named and numeric, in names and text.
        let entities = TwineArchive.story(from: Array(#"<tw-storydata name="A &amp; B" startnode="1"><tw-passagedata pid="1" name="x&#39;y">1 &lt; 2 &#x1F41A; [[Go-&gt;z]]</tw-passagedata><tw-passagedata pid="2" name="z">End.</tw-passagedata></tw-storydata>"#.utf8))
        #expect(entities.story?.name == "A & B")
        #expect(entities.story?.chapters.first?.id == "x'y")
        #expect(entities.story?.chapters.first?.text == "1 < 2 🐚 Go")
        #expect(entities.story?.chapters.first?.choices == [Choice(chapterID: "z", text: "Go")])
        #expect(TwineArchive.story(from: Array("<html>not Twine</html>".utf8)).story == nil)
    }

    @Test("what Twee cannot name is refused: two chapters of one id, an id with a line break, a passage name formats keep")
    func refusals() {
        let story = { (ids: [String]) in Story(id: "s", name: "S", rating: "G", summary: "", chapters: ids.map { Chapter(id: $0, name: $0, text: "") }) }
        #expect(throws: TweeStory.ExportProblem.duplicateChapter("a")) { try TweeStory.twee(story(["a", "a"])) }
        #expect(throws: TweeStory.ExportProblem.unusableChapterID("a\nb")) { try TweeStory.twee(story(["a\nb"])) }
        #expect(throws: TweeStory.ExportProblem.unusableChapterID("a\r\nb")) { try TweeStory.twee(story(["a\r\nb"])) }
        #expect(throws: TweeStory.ExportProblem.reservedName("StoryInit")) { try TweeStory.twee(story(["StoryInit"])) }
        // A large story's ids are checked on another core, beside the layout: refused the same.
        let many = (0..<1500).map { "c\($0)" }
        #expect(throws: TweeStory.ExportProblem.duplicateChapter("c7")) { try TweeStory.twee(story(many + ["c7"])) }
        #expect(throws: TweeStory.ExportProblem.unusableChapterID("a\nb")) { try TweeStory.twee(story(many + ["a\nb"])) }
    }

    @Test("the IFID is a version 4 UUID in capitals, the same for the same story")
    func ifid() throws {
        let story = try #require(try Self.bundled().first)
        let ifid = TweeStory.ifid(for: story)
        #expect(ifid == TweeStory.ifid(for: story))
        #expect(ifid.wholeMatch(of: /[0-9A-F]{8}-[0-9A-F]{4}-4[0-9A-F]{3}-[89AB][0-9A-F]{3}-[0-9A-F]{12}/) != nil, "\(ifid)")
    }

    @Test("passages are laid out in rows by distance from the first chapter, in the order a reader meets them; unreachable ones below")
    func layout() throws {
        let chapters = [
            Chapter(id: "a", name: "a", text: "", isFirstChapter: true, choices: [Choice(chapterID: "b", text: ""), Choice(chapterID: "c", text: "")]),
            Chapter(id: "c", name: "c", text: "", choices: [Choice(chapterID: "d", text: "")]),
            Chapter(id: "b", name: "b", text: "", choices: [Choice(chapterID: "a", text: ""), Choice(chapterID: "d", text: "")]),
            Chapter(id: "d", name: "d", text: ""),
            Chapter(id: "lost", name: "lost", text: "", choices: [Choice(chapterID: "d", text: ""), Choice(chapterID: "gone", text: "")]),
            Chapter(id: "gone", name: "gone", text: ""),
        ]
        let story = Story(id: "s", name: "S", rating: "G", summary: "", chapters: chapters)
        let places = TweeLayout.positions(of: story).map { "\($0.x),\($0.y)" }
        #expect(places == ["100,100", "225,225", "100,225", "100,350", "100,475", "100,600"])
        // The positions are what the Twee file carries, and Twine's archive too.
        let twee = try TweeStory.twee(story)
        #expect(twee.contains(":: c {\"position\":\"225,225\",\"size\":\"100,100\"}"))
        #expect(try TwineArchive.html(story).contains("name=\"lost\" tags=\"\" position=\"100,475\""))
        // A row wraps after 40 passages.
        let wide = Story(id: "w", name: "W", rating: "G", summary: "", chapters: [
            Chapter(id: "start", name: "start", text: "", isFirstChapter: true, choices: (0..<41).map { Choice(chapterID: "c\($0)", text: "") })
        ] + (0..<41).map { Chapter(id: "c\($0)", name: "c", text: "") })
        let wrapped = TweeLayout.positions(of: wide)
        #expect(wrapped[40] == (4975, 225) && wrapped[41] == (100, 350))
    }

    @Test("a story of 3,000 chapters (written and read in two halves, on two cores) comes back exactly, and its story.json text is the tree's")
    func largeRoundTrip() throws {
        var generator = SplitMix64(state: 3000)
        let ids = (0..<3000).map { "c\($0)" }
        let story = Story(id: "big", name: "Big", rating: "G", summary: "", chapters: ids.enumerated().map { index, id in
            Chapter(
                id: id, name: index % 7 == 0 ? "Title \(index)" : id, text: Self.random(&generator, pieces: 6), isFirstChapter: index == 0,
                isEnding: index % 11 == 0, choices: (0..<Int.random(in: 0...3, using: &generator)).map { _ in
                    Choice(chapterID: ids.randomElement(using: &generator)!, text: Self.random(&generator, pieces: 3))
                })
        })
        for format in TweeStory.Format.allCases {
            let read = Self.read(try TweeStory.twee(story, format: format))
            #expect(read.story == story, "\(format)")
            // The places of the second half's chapters follow the first half's.
            let last = try #require(read.places.chapters.last)
            #expect(read.places.chapters.count == 3000 && last.header > 0)
            if let choices = last.choices { #expect(choices.upperBound <= read.places.choices.count) }
        }
        #expect(StoryJSON.text(story) == JSONValue.parse(StoryJSON.bytes(story))!.pretty() + "\n")
        // A file over 1 MB is read in two halves: every passage's line is its line in the file,
        // and a finding in the second half too.
        var text = try TweeStory.twee(story)
        while text.utf8.count < 1 << 20 { text += "\n:: pad\(text.utf8.count) [x]\n" + String(repeating: "Filler text. ", count: 2000) + "\n" }
        text += "\n:: Late\n(set: $late to 1)Late.\n"
        let big = Self.read(text)
        // Lines as Twee counts them: at each line feed byte ("\r\n" is one character to Swift).
        let lines = text.utf8.split(separator: 0x0A, omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
        let lateLine = lines.firstIndex { $0 == ":: Late" }! + 1
        #expect(big.findings.contains(TweeFinding(kind: .macroKeptAsText(passage: "Late", code: "(set:"), line: lateLine + 1, column: 1)), "\(big.findings.suffix(3))")
        let document = TweeDocument.parse(Array(text.utf8))
        for passage in document.passages { #expect(lines[passage.line - 1].hasPrefix(":: "), "\(passage.name) at \(passage.line)") }
        #expect(big.story?.chapters.prefix(3000).map(\.id) == story.chapters.map(\.id))
        // So is a Twine archive over 1 MB, written and read in two halves.
        var long = story
        for index in long.chapters.indices { long.chapters[index].text += "\n\n" + String(repeating: "A long passage of text. ", count: 20) }
        long.chapters[2999].text += "\n(set: $late to 1)"
        let html = try TwineArchive.htmlBytes(long)
        #expect(html.count > 1 << 20)
        let archived = TwineArchive.story(from: html)
        #expect(archived.story == long)
        let element = Array("name=\"c2999\"".utf8)
        let at = try #require((0...(html.count - element.count)).last { Array(html[$0..<($0 + element.count)]) == element })
        let elementLine = html[..<at].count { $0 == 0x0A } + 1
        let late = try #require(archived.findings.last { if case .macroKeptAsText("c2999", "(set:") = $0.kind { true } else { false } })
        #expect(late.line > elementLine, "the macro is in the passage's text, after its element starts: \(late.line) vs \(elementLine)")
        #expect(late.line == elementLine + long.chapters[2999].text.utf8.count { $0 == 0x0A } , "\(late)")
        // cyd's metadata passage, written a chapter at a time, is laid out as JSON values are.
        let metadata = try #require(TweeDocument.parse(Array(try TweeStory.twee(story).utf8)).passages.first { $0.name == "CydMetadata" })
        #expect(metadata.content == JSONValue.parse(Array(metadata.content.utf8))?.pretty())
    }
}
