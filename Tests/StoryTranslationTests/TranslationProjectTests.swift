import StoryCheck
import StoryFormat
import StoryTranslation
import TestSupport
import Testing

/// The story a translator works on: read from its folder, or the reason it cannot be.
@Suite("A story to translate")
struct TranslationProjectTests {
    @Test("a story folder gives the story's id, name and strings in reading order")
    func loads() throws {
        let folder = try TemporaryFolder()
        _ = try folder.write("story.json", TestStory(id: "tide", title: "The Tide", summary: "s", chapters: [.init("a", name: "A", text: "Go.", isFirst: true)]).json)
        let project = try TranslationProject.load(folder.url.path)
        #expect(project.storyID == "tide" && project.name == "The Tide")
        #expect(project.units.map(\.id).prefix(2) == ["story.name", "story.summary"], "\(project.units.map(\.id))")
        #expect(project.translations.path.hasSuffix("/translations"))
    }

    @Test("a folder without story.json, a file that is not story.json, and a story that cannot be read are each said apart")
    func refuses() throws {
        let folder = try TemporaryFolder()
        #expect(throws: TranslationProject.LoadError.self) { try TranslationProject.load(folder.path("missing")) }
        _ = try folder.write("other.json", "{}")
        do {
            _ = try TranslationProject.load(folder.path("other.json"))
            Issue.record("a file that is not story.json was taken")
        } catch {
            if case .notAStoryFolder = error {} else if case .input = error {} else { Issue.record("\(error)") }
        }
        let broken = try TemporaryFolder()
        _ = try broken.write("story.json", "{ \"story\": 3 }")
        do {
            _ = try TranslationProject.load(broken.url.path)
            Issue.record("a broken story was taken")
        } catch {
            guard case .notAStory(let shown) = error else { Issue.record("\(error)"); return }
            #expect(shown.hasSuffix("story.json"))
        }
    }
}
