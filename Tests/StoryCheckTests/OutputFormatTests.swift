import Foundation
import StoryFormat
import Testing

@testable import StoryCheck

@Suite("Output formats")
struct OutputFormatTests {
    /// A story with one error (missing target) and one warning (unreachable), on non-ASCII lines.
    static let story = #"""
        {
          "story": { "id": "s", "name": "Ünïcode 🦊", "rating": "G", "summary": "x",
            "chapters": [
              { "id": "a", "name": "Á", "text": "🦊🦊", "is_first_chapter": true, "choices": [
                { "chapter_id": "b", "text": "b" }, { "text": "🦊", "chapter_id": "ç" } ] },
              { "id": "b", "name": "B", "text": "b" },
              { "id": "c", "name": "C", "text": "c" }
            ] } }
        """#

    /// Line and column (in scalars) of the missing target, worked out from the text itself.
    static let target: (line: Int, column: Int) = {
        let lines = story.split(separator: "\n", omittingEmptySubsequences: false)
        let index = lines.firstIndex { $0.contains("\"ç\"") }!
        let line = lines[index]
        return (index + 1, line.unicodeScalars.distance(from: line.unicodeScalars.startIndex, to: line.range(of: "\"ç\"")!.lowerBound) + 1)
    }()

    func reports(path: String = "stories/tide/story.json") -> [FileReport] {
        Checker.check(bytes: Array(Self.story.utf8), path: path)
    }

    @Test("text: rustc-like, with the caret under the right columns")
    func text() {
        let output = ReportFormat.text.render(reports())
        #expect(output.contains("error[CYD302]: choice target 'ç' does not exist (missing-choice-target)"))
        #expect(output.contains("--> stories/tide/story.json:\(Self.target.line):\(Self.target.column)"))
        let lines = output.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let sourceLine = lines.first { $0.hasPrefix("\(Self.target.line) | ") }!
        let caretLine = lines[lines.firstIndex(of: sourceLine)! + 1]
        // Two foxes are two cells wide each: the caret accounts for that.
        let cellsBefore = sourceLine.dropFirst(4).prefix { $0 != "ç" }.unicodeScalars.reduce(0) { $0 + ($1.value == 0x1F98A ? 2 : 1) } - 1
        #expect(sourceLine.contains("🦊"))
        #expect(caretLine.dropFirst(4).prefix { $0 == " " }.count == cellsBefore)
        #expect(caretLine.contains("^^^"))
        #expect(output.contains("= help: add a chapter with this id"))
        #expect(output.contains("stories/tide/story.json: 1 error, 1 warning · 3 chapters · starts at 'a' · 1 ending reachable: 'b' · 1 unreachable"))
        #expect(!output.contains("\u{1B}"), "plain style has no colour codes")
        let marked = ReportFormat.text.render(reports(), style: TextStyle { part, text in "<\(part)>\(text)</>" })
        #expect(marked.contains("<error>error[CYD302]</>"), "the style says which part is which; the CLI picks the colours")
        #expect(marked.contains("<gutter>-->"))
    }

    @Test("text: escape sequences in the source line are shown visibly, and long lines are cut to a window")
    func textIsSafe() {
        let hostile = "{\"story\": {\"id\": \"\u{1B}]0;pwned\u{7}\"" + String(repeating: " ", count: 300) + ", \"x\": 1}}"
        let output = ReportFormat.text.render(Checker.check(bytes: Array(hostile.utf8), path: "s.json"))
        #expect(!output.contains("\u{1B}") && !output.contains("\u{7}"))
        #expect(output.contains("^[]0;pwned^G"))
        #expect(output.split(separator: "\n").allSatisfy { $0.count < 140 })
    }

    @Test("json: one object that parses, with positions and pointers")
    func json() throws {
        let output = ReportFormat.json.render(reports())
        let object = try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any])
        let files = try #require(object["files"] as? [[String: Any]])
        let diagnostics = try #require(files.first?["diagnostics"] as? [[String: Any]])
        let missing = try #require(diagnostics.first { $0["code"] as? String == "CYD302" })
        #expect(missing["severity"] as? String == "error")
        #expect(missing["line"] as? Int == Self.target.line && missing["column"] as? Int == Self.target.column)
        #expect(missing["endLine"] as? Int == Self.target.line && missing["endColumn"] as? Int == Self.target.column + 3)
        #expect(missing["pointer"] as? String == "/story/chapters/0/choices/1/chapter_id")
        #expect(missing["name"] as? String == "missing-choice-target")
        let summary = try #require(object["summary"] as? [String: Any])
        #expect(summary["errors"] as? Int == 1 && summary["warnings"] as? Int == 1 && summary["files"] as? Int == 1)
    }

    @Test("sarif: 2.1.0 with rule metadata and code-point columns")
    func sarif() throws {
        let output = ReportFormat.sarif.render(reports())
        let log = try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any])
        #expect(log["version"] as? String == "2.1.0")
        #expect((log["$schema"] as? String)?.contains("sarif-2.1.0") == true)
        let run = try #require((log["runs"] as? [[String: Any]])?.first)
        #expect(run["columnKind"] as? String == "unicodeCodePoints")
        let driver = try #require((run["tool"] as? [String: Any])?["driver"] as? [String: Any])
        let rules = try #require(driver["rules"] as? [[String: Any]])
        #expect(rules.count == RuleCatalogue.rules.count)
        let results = try #require(run["results"] as? [[String: Any]])
        let result = try #require(results.first { $0["ruleId"] as? String == "CYD302" })
        let index = try #require(result["ruleIndex"] as? Int)
        #expect(rules[index]["id"] as? String == "CYD302")
        #expect((rules[index]["defaultConfiguration"] as? [String: Any])?["level"] as? String == "error")
        let location = try #require((result["locations"] as? [[String: Any]])?.first?["physicalLocation"] as? [String: Any])
        #expect((location["artifactLocation"] as? [String: Any])?["uri"] as? String == "stories/tide/story.json")
        let region = try #require(location["region"] as? [String: Any])
        #expect(region["startLine"] as? Int == Self.target.line && region["startColumn"] as? Int == Self.target.column)
    }

    @Test("github: workflow commands with %, CR, LF, ':' and ',' escaped")
    func github() {
        #expect(GitHubReport.escapeData("100% done\r\nnext") == "100%25 done%0D%0Anext")
        #expect(GitHubReport.escapeProperty("a:b,c%\n") == "a%3Ab%2Cc%25%0A")
        let output = ReportFormat.github.render(reports(path: "odd: dir, 100%/story.json"))
        let lines = output.split(separator: "\n").map(String.init)
        #expect(lines.contains { $0.hasPrefix("::error file=odd%3A dir%2C 100%25/story.json,line=\(Self.target.line),col=\(Self.target.column),endColumn=\(Self.target.column + 3),title=CYD302 missing-choice-target::choice target 'ç' does not exist%0Ahelp: ") })
        #expect(lines.contains { $0.hasPrefix("::warning file=") })
        #expect(lines.last == "cyd: 1 error, 1 warning in 1 file")
    }

    @Test("select and ignore take codes, rule names and categories")
    func filtering() {
        let bytes = Array(Self.story.utf8)
        func codes(_ options: CheckOptions) -> [String] {
            Checker.check(bytes: bytes, path: "s.json", options: options).flatMap(\.diagnostics).map(\.code.rawValue)
        }
        #expect(codes(.init()) == ["CYD302", "CYD501"])
        #expect(codes(.init(select: ["graph"])) == ["CYD501"])
        #expect(codes(.init(ignore: ["missing-choice-target"])) == ["CYD501"])
        #expect(codes(.init(ignore: ["cyd501"])) == ["CYD302"])
    }
}
