@testable import StoryCheck
import StoryFormat
import Testing

/// The index of chapter ids behind "did you mean" (a sort of every id, forwards and backwards)
/// is made only for the rule that suggests: a check that leaves CYD302 out does not pay for it.
@Suite("Suggestions made only when asked for")
struct SuggestionStartTests {
    static let story = Array(
        """
        { "story": { "name": "Cellar", "rating": "G", "summary": "s", "chapters": [
          { "id": "door", "name": "Door", "text": "A door.", "is_first_chapter": true,
            "choices": [ { "chapter_id": "celar", "text": "Go down" } ] },
          { "id": "cellar", "name": "Cellar", "text": "Dark." } ] } }
        """.utf8)

    static func check(_ options: CheckOptions) -> (CheckContext, [FileReport]) {
        let file = LoadedFile.load(story)
        let context = CheckContext(path: "story.json", file: file, folder: nil)
        let reports = Checker.check(file, source: file.document!.bytes, path: "story.json", folder: nil, options: options, context: context)
        return (context, reports)
    }

    @Test("with CYD302 left out, a missing target starts no index; with it, the finding suggests the nearest id")
    func onlyForTheRule() {
        let (ignoring, quiet) = Self.check(CheckOptions(ignore: ["CYD302"]))
        #expect(ignoring.graph?.missingTargets.isEmpty == false)
        #expect(!ignoring.startedIDSuggestions)
        #expect(!quiet.flatMap(\.diagnostics).contains { $0.code.rawValue == "CYD302" })
        let (checking, reports) = Self.check(CheckOptions())
        #expect(checking.startedIDSuggestions)
        let missing = reports.flatMap(\.diagnostics).filter { $0.code.rawValue == "CYD302" }
        #expect(missing.count == 1 && (missing.first.map { ($0.help ?? "") + $0.message }?.contains("cellar") ?? false), "\(missing.map(\.help))")
    }
}
