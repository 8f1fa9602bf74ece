import Foundation
import StoryCheck
import StoryFormat
import StoryValidation
import TestSupport
import Testing

/// The one entry point every caller validates through (cyd validate, the language server, the
/// importer, the keeper's sync), tested in-process: which checker runs on which path, how a
/// translation finds its story and LINGUAS, and what cannot be validated at all.
@Suite("One way to validate anything")
struct ValidationTests {
    static let story = TestStory(
        id: "tide", summary: "A story of the sea",
        chapters: [
            .init("start", name: "Start", text: "Go on, [[name]].", choices: [("end", "On"), ("nowhere", "Off")], isFirst: true),
            .init("end", name: "End", text: "Done.", isEnding: true),
        ])

    static func po(_ entries: [(id: String, source: String, translation: String)], language: String) -> String {
        var text = "msgid \"\"\nmsgstr \"\"\n\"Content-Type: text/plain; charset=UTF-8\\n\"\n\"Language: \(language)\\n\"\n\n"
        // As `cyd l10n` writes them: the id in a comment, the chapter's title as context.
        for entry in entries { text += "#. id: \(entry.id)\nmsgctxt \"Start\"\nmsgid \"\(entry.source)\"\nmsgstr \"\(entry.translation)\"\n\n" }
        return text
    }

    static func codes(_ reports: [FileReport]) -> [String: [String]] {
        Dictionary(uniqueKeysWithValues: reports.map { ($0.path, $0.diagnostics.map(\.code.rawValue).sorted()) })
    }

    /// A story folder with a French translation that breaks [[name]], and LINGUAS without French.
    func folder() throws -> TemporaryFolder {
        let folder = try TemporaryFolder()
        _ = try folder.write("tide/story.json", Self.story.json)
        _ = try folder.write("tide/translations/fr.po", Self.po([("start.text.1", "Go on, [[name]].", "Continue, [[nom]].")], language: "fr"))
        _ = try folder.write("tide/translations/LINGUAS", "de\n")
        return folder
    }

    @Test("a file's name says what it is: a translation, Twee, a Twine archive, or JSON")
    func kinds() {
        #expect(Validation.Kind(fileName: "fr.po") == .translation(.po))
        #expect(Validation.Kind(fileName: "story.pot") == .translation(.po))
        #expect(Validation.Kind(fileName: "translations/fr.XLF") == .translation(.xliff))
        #expect(Validation.Kind(fileName: "lamp.twee") == .twee(.twee))
        #expect(Validation.Kind(fileName: "lamp.html") == .twee(.twineArchive))
        #expect(Validation.Kind(fileName: "authors.json") == .json)
        #expect(Validation.Kind(fileName: "anything") == .json)
    }

    @Test("a story folder: its story.json and every translation against it, LINGUAS read")
    func storyFolder() throws {
        let folder = try folder()
        let reports = try Validation.check(path: folder.path("tide"))
        let codes = Self.codes(reports)
        #expect(codes.keys.sorted() == ["README.md", "story.json", "translations/fr.po"].map { folder.path("tide") + "/" + $0 }, "\(codes)")
        #expect(codes[folder.path("tide") + "/README.md"] == ["CYD801"], "a folder gets the README checks: \(codes)")
        #expect(codes[folder.path("tide") + "/story.json"]?.contains("CYD302") == true, "the choice to nowhere: \(codes)")
        let french = codes[folder.path("tide") + "/translations/fr.po"] ?? []
        #expect(french.contains("CYD162"), "the broken [[name]]: \(french)")
        #expect(french.contains("CYD167"), "fr is not in LINGUAS: \(french)")
        #expect(!french.contains("CYD164"), "untranslated strings are not reported unless a language is asked for: \(french)")
    }

    @Test("asking for a language checks it alone, reports its untranslated strings, and needs its file")
    func languages() throws {
        let folder = try folder()
        let reports = try Validation.check(path: folder.path("tide"), options: .init(languages: ["FR"]))
        #expect(Self.codes(reports)[folder.path("tide") + "/translations/fr.po"]?.contains("CYD164") == true)
        #expect {
            try Validation.check(path: folder.path("tide"), options: .init(languages: ["de"]))
        } throws: { error in
            guard case Validation.InputError.noTranslation(let where_, "de") = error else { return false }
            return where_.hasSuffix("translations")
        }
    }

    @Test("a translation named alone is checked against the story two folders up, or refused without one")
    func translationAlone() throws {
        let folder = try folder()
        let reports = try Validation.check(path: folder.path("tide/translations/fr.po"))
        #expect(reports.count == 1 && reports[0].diagnostics.contains { $0.code.rawValue == "CYD162" })
        _ = try folder.write("lost/translations/fr.po", Self.po([], language: "fr"))
        #expect {
            try Validation.check(path: folder.path("lost/translations/fr.po"))
        } throws: { error in
            guard case Validation.InputError.noStoryBeside(_, let story) = error else { return false }
            return story.hasSuffix("lost/story.json")
        }
    }

    @Test("Twee is read as the importer reads it, each finding in the .twee file")
    func twee() throws {
        let folder = try TemporaryFolder()
        let twee = """
            :: StoryTitle
            Lamp

            :: StoryData
            {"ifid": "D674C58C-DEFA-4F70-B7A2-27742230C0FC", "format": "Harlowe", "start": "Start"}

            :: Start
            A lamp. [[On->Nowhere]]

            """
        _ = try folder.write("lamp.twee", twee)
        let reports = try Validation.check(path: folder.path("lamp.twee"))
        #expect(reports.first?.path == folder.path("lamp.twee"))
        #expect(reports.first?.diagnostics.contains { $0.code.rawValue == "CYD302" } == true, "\(Self.codes(reports))")
    }

    @Test("authors.json gets the catalogue's rules, and a path that is not there is an input error")
    func authorsAndMissing() throws {
        let folder = try TemporaryFolder()
        _ = try folder.write("authors.json", #"{"authors": [{"name": "alice"}, {"name": "alice"}]}"#)
        let reports = try Validation.check(path: folder.path("authors.json"))
        #expect(reports.first?.diagnostics.contains { $0.code.rawValue == "CYD901" } == true, "\(Self.codes(reports))")
        #expect {
            try Validation.check(path: folder.path("nothing"))
        } throws: { error in
            guard case Validation.InputError.unreadable(let input) = error else { return false }
            return input.description.contains("does not exist")
        }
    }

    @Test("bytes are checked as their name says; a translation against the story text handed in, as an editor has it")
    func bytes() throws {
        let story = Array(Self.story.json.utf8)
        #expect(Validation.check(bytes: story, path: "story.json")[0].diagnostics.contains { $0.code.rawValue == "CYD302" })
        let french = Array(Self.po([("start.text.1", "Go on, [[name]].", "Continue, [[name]]."), ("gone.title", "Gone", "Parti")], language: "fr").utf8)
        // Against the story: an id it does not have is reported; without it, only the file.
        let against = Validation.check(bytes: french, path: "fr.po", story: story, listed: ["fr"])[0].diagnostics.map(\.code.rawValue)
        #expect(against.contains("CYD161") && !against.contains("CYD167"), "\(against)")
        let alone = Validation.check(bytes: french, path: "fr.po")[0].diagnostics.map(\.code.rawValue)
        #expect(!alone.contains("CYD161"), "\(alone)")
        // Not listed in a LINGUAS that exists.
        #expect(Validation.check(bytes: french, path: "fr.po", story: story, listed: ["de"])[0].diagnostics.contains { $0.code.rawValue == "CYD167" })
    }
}
