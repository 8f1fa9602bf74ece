import Foundation
import TestSupport
import Testing

@Suite("cyd validate reads pictures' headers (CYD608-610)")
struct PictureRulesTests {
    @Test("a huge picture, a picture cut short and a photo with its GPS position are each named, at the pic_path")
    func pictures() throws {
        let folder = try TemporaryFolder()
        let fixtures = Command.packageRoot.appendingPathComponent("Tests/Fixtures/pictures")
        try FileManager.default.createDirectory(atPath: folder.path("resources"), withIntermediateDirectories: true)
        for name in ["gps.jpg", "wide.png", "scene.png"] {
            try FileManager.default.copyItem(atPath: fixtures.appendingPathComponent(name).path, toPath: folder.path("resources/\(name)"))
        }
        let jpeg = try Data(contentsOf: fixtures.appendingPathComponent("scene.jpg"))
        try jpeg.prefix(40).write(to: URL(fileURLWithPath: folder.path("resources/cut.jpg")))
        try folder.write("README.md", "# Pictures\n\nFor #ChooseYourDestiny readers.\n")
        try folder.write("story.json", #"""
            { "story": { "id": "p", "name": "Pictures", "rating": "G", "summary": "s", "pic_path": "resources/scene.png",
              "chapters": [
                { "id": "a", "name": "A", "is_first_chapter": true, "text": "One.", "pic_path": "resources/gps.jpg", "choices": [ { "chapter_id": "b", "text": "On" } ] },
                { "id": "b", "name": "B", "text": "Two.", "pic_path": "resources/wide.png", "choices": [ { "chapter_id": "c", "text": "On" } ] },
                { "id": "c", "name": "C", "text": "Three.", "pic_path": "resources/cut.jpg", "choices": [ { "chapter_id": "d", "text": "On" } ] },
                { "id": "d", "name": "D", "text": "End.", "is_ending": true, "pic_path": "resources/gps.jpg" } ] } }
            """#)
        // The pictures' headers only: the note that none says what it shows (CYD611) is left out.
        let result = try Command.cyd(["validate", "--format", "json", "--ignore", "CYD611", folder.url.path])
        #expect(result.status == 0, "warnings only: \(result.standardOutput)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
        let files = report["files"] as? [[String: Any]] ?? []
        let codes = files.flatMap { ($0["diagnostics"] as? [[String: Any]] ?? []).compactMap { $0["code"] as? String } }
        #expect(codes.sorted() == ["CYD608", "CYD609", "CYD610"], "\(codes)")
        let text = try Command.cyd(["validate", folder.url.path]).standardOutput
        #expect(text.contains("picture 'resources/gps.jpg' carries the GPS position where it was taken (51°30′N 0°7′W)"), "\(text)")
        #expect(text.contains("story.json:3:"), "the finding points at the first chapter's pic_path: \(text)")
        #expect(text.contains("picture 'resources/wide.png' is 4104 x 16 pixels"), "\(text)")
        #expect(text.contains("picture 'resources/cut.jpg' cannot be read: the JPEG ends before its frame header"), "\(text)")
    }

    @Test("a FIFO named as a picture is said to be a FIFO (no case hint, no hang); a JPEG of 500 scans is named")
    func irregularAndManyScans() throws {
        let folder = try TemporaryFolder()
        try FileManager.default.createDirectory(atPath: folder.path("resources"), withIntermediateDirectories: true)
        #expect(mkfifo(folder.path("resources/pipe.jpg"), 0o644) == 0)
        try FileManager.default.copyItem(
            atPath: Command.packageRoot.appendingPathComponent("Tests/Fixtures/hostile-pictures/many-scans.jpg").path, toPath: folder.path("resources/scans.jpg"))
        try folder.write("README.md", "# Pictures\n\nFor #ChooseYourDestiny readers.\n")
        try folder.write("story.json", #"""
            { "story": { "id": "p", "name": "Pictures", "rating": "G", "summary": "s", "chapters": [
                { "id": "a", "name": "A", "is_first_chapter": true, "text": "One.", "pic_path": "resources/pipe.jpg", "choices": [ { "chapter_id": "b", "text": "On" } ] },
                { "id": "b", "name": "B", "text": "End.", "is_ending": true, "pic_path": "resources/scans.jpg" } ] } }
            """#)
        let text = try Command.cyd(["validate", folder.url.path]).standardOutput
        #expect(text.contains("names 'resources/pipe.jpg', which is a FIFO, not a file"), "\(text)")
        #expect(!text.contains("case-sensitive"), "\(text)")
        #expect(text.contains("picture 'resources/scans.jpg' is a progressive JPEG of at least 509 scans"), "\(text)")
    }
}
