import Foundation
import LibraryTestSupport
import StorySources
import StoryStore
import TestSupport
import Testing

/// What a STORY on the command line names, decided in one place for every command.
@Suite("What a story reference names")
struct StoryReferenceTests {
    @Test("a catalogue id is author/repository; paths and URLs are not")
    func shapes() {
        for id in ["alice/tide", "Alice/Tide.git-not-a-url"] { #expect(StoryReference.isCatalogueID(id), "\(id)") }
        for other in ["./alice/tide", "/alice/tide", "alice", "alice/tide/more", "alice/", "/tide", "https://example.com/a", "git@host:a/b.git"] {
            #expect(!StoryReference.isCatalogueID(other), "\(other)")
        }
        for url in ["https://example.com/tide/story.json", "HTTP://127.0.0.1:8/x", "git://127.0.0.1/tide.git"] { #expect(StoryReference.isURL(url), "\(url)") }
        #expect(!StoryReference.isURL("alice/tide"))
    }

    @Test("a library id or a source added before finds its story; a catalogue id the catalogue lacks fails in a typed way")
    func finding() throws {
        let fixture = try Fixture()
        let added = try fixture.add(storyJSON(Fixture.chain))
        #expect(try StoryReference.find(String(added.story.id), in: fixture.library)?.id == added.story.id)
        #expect(try StoryReference.find(fixture.storyFolder, in: fixture.library)?.id == added.story.id)
        #expect(try StoryReference.find("999", in: fixture.library) == nil)
        #expect(try StoryReference.find("alice/tide", in: fixture.library) == nil)
        #expect(try StoryReference.catalogueEntry("alice/tide", in: fixture.library) == nil)

        let importer = StoryImporter(library: fixture.library)
        #expect(try StoryReference.fetchUnstored(fixture.storyFolder, importer: importer) == nil, "a folder is read where it is, not fetched")
        #expect {
            try StoryReference.fetchUnstored("alice/tide", importer: importer)
        } throws: { error in
            guard case StoryReference.FetchFailure.notInCatalogue("alice/tide") = error else { return false }
            return true
        }
        #expect {
            try StoryReference.fetchUnstored("http://example.com/tide/story.json", importer: importer)
        } throws: { error in
            guard case StoryReference.FetchFailure.unrecognised(.plainHTTP) = error else { return false }
            return true
        }
    }
}
