import Foundation
import StoryFormat
import StoryInterchange
import TestSupport
import Testing

/// A large Twee file or archive is imported where it is mapped, and its pages are given back as
/// its passages become chapters: the file and the story are not both held whole.
@Suite("Importing a mapped file")
struct MappedImportTests {
    /// A story of about 17 MB as Twee or as an archive.
    static let story: Story = {
        let text = String(repeating: "The corridor goes on, lamp after lamp, and the floor hums. ", count: 60)
        let count = 4_700
        return Story(
            id: "corridor", name: "Corridor", rating: "G", summary: "Lamps",
            chapters: (0..<count).map { index in
                Chapter(
                    id: "c\(index)", name: "c\(index)", text: text, isFirstChapter: index == 0,
                    choices: index + 1 < count ? [Choice(chapterID: "c\(index + 1)", text: "On")] : [])
            })
    }()

    /// The file mapped, read front to back as the command line maps it.
    static func mapped(_ bytes: [UInt8], in folder: TemporaryFolder) throws -> SourceBytes {
        let path = try folder.write("story", bytes).path
        let fd = open(path, O_RDONLY)
        defer { close(fd) }
        let source = try #require(SourceBytes(mapping: fd, size: bytes.count))
        source.beginPass()
        return source
    }

    @Test("a mapped Twee file and a mapped archive give the story the bytes in memory give, and at most a few megabytes of either stay resident", arguments: ["twee", "archive"])
    func pagesGoBack(kind: String) throws {
        let folder = try TemporaryFolder()
        let bytes = kind == "twee" ? Array(try TweeStory.twee(Self.story).utf8) : try TwineArchive.htmlBytes(Self.story)
        #expect(bytes.count >= SourceBytes.mappingThreshold, "\(bytes.count) bytes: large enough to be mapped")
        let source = try Self.mapped(bytes, in: folder)
        let mapping = try #require(source.mapping)
        let imported = kind == "twee" ? TweeStory.story(from: source, placing: false) : TwineArchive.story(from: source, placing: false)
        let resident = try Residency.resident(mapping)
        #expect(resident < SourceBytes.step * 3, "\(resident) of \(mapping.length) bytes still resident after the import")
        let inMemory = kind == "twee" ? TweeStory.story(from: bytes, placing: false) : TwineArchive.story(from: bytes, placing: false)
        #expect(imported.story != nil && imported.story == inMemory.story)
        #expect(imported.story?.chapters == Self.story.chapters)
    }
}
