import Foundation
import StoryFormat
import StoryReader
import StorySources
import StoryStore
import LibraryTestSupport
import TestSupport
import Testing

@Suite("The library under faults")
struct LibraryFaultTests {
    @Test("a reader whose story was removed and forgotten stops writing for it, and says so")
    func removedWhileReading() throws {
        let fixture = try Fixture()
        try fixture.add(storyJSON(Fixture.chain))
        let story = try fixture.library.stories().first!
        let reader = try ReadingSession(library: fixture.library, story: story, profile: "ana", firstName: "Ana")
        try reader.begin()
        try reader.choose(1)
        try fixture.library.remove(story, forgetProgress: true)

        #expect(throws: LibraryError.storyRemoved(title: story.title)) { try reader.addNote("still here?") }
        #expect(throws: LibraryError.storyRemoved(title: story.title)) { try reader.bookmark("mark") }
        #expect(throws: LibraryError.self) { try reader.choose(1) }
        // Added again: nothing of the forgotten reading came back.
        try fixture.add(storyJSON(Fixture.chain))
        let again = try fixture.library.stories().first!
        #expect(try fixture.library.notes(profile: "ana", story: again).isEmpty)
        #expect(try fixture.library.bookmarks(profile: "ana", story: again).isEmpty)
        #expect(try fixture.library.progress(profile: "ana", story: again) == nil)
    }

    @Test("a library without an absolute home is an error naming CYD_HOME and no flag of cyd's")
    func noHome() throws {
        for home: String? in [nil, "", "relative/home"] {
            var environment: [String: String] = [:]
            environment["HOME"] = home
            #expect {
                _ = try LibraryLocation.resolve(environment: environment)
            } throws: { error in
                (error as? LibraryError) == .noHome(home: home) && "\(error)".contains("set CYD_HOME or choose a library folder")
                    && !"\(error)".contains("--")
            }
        }
        #expect(try LibraryLocation.resolve(environment: ["HOME": "/home/ana"]).dataDirectory == "/home/ana/.local/share/chooseyourdestiny")
        #expect(try LibraryLocation.resolve(environment: ["CYD_HOME": "lib"]).dataDirectory.hasPrefix("/"), "made absolute once")
        #expect(try LibraryLocation.resolve(environment: ["XDG_DATA_HOME": "/d", "XDG_CACHE_HOME": "/c"]).cacheDirectory == "/c/chooseyourdestiny")
    }

    @Test("two files in one folder are two stories; another story under a source needs replace")
    func sourcesDoNotCollide() throws {
        let fixture = try Fixture()
        let folder = fixture.storyFolder
        try fixture.write(storyJSON(title: "First", id: "first", [("a", ["b"]), ("b", [])]), name: "a.json")
        try fixture.write(storyJSON(title: "Second", id: "second", [("x", [])]), name: "b.json")
        let first = try fixture.library.importFolder(folder + "/a.json")
        let second = try fixture.library.importFolder(folder + "/b.json")
        #expect(first.change == .added && second.change == .added)
        #expect(first.story.id != second.story.id)
        #expect(try fixture.library.stories().map(\.title).sorted() == ["First", "Second"])

        // The same file now holds another story: refused, nothing changed, unless replace.
        try fixture.write(storyJSON(title: "Second", id: "second", [("x", [])]), name: "a.json")
        #expect {
            _ = try fixture.library.importFolder(folder + "/a.json")
        } throws: { error in
            guard case SourceError.library(.differentStory(let old, _, let new, _)) = error else { return false }
            return old == "First" && new == "Second"
        }
        #expect(try fixture.library.story(id: first.story.id)?.title == "First")
        let replaced = try fixture.library.importFolder(folder + "/a.json", replace: true)
        #expect(replaced.change == .updated && replaced.story.id == first.story.id && replaced.story.title == "Second")
    }
}
