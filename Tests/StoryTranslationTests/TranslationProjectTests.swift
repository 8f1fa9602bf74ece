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

@Suite("A story's translation files")
struct TranslationProjectFilesTests {
    static func project() throws -> (TemporaryFolder, TranslationProject) {
        let folder = try TemporaryFolder()
        _ = try folder.write("story.json", TestStory(id: "tide", title: "The Tide", summary: "s", chapters: [.init("a", name: "A", text: "Go.", isFirst: true)]).json)
        return (folder, try TranslationProject.load(folder.url.path))
    }

    @Test("a language's file is found by its tag in any case; asking for none lists them all")
    func languageFiles() throws {
        let (folder, project) = try Self.project()
        _ = try folder.write("translations/fr.po", "")
        _ = try folder.write("translations/pt-BR.xlf", "")
        _ = try folder.write("translations/notes.txt", "")
        #expect(project.languageFile("FR")?.path == folder.path("translations/fr.po"))
        #expect(project.languageFile("pt_br")?.format == .xliff)
        #expect(project.languageFile("de") == nil)
        #expect(project.languageFiles([]).map(\.language) == ["fr", "pt-BR"])
        #expect(project.languageFiles(["pt-br", "de"]).map(\.language) == ["pt-BR"])
    }

    @Test("the template is written straight from the strings, and is what a merge with nothing gives; a translation keeps what it had")
    func files() throws {
        let (_, project) = try Self.project()
        let template = project.file(.po, sourceLanguage: "en", comments: [])
        #expect(template.counts == nil && template.entries > 0)
        let merged = TranslationFolder.render(
            TranslationMerge(units: project.units, existing: nil, grouped: true), storyID: "tide", storyName: "The Tide", language: nil, format: .po,
            sourceLanguage: "en", header: nil, comments: [])
        #expect(template.bytes == merged, "one template, however it is made")
        let french = project.file(.po, language: "fr", sourceLanguage: "en", comments: [], now: 0)
        let read = try TranslationFile.read(french.bytes, format: .po)
        let again = project.file(.xliff, language: "fr", existing: read, sourceLanguage: "en", comments: [])
        let counts = try #require(again.counts)
        #expect(counts.madeFuzzy == 0 && counts.obsoleted == 0 && counts.followed == 0, "nothing changed in the story: \(counts)")
        #expect(String(decoding: again.bytes, as: UTF8.self).contains("<xliff"))
    }
}
