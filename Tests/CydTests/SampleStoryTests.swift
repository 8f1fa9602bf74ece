import Foundation
import Testing

@Suite("The bundled stories")
struct SampleStoryTests {
    static let stories: [String] = ((try? FileManager.default.contentsOfDirectory(
        atPath: Command.packageRoot.appendingPathComponent("Stories").path)) ?? []).sorted()

    @Test("there are at least three, one of them 30 chapters or more")
    func enough() throws {
        #expect(Self.stories.count >= 3)
        let counts = try Self.stories.map { story in
            let data = try Data(contentsOf: Command.packageRoot.appendingPathComponent("Stories/\(story)/story.json"))
            let root = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
            return ((root["story"] as? [String: Any])?["chapters"] as? [Any])?.count ?? 0
        }
        #expect(counts.max() ?? 0 >= 30)
    }

    @Test("each validates clean with --strict, as a folder with its README and pictures", arguments: stories)
    func validatesClean(story: String) throws {
        let result = try Command.cyd(["validate", "--strict", "Stories/\(story)"])
        #expect(result.status == 0, "\(result.standardOutput)")
        #expect(result.standardOutput.contains("no problems"))
        let text = try String(contentsOf: Command.packageRoot.appendingPathComponent("Stories/\(story)/story.json"), encoding: .utf8)
        #expect(text.contains("[[name]]"), "uses the reader's name")
        #expect(text.contains("\"pic_path\""), "has pictures")
    }
}
