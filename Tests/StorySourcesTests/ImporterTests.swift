import Foundation
import LibraryTestSupport
import StoryCheck
import StorySources
import StoryStore
import TestSupport
import Testing

@Suite("The importer: reading, checking and storing composed")
struct ImporterTests {
    @Test("a folder's version is the hash of its story file, though the hash is found on another core")
    func versionIsTheContentHash() throws {
        let fixture = try Fixture()
        let json = storyJSON(Fixture.chain)
        try fixture.write(json)
        let fetched = try Sources.fetch(Sources.recognise(fixture.storyFolder), in: StoryImporter(library: fixture.library).context)
        #expect(fetched.version == contentVersion(Array(json.utf8)))
        #expect(fetched.version == fetched.version, "asked twice, the answer is the same")
        let added = try fixture.library.importFolder(fixture.storyFolder)
        #expect(added.story.version == contentVersion(Array(json.utf8)))
        #expect(try fixture.library.importFolder(fixture.storyFolder).change == .unchanged)
    }

    @Test("a folder's translation is read where it is: its French stored, its hash in the version; one linked from outside the folder is said and left out")
    func translationOfAFolder() throws {
        let fixture = try Fixture()
        let json = storyJSON(Fixture.chain)
        try fixture.write(json)
        let po = "msgid \"\"\nmsgstr \"Language: fr\\n\"\n\n#. id: story.name\nmsgctxt \"story\"\nmsgid \"Tide\"\nmsgstr \"Marée\"\n"
        let translations = URL(fileURLWithPath: fixture.storyFolder).appendingPathComponent("translations")
        try FileManager.default.createDirectory(at: translations, withIntermediateDirectories: true)
        try Data(po.utf8).write(to: translations.appendingPathComponent("fr.po"))
        let added = try fixture.library.importFolder(fixture.storyFolder)
        #expect(added.story.version == contentVersion(Array(json.utf8)) + "+" + contentVersion(Array(contentVersion(Array(po.utf8)).utf8)))
        #expect(try fixture.library.languages(of: added.story).map { [$0.language, $0.title] } == [["fr", "Marée"]])

        // The same file outside the folder, reached through a link: refused, as pictures are.
        let outside = fixture.folder.appendingPathComponent("elsewhere.po")
        try Data(po.utf8).write(to: outside)
        try FileManager.default.removeItem(at: translations.appendingPathComponent("fr.po"))
        try FileManager.default.createSymbolicLink(at: translations.appendingPathComponent("fr.po"), withDestinationURL: outside)
        let linked = try fixture.library.importFolder(fixture.storyFolder)
        let said = linked.reports.flatMap(\.diagnostics).filter { $0.code == .translationUnreadable }
        #expect(said.count == 1 && said[0].message.contains("outside"), "\(said.map(\.message))")
        #expect(try fixture.library.languages(of: linked.story).isEmpty)
    }

    @Test("the checker's findings come back with a stored story, as they did when checking came first")
    func findingsWithTheStory() throws {
        let fixture = try Fixture()
        // A choice to a chapter that does not exist (CYD302) and an unknown placeholder (CYD701)
        // do not stop a story from being stored; they are reported.
        let result = try fixture.add(storyJSON([("a", ["b", "nowhere"]), ("b", [])], text: "Hello, [[nmae]]."))
        let codes = Set(result.reports.flatMap(\.diagnostics).map(\.code.rawValue))
        #expect(codes.contains("CYD302"))
        #expect(codes.contains("CYD701"))
        #expect(result.change == .added)
        #expect(result.story.chapterCount == 2)
        #expect(result.reports.allSatisfy { $0.bytes.count > 0 }, "findings are shown with their lines: the report keeps the file")
    }

    @Test("a clean story's report keeps none of its bytes: the story file is let go before its translations are read beside it")
    func cleanReportHoldsNoBytes() throws {
        let fixture = try Fixture()
        let result = try fixture.add(storyJSON(Fixture.chain))
        #expect(result.reports.flatMap(\.diagnostics).isEmpty)
        #expect(!result.reports.isEmpty && result.reports.allSatisfy { $0.bytes.count == 0 })
    }

    @Test("a story with no first chapter is refused with the checker's findings, and nothing is stored")
    func noFirstChapter() throws {
        let fixture = try Fixture()
        var story = TestStory.twoChapters()
        story.chapters[0].isFirst = false
        #expect {
            try fixture.add(story.json)
        } throws: { error in
            guard case SourceError.unreadable(let reports) = error else { return false }
            return reports.flatMap(\.diagnostics).contains { $0.severity == .error }
        }
        #expect(try fixture.library.stories().isEmpty)
    }

    @Test("eight imports at once all finish: each check waits for its own text scan on a thread of its own, not for a slot in a shared pool")
    func manyAtOnce() throws {
        let fixture = try Fixture()
        var folders: [String] = []
        for index in 0..<8 {
            let folder = fixture.folder.appendingPathComponent("story\(index)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try Data(storyJSON(id: "s\(index)", Fixture.chain, text: "Hello [[nmae]], \u{1B}[31m.").utf8).write(to: folder.appendingPathComponent("story.json"))
            folders.append(folder.path)
        }
        let results = Results()
        let library = fixture.library
        let paths = folders
        DispatchQueue.concurrentPerform(iterations: paths.count) { index in
            let result = Result { () throws(SourceError) in try StoryImporter(library: library).add(paths[index]) }
            results.append(result.map { $0.reports.flatMap(\.diagnostics).count })
        }
        #expect(results.values.count == 8)
        for result in results.values {
            #expect(try result.get() >= 2, "each import reports its placeholder and escape findings")
        }
        #expect(try fixture.library.stories().count == 8)
    }
}

private final class Results: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [Result<Int, SourceError>] = []
    func append(_ result: Result<Int, SourceError>) { lock.withLock { stored.append(result) } }
    var values: [Result<Int, SourceError>] { lock.withLock { stored } }
}
