import StoryFormat
import StoryTranslation
import Testing

/// Every string a reader sees, with an id made from what it is, in the order a reader meets it.
@Suite("Translation units")
struct TranslationUnitTests {
    static let story = """
        {
          "story": {
            "id": "lamp",
            "name": "The Lamp",
            "rating": "G",
            "summary": "A lamp in the dark",
            "chapters": [
              { "id": "attic", "name": "The Attic", "text": "Nobody comes here." },
              { "id": "cellar", "name": "The Cellar", "text": "Cold.\\n\\nA [[name]] is scratched on the wall.",
                "choices": [{ "chapter_id": "hall", "text": "Back up" }] },
              {
                "id": "hall",
                "name": "The Hall",
                "is_first_chapter": true,
                "text": "It is dark.\\nVery dark.\\n\\n\\nHello, [[name]].",
                "pic_path": "resources/hall.png",
                "pic_alt": "A dark hall",
                "choices": [
                  { "chapter_id": "cellar", "text": "Go down" },
                  { "chapter_id": "cellar", "text": "Fall down" },
                  { "chapter_id": "nowhere", "text": "Leave" }
                ]
              }
            ]
          }
        }
        """

    static func units() throws -> [TranslationUnit] {
        let syntax = try #require(LoadedFile.load(Array(story.utf8)).story)
        return try #require(TranslationUnits.extract(syntax))
    }

    @Test("ids in reading order: the story's, then breadth-first from the first chapter, then chapters no choice reaches")
    func order() throws {
        #expect(try Self.units().map(\.id) == [
            "story.name", "story.summary",
            "hall.title", "hall.text.1", "hall.text.2", "hall.pic_alt", "hall.choice.cellar", "hall.choice.cellar.2", "hall.choice.nowhere",
            "cellar.title", "cellar.text.1", "cellar.text.2", "cellar.choice.hall",
            "attic.title", "attic.text.1",
        ])
    }

    @Test("each string keeps its text (a paragraph's inner line break too), its chapter's title as context and its line")
    func places() throws {
        let units = Dictionary(uniqueKeysWithValues: try Self.units().map { ($0.id, $0) })
        #expect(units["hall.text.1"]?.source == "It is dark.\nVery dark.")
        #expect(units["hall.text.2"]?.source == "Hello, [[name]].")
        #expect(units["hall.text.2"]?.mentionsName == true)
        #expect(units["hall.text.1"]?.mentionsName == false)
        #expect(units["hall.choice.cellar.2"]?.source == "Fall down")
        #expect(units["hall.title"]?.context == "The Hall")
        #expect(units["story.summary"]?.context == "story")
        #expect(units["story.name"]?.line == 4)
        #expect(units["attic.title"]?.line == 8)
        #expect(units["hall.text.1"]?.line == 15)
        #expect(units["hall.pic_alt"]?.line == 17)
        #expect(units["hall.choice.cellar.2"]?.line == 20)
    }

    @Test("ids never depend on the text or the line: only renaming a chapter changes them")
    func stable() throws {
        let before = try Self.units().map(\.id)
        let edited = Self.story.replacingOccurrences(of: "It is dark.", with: "It is pitch dark.")
            .replacingOccurrences(of: "\"id\": \"lamp\",", with: "\"id\": \"lamp\",\n\n\n")
        let editedSyntax = try #require(LoadedFile.load(Array(edited.utf8)).story)
        let after = try #require(TranslationUnits.extract(editedSyntax)).map(\.id)
        #expect(before == after)
        let renamed = Self.story.replacingOccurrences(of: "\"attic\"", with: "\"loft\"")
        let renamedSyntax = try #require(LoadedFile.load(Array(renamed.utf8)).story)
        let ids = try #require(TranslationUnits.extract(renamedSyntax)).map(\.id)
        #expect(ids.filter { !before.contains($0) } == ["loft.title", "loft.text.1"])
    }

    @Test("a story value gives the same ids and texts as the file it came from (lines aside)")
    func fromModel() throws {
        let model = try #require(LoadedFile.load(Array(Self.story.utf8)).story?.model())
        let fromModel = TranslationUnits.extract(model)
        #expect(fromModel.map(\.id) == (try Self.units().map(\.id)))
        #expect(fromModel.map(\.source) == (try Self.units().map(\.source)))
        #expect(fromModel.allSatisfy { $0.line == 0 })
    }

    @Test("strings taken without their lines (to count or check translations) are the placed ones, each at line 0")
    func unplaced() throws {
        let syntax = try #require(LoadedFile.load(Array(Self.story.utf8)).story)
        let unplaced = try #require(TranslationUnits.extract(syntax, lines: false))
        let placed = try Self.units()
        #expect(unplaced.allSatisfy { $0.line == 0 })
        #expect(unplaced == placed.map { unit in
            var unit = unit
            unit.line = 0
            return unit
        })
        #expect(TranslationUnits.extract(storyFile: Array(Self.story.utf8), lines: false) == unplaced)
    }
}

extension String {
    func replacingOccurrences(of target: String, with replacement: String) -> String {
        var result = ""
        var rest = Substring(self)
        while let range = rest.firstRange(of: target) {
            result += rest[..<range.lowerBound] + replacement
            rest = rest[range.upperBound...]
        }
        return result + rest
    }
}
