import Testing

@testable import StoryFormat

@Suite("The story model")
struct StoryModelTests {
    static let valid = #"""
        {
          "story": {
            "id": "story01", "name": "The Tide", "rating": "PG", "summary": "Salt and wind",
            "pic_path": "resources/title.png",
            "chapters": [
              { "id": "shore", "name": "The Shore", "is_first_chapter": true,
                "text": "Hello, [[name]].\n\nThe tide is out.",
                "choices": [ { "chapter_id": "boat", "text": "Take the boat" } ] },
              { "id": "boat", "name": "The Boat", "text": "You row.", "is_ending": true, "pic_path": "https://example.com/boat.jpg" }
            ]
          }
        }
        """#

    @Test("a valid file decodes to the plain model with no findings")
    func decodesValidStory() throws {
        let file = LoadedFile.load(Array(Self.valid.utf8))
        #expect(file.diagnostics.isEmpty)
        let story = try #require(file.story?.model())
        #expect(story.name == "The Tide" && story.rating == "PG" && story.picPath == "resources/title.png")
        #expect(story.firstChapter?.id == "shore")
        #expect(story.chapters[0].choices == [Choice(chapterID: "boat", text: "Take the boat")])
        #expect(story.chapters[0].paragraphs == ["Hello, [[name]].", "The tide is out."])
        #expect(story.chapters[1].isEnding)
        #expect(MediaReference(story.chapters[1].picPath!) == .web("https://example.com/boat.jpg"))
        #expect(MediaReference("http://example.com/a.png") == .repository("http://example.com/a.png"))
    }

    @Test("one run reports every structural problem, not just the first")
    func reportsEverything() {
        let text = #"""
            { "story": { "id": "", "name": 3, "summary": "s",
              "chapters": [ { "id": "a", "text": "t", "is_first_chapter": "true", "choices": [ {"chapterId": "b", "text": "go"} ] }, 7 ] } }
            """#
        let file = LoadedFile.load(Array(text.utf8))
        let codes = file.diagnostics.map(\.code)
        #expect(codes.filter { $0 == .missingKey }.count == 3)  // rating, chapter name, chapter_id
        #expect(codes.filter { $0 == .wrongType }.count == 3)  // name, is_first_chapter, chapter 2
        #expect(codes.contains(.emptyValue) && codes.contains(.unknownKey))
        #expect(file.story?.model() == nil)
        let unknown = file.diagnostics.first { $0.code == .unknownKey }
        #expect(unknown?.help == "did you mean 'chapter_id'?")
        #expect(unknown?.pointer == "/story/chapters/0/choices/0/chapterId")
    }

    @Test("an authors file is recognised by its content and decoded")
    func authors() throws {
        let file = LoadedFile.load(Array(#"{"authors": [{"name": "alice", "repos": ["https://example.com/a.git"]}, {"name": "bob"}]}"#.utf8), fileName: "catalogue.json")
        #expect(file.kind == .authors)
        let authors = try #require(file.authors)
        #expect(authors.authors.map { $0.name?.value } == ["alice", "bob"])
        #expect(authors.authors[0].repos.map(\.value) == ["https://example.com/a.git"])
    }

    @Test("paragraphs split on blank lines, CR LF included")
    func paragraphs() {
        let chapter = Chapter(id: "a", name: "A", text: "One\r\nstill one\r\n\r\nTwo\n \nThree\n\n\n")
        #expect(chapter.paragraphs == ["One\nstill one", "Two", "Three"])
        #expect(Chapter(id: "a", name: "A", text: "\t \n\n  café 🦊\r\n\t\r\nfin").paragraphs == ["  café 🦊", "fin"])
        #expect(Chapter(id: "a", name: "A", text: "").paragraphs == [])
    }

    @Test("visible text never passes escape sequences or bidi controls on")
    func visibleText() {
        #expect(VisibleText.escape("a\u{1B}[2Jb") == "a^[[2Jb")
        #expect(VisibleText.escape("x\u{9B}y\u{202E}z\u{7F}") == "x\\u{9B}y\\u{202E}z^?")
        #expect(VisibleText.escape("line\nnext", keepLineBreaks: true) == "line\nnext")
        #expect(VisibleText.escape("line\nnext") == "line^Jnext")
        #expect(VisibleText.escape("café 🦊 مرحبا") == "café 🦊 مرحبا")
    }

    /// `escape` decides whether a text needs it on the UTF-8 bytes, eight at a time; that must
    /// agree with the rule on scalars for every scalar that matters, wherever it sits in the
    /// eight-byte words, alone or among plain text.
    @Test("the byte-level test for unsafe text agrees with the scalar rule, at every place in a word")
    func visibleTextByBytes() {
        var scalars = (0..<0x300).compactMap(Unicode.Scalar.init)
        scalars += (0x2000...0x2070).compactMap(Unicode.Scalar.init)
        scalars += ["\u{FEFF}", "\u{1F98A}", "\u{E2}", "\u{C2}", "\u{100000}"]
        for scalar in scalars {
            for keepLineBreaks in [false, true] {
                for keepTabs in [false, true] {
                    var exempt = false
                    if scalar == "\n" && keepLineBreaks || scalar == "\t" && keepTabs { exempt = true }
                    let unsafe = VisibleText.isUnsafe(scalar) && !exempt
                    for before in 0..<17 {
                        let text = String(repeating: "a", count: before) + String(scalar) + String(repeating: "é", count: before % 3)
                        #expect(
                            VisibleText.needsEscaping(text, keepLineBreaks: keepLineBreaks, keepTabs: keepTabs) == unsafe,
                            "U+\(String(scalar.value, radix: 16)) after \(before) bytes")
                    }
                }
            }
        }
        #expect(!VisibleText.needsEscaping("", keepLineBreaks: false, keepTabs: false))
        #expect(!VisibleText.needsEscaping(String(repeating: "The lantern — “swings” über… ", count: 100), keepLineBreaks: false, keepTabs: false))
    }
}

/// Found by the fuzzer: a `chapters` element that is not an object is left out of
/// `StorySyntax.chapters`, so the chapters after it sit one place earlier there than in the
/// file. Pictures, choices and the model refer to chapters by their place in the array; messages
/// name a chapter without an id by its place in the file.
@Suite struct ChaptersAfterANonObjectTests {
    let syntax: StorySyntax

    init() throws {
        let text = """
            {"story": {"id": "s", "name": "S", "rating": "G", "summary": "x", "chapters": [
              {"id": "a", "name": "A", "text": "t", "is_first_chapter": true, "choices": [{"chapter_id": "b", "text": "go"}]},
              "not a chapter",
              {"name": "No id", "text": "t", "choices": []},
              {"id": "b", "name": "B", "text": "t", "pic_path": "resources/b.png", "choices": []}
            ]}}
            """
        syntax = try #require(LoadedFile.load(Array(text.utf8)).story)
    }

    @Test func picturesAndChoicesPointIntoTheChaptersArray() throws {
        #expect(syntax.chapters.count == 3)
        let picture = try #require(syntax.media.first)
        let owner = try #require(picture.chapter)
        #expect(syntax.chapters[owner].id?.value == "b")
        #expect(syntax.chapters.map(\.index) == [0, 1, 2])
        #expect(syntax.choices.first?.chapter == 0)
    }

    @Test func messagesNameAChapterByItsPlaceInTheFile() {
        #expect(syntax.chapters[1].label == "chapter 3")
        #expect(syntax.chapters.map(\.ordinal) == [0, 2, 3])
    }

    @Test("whether a file makes a story is said without making one, by the same rules as the model: every way a story falls short")
    func makesModelAgreesWithTheModel() {
        let base = StoryModelTests.valid
        let variants: [(String, String)] = [
            ("as written", base),
            ("no rating", base.replacingOccurrences(of: #""rating": "PG", "#, with: "")),
            ("a name that is a number", base.replacingOccurrences(of: #""name": "The Tide""#, with: #""name": 3"#)),
            ("a chapter without text", base.replacingOccurrences(of: #""text": "You row.", "#, with: "")),
            ("a chapter without a name", base.replacingOccurrences(of: #""name": "The Boat", "#, with: "")),
            ("a chapter without an id", base.replacingOccurrences(of: #"{ "id": "boat", "#, with: "{ ")),
            ("an id with a NUL", base.replacingOccurrences(of: #"{ "id": "boat""#, with: #"{ "id": "bo\u0000at""#)),
            ("an id with an escape character", base.replacingOccurrences(of: #"{ "id": "shore""#, with: #"{ "id": "sh\u001bore""#)),
            ("an id with a right-to-left mark", base.replacingOccurrences(of: #"{ "id": "shore""#, with: #"{ "id": "sh\u200fore""#)),
            ("an id with a tab", base.replacingOccurrences(of: #"{ "id": "shore""#, with: #"{ "id": "sh\tore""#)),
            ("an id with a DEL written as it is", base.replacingOccurrences(of: #"{ "id": "shore""#, with: "{ \"id\": \"sh\u{7F}ore\"")),
            ("a choice to an id with a C1 control written as it is", base.replacingOccurrences(of: #""chapter_id": "boat""#, with: "\"chapter_id\": \"bo\u{85}at\"")),
            ("a choice to an id with a right-to-left mark written as it is", base.replacingOccurrences(of: #""chapter_id": "boat""#, with: "\"chapter_id\": \"bo\u{200F}at\"")),
            ("a choice without text", base.replacingOccurrences(of: #", "text": "Take the boat""#, with: "")),
            ("a choice without a chapter", base.replacingOccurrences(of: #""chapter_id": "boat", "#, with: "")),
            ("a choice to a chapter id with a bell", base.replacingOccurrences(of: #""chapter_id": "boat""#, with: #""chapter_id": "bo\u0007at""#)),
            ("a choice to a chapter that is not there", base.replacingOccurrences(of: #""chapter_id": "boat""#, with: #""chapter_id": "raft""#)),
            ("a flag that is a string", base.replacingOccurrences(of: #""is_ending": true"#, with: #""is_ending": "yes""#)),
            ("no chapters", base.replacingOccurrences(of: #""chapters": ["#, with: #""pages": ["#)),
            ("a chapter that is a number", base.replacingOccurrences(of: #"{ "id": "boat", "name": "The Boat", "text": "You row.", "is_ending": true, "pic_path": "https://example.com/boat.jpg" }"#, with: "7")),
        ]
        for (name, text) in variants {
            #expect(text != base || name == "as written", "the variant '\(name)' changed nothing")
            guard let syntax = LoadedFile.load(Array(text.utf8)).story ?? LoadedFile.asReadersRead(Array(text.utf8)).story else { continue }
            #expect(syntax.makesModel == (syntax.model() != nil), "\(name): makesModel \(syntax.makesModel), model \(syntax.model() != nil)")
        }
    }

    @Test("a string in one file and one in another hold the same text when their bytes are the same, escapes and all, or when they decode to text Swift calls equal")
    func sameTextAcrossFiles() throws {
        func node(_ json: String) throws -> (JSONDocument, Int) {
            let file = LoadedFile.load(Array(json.utf8))
            let story = try #require(file.story, "\(json)")
            return (story.document, try #require(story.chapters[0].textNode))
        }
        func story(_ text: String) -> String {
            #"{"story":{"id":"s","name":"n","rating":"G","summary":"s","chapters":[{"id":"a","name":"A","is_first_chapter":true,"text":"\#(text)"}]}}"#
        }
        let pairs: [(String, String, Bool)] = [
            (#"Caf\u00e9 at\n\nnoon"#, #"Caf\u00e9 at\n\nnoon"#, true),
            ("Café", #"Caf\u00e9"#, true),
            (#"Caf\u00e9"#, #"Cafe\u0301"#, true),
            ("Café", "Cafe", false),
            (#"a\nb"#, #"a\rb"#, false),
            ("", "", true),
            ("", " ", false),
            (String(repeating: "long text ", count: 40), String(repeating: "long text ", count: 40), true),
            (String(repeating: "long text ", count: 40), String(repeating: "long text ", count: 39) + "long texT ", false),
        ]
        for (left, right, same) in pairs {
            let (a, nodeA) = try node(story(left)), (b, nodeB) = try node(story(right))
            #expect(a.sameText(nodeA, as: nodeB, in: b) == same, "'\(left)' and '\(right)'")
            #expect(a.sameText(nodeA, as: nodeB, in: b) == (a.string(nodeA) == b.string(nodeB)), "as Swift compares: '\(left)' and '\(right)'")
        }
    }
}
