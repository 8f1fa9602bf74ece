import Foundation
import LibraryTestSupport
import StorySources
import StoryStore
import TestSupport
import Testing

/// What a listing of the library holds (`cyd list` words it), and the language a stored story is
/// read in (`cyd read` and its --lang).
@Suite("The library listed, and the language a story is read in")
struct LibraryListingTests {
    @Test("each story with the reader's place and endings found; filtered by title or author, rating and id; no catalogue unless asked")
    func listing() throws {
        let fixture = try Fixture()
        let tide = try fixture.add(storyJSON(title: "Tide", id: "tide", Fixture.chain)).story
        let bundled = BundledStories.folders(in: TestHTTPServer.packageRoot.appendingPathComponent("Stories").path)
        let importer = StoryImporter(library: fixture.library)
        let gull = try importer.add(bundled.first { $0.hasSuffix("the-keeper-of-gull-rock") }!).story
        try fixture.library.saveProgress(Progress(chapterKey: "b", history: ["a"], updatedAt: 0), profile: "ana", story: tide, reachedEnding: false)

        let all = try LibraryListing(fixture.library, profile: "ana", filter: .init(), catalogue: false, everyEntry: false)
        #expect(all.stories.map(\.story.id).sorted() == [tide.id, gull.id].sorted())
        #expect(all.available.isEmpty)
        let shelvedTide = try #require(all.stories.first { $0.story.id == tide.id })
        #expect(shelvedTide.place == "Chapter b")
        #expect(all.stories.first { $0.story.id == gull.id }?.place == nil, "not started")
        #expect(shelvedTide.endingsFound == 0 && !shelvedTide.updateWaiting)

        #expect(try LibraryListing(fixture.library, profile: "ana", filter: .init(match: "TID"), catalogue: false, everyEntry: false).stories.map(\.story.id) == [tide.id])
        #expect(try LibraryListing(fixture.library, profile: "ana", filter: .init(rating: "x"), catalogue: false, everyEntry: false).stories.isEmpty)
        #expect(try LibraryListing(fixture.library, profile: "ana", filter: .init(ids: [gull.id]), catalogue: true, everyEntry: true).stories.map(\.story.id) == [gull.id])
    }

    @Test("the language asked for, else the environment's when the story has it; one asked for that it lacks is said with those it has")
    func language() throws {
        let fixture = try Fixture()
        let stairs = BundledStories.folders(in: TestHTTPServer.packageRoot.appendingPathComponent("Stories").path).first { $0.hasSuffix("seven-stairs") }!
        let record = try StoryImporter(library: fixture.library).add(stairs).story
        func choose(_ asked: String?, _ environment: [String: String] = [:]) throws -> ReadingLanguage {
            try ReadingLanguage.choose(asked, environment: environment, of: record, in: fixture.library)
        }
        guard case .translation(let french) = try choose("fr-CA") else { Issue.record("fr-CA reads fr"); return }
        #expect(french.language == "fr")
        guard case .translation = try choose(nil, ["LANG": "fr_FR.UTF-8"]) else { Issue.record("the environment's language"); return }
        #expect(try choose("original", ["LANG": "fr_FR.UTF-8"]) == .original)
        #expect(try choose(nil, ["LANG": "de_DE.UTF-8"]) == .original, "the environment's language the story lacks is passed over quietly")
        #expect(try choose("de") == .missing(requested: "de", available: ["fr"]))
    }

    @Test("the bundled stories go into an empty library only")
    func bundledIntoAnEmptyLibrary() throws {
        let fixture = try Fixture()
        let folders = BundledStories.folders(in: TestHTTPServer.packageRoot.appendingPathComponent("Stories").path)
        let importer = StoryImporter(library: fixture.library)
        #expect(try BundledStories.addAll(folders, toEmpty: importer) == folders.count)
        #expect(try BundledStories.addAll(folders, toEmpty: importer) == 0, "a library with stories is left as it is")
        #expect(try fixture.library.stories().count == folders.count)
    }
}
