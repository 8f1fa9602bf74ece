import Foundation
import StorySources
import TestSupport
import Testing

/// Where the stories that ship with cyd are found: beside or above the executable, or where
/// CYD_STORIES says; a folder without story.json is not a story.
@Suite("The bundled stories")
struct BundledStoriesTests {
    @Test("found above the executable or by CYD_STORIES, sorted, story folders only; titles with fallbacks")
    func found() throws {
        let folder = try TemporaryFolder()
        _ = try folder.write("checkout/Stories/b-tide/story.json", TestStory.twoChapters(title: "Tide").json)
        _ = try folder.write("checkout/Stories/a-gull/story.json", TestStory.twoChapters(title: "Gull").json)
        _ = try folder.write("checkout/Stories/notes/README.md", "not a story")
        _ = try folder.write("checkout/.build/debug/cyd", "")
        let found = BundledStories.folders(executablePath: folder.path("checkout/.build/debug/cyd"), environment: [:])
        #expect(found == [folder.path("checkout/Stories/a-gull"), folder.path("checkout/Stories/b-tide")])
        _ = try folder.write("elsewhere/x/story.json", TestStory.twoChapters().json)
        #expect(BundledStories.folders(executablePath: "/nowhere/cyd", environment: ["CYD_STORIES": folder.path("elsewhere")]) == [folder.path("elsewhere/x")])

        let gull = BundledStories.story(in: found[0])
        #expect(BundledStories.title(of: gull, in: found[0]) == "Gull")
        #expect(BundledStories.title(of: nil, in: found[0]) == "a-gull", "a story that cannot be read is named by its folder")
        #expect(BundledStories.chapterTitle("b", of: gull) == "Cliff")
        #expect(BundledStories.chapterTitle("gone", of: gull) == "gone")
    }
}
