import Foundation
import StoryFormat
import TestSupport
import Testing

@testable import StoryCheck

@Suite("Findings point at causes")
struct CauseFirstTests {
    static let sevenStairs = TestHTTPServer.packageRoot.appendingPathComponent("Stories/seven-stairs/story.json")

    @Test("a chapter renamed to another's id gives the duplicate and the choices it broke, nothing downstream")
    func duplicatedID() throws {
        let text = try String(contentsOf: Self.sevenStairs, encoding: .utf8)
        let renamed = text.replacingOccurrences(of: #""id": "call""#, with: #""id": "window""#)
        #expect(renamed != text)
        let codes = Checker.check(bytes: Array(renamed.utf8), path: "story.json")[0].diagnostics.map(\.code.rawValue)
        #expect(Set(codes) == ["CYD301", "CYD302"], "\(codes)")
        #expect(!codes.contains("CYD501") && !codes.contains("CYD502"))
    }

    @Test("errors come before warnings, each in file order")
    func errorsFirst() {
        let story = #"""
            { "story": { "id": "s", "name": "S", "rating": "G", "summary": "x", "colour": "blue",
              "chapters": [ { "id": "a", "name": "A", "text": "A", "is_first_chapter": true, "choices": [ { "chapter_id": "zz", "text": "On" } ] },
                            { "id": "lost", "name": "L", "text": "L" } ] } }
            """#
        let found = Checker.check(bytes: Array(story.utf8), path: "story.json")[0].diagnostics
        let severities = found.map(\.severity)
        #expect(severities == severities.sorted(by: >))
        #expect(Set(found.prefix(2).map(\.code.rawValue)) == ["CYD502", "CYD302"], "the errors")
        #expect(Set(found.dropFirst(2).map(\.code.rawValue)) == ["CYD204", "CYD501"], "then the warnings, though the unknown key comes first in the file")
    }

    @Test("text shows a flood of one rule up to the cap and counts the rest; json keeps every finding")
    func floodCap() throws {
        let chapters = (0..<120).map { #"{ "id": "lost\#($0)", "name": "L", "text": "L" }"# }.joined(separator: ",\n")
        let story = #"{ "story": { "id": "s", "name": "S", "rating": "G", "summary": "x", "chapters": [ { "id": "a", "name": "A", "text": "A", "is_first_chapter": true },"#
            + chapters + "] } }"
        let reports = Checker.check(bytes: Array(story.utf8), path: "story.json")
        let text = ReportFormat.text.render(reports, maximumPerRule: 50)
        #expect(text.components(separatedBy: "warning[CYD501]").count - 1 == 50)
        #expect(text.contains("… and 70 more findings of CYD501 (unreachable-chapter) in story.json, not shown"))
        let json = try JSONSerialization.jsonObject(with: Data(ReportFormat.json.render(reports, maximumPerRule: 50).utf8)) as! [String: Any]
        let files = json["files"] as! [[String: Any]]
        #expect((files[0]["diagnostics"] as! [Any]).count == 120)
        #expect(ReportFormat.text.render(reports).components(separatedBy: "warning[CYD501]").count - 1 == 120)
    }

    @Test("a report cut at so many findings a rule places only those it shows, at the places the whole report gives them, and counts the rest per rule")
    func cutReportPlacesWhatItShows() {
        let lost = (0..<40).map { #"{ "id": "lost\#($0)", "name": "L", "text": "L" }"# }
        let broken = (0..<30).map { #"{ "id": "b\#($0)", "name": "B", "text": "B", "choices": [ { "chapter_id": "nowhere\#($0)", "text": "On" } ] }"# }
        let story = #"{ "story": { "id": "s", "name": "S", "rating": "G", "summary": "x", "chapters": [ { "id": "a", "name": "A", "text": "A", "is_first_chapter": true },"#
            + (lost + broken).joined(separator: ",\n") + "] } }"
        let report = Checker.check(bytes: Array(story.utf8), path: "story.json")[0]
        let whole = ResolvedReport(report)
        let cut = ResolvedReport(report, atMostPerRule: 5)
        var kept: [String: Int] = [:]
        let expected = whole.diagnostics.filter { item in
            kept[item.diagnostic.code.rawValue, default: 0] += 1
            return kept[item.diagnostic.code.rawValue]! <= 5
        }
        #expect(cut.diagnostics.count == expected.count && expected.count < whole.diagnostics.count)
        #expect(cut.diagnostics.map(\.diagnostic.message) == expected.map(\.diagnostic.message))
        #expect(cut.diagnostics.map(\.start) == expected.map(\.start) && cut.diagnostics.map(\.end) == expected.map(\.end))
        #expect(cut.diagnostics.map(\.lineStart) == expected.map(\.lineStart))
        let counted = Dictionary(uniqueKeysWithValues: cut.leftOut.map { ($0.code.rawValue, $0.count) })
        #expect(counted == kept.filter { $0.value > 5 }.mapValues { $0 - 5 }, "\(cut.leftOut)")
        #expect(whole.leftOut.isEmpty)
    }

    @Test("findings a rule makes beside the rules after it come after its own, in the order it made them, once the checker settles them")
    func findingsMadeBeside() throws {
        let document = try #require(LoadedFile.load(Array(#"{ "a": "x", "b": "y" }"#.utf8)).document)
        var findings = Findings(code: DiagnosticCode(rawValue: "CYD302"), document: document)
        findings.add("first", at: 0)
        findings.addBeside { $0.add("second", at: 0); $0.add("third", at: 0) }
        findings.addBeside { $0.add("fourth", at: 0) }
        #expect(findings.diagnostics.map(\.message) == ["first"])
        findings.settle()
        #expect(findings.diagnostics.map(\.message) == ["first", "second", "third", "fourth"])
        #expect(findings.diagnostics.allSatisfy { $0.code.rawValue == "CYD302" && $0.range == document.range(0) })
    }

    @Test("a string full of escape or bidi characters is one finding each, with a count, at the first")
    func oneFindingPerString() {
        let flood = String(repeating: #"\u001b[31m\u202E"#, count: 500)
        let story = #"""
            { "story": { "id": "s", "name": "S", "rating": "G", "summary": "x",
              "chapters": [ { "id": "a", "name": "A", "text": "\#(flood)", "is_first_chapter": true, "choices": [ { "chapter_id": "b", "text": "\u001bOn" } ] },
                            { "id": "b", "name": "B", "text": "End." } ] } }
            """#
        let diagnostics = Checker.check(bytes: Array(story.utf8), path: "story.json")[0].diagnostics
        let escapes = diagnostics.filter { $0.code.rawValue == "CYD704" }
        #expect(escapes.map(\.message) == [
            "terminal escape character U+001B in text and 499 more in the same string", "terminal escape character U+001B in text",
        ])
        #expect(diagnostics.filter { $0.code.rawValue == "CYD705" }.map(\.message) == ["bidirectional control U+202E in text and 499 more in the same string"])
    }

    @Test("ids with a NUL or an escape character are errors, and such a story has no model to store")
    func controlCharactersInIDs() throws {
        let story = #"""
            { "story": { "id": "s", "name": "S", "rating": "G", "summary": "x",
              "chapters": [ { "id": "a\u0000x", "name": "A", "text": "A", "is_first_chapter": true, "choices": [ { "chapter_id": "a\u0000y", "text": "On" } ] },
                            { "id": "a\u0000y", "name": "B", "text": "B\u0007" } ] } }
            """#
        let report = Checker.check(bytes: Array(story.utf8), path: "story.json")[0]
        #expect(report.diagnostics.filter { $0.code.rawValue == "CYD305" }.count == 3)
        #expect(report.diagnostics.filter { $0.code.rawValue == "CYD703" }.count == 1, "the bell in text stays a text warning")
        #expect(report.diagnostics.allSatisfy { $0.code.rawValue != "CYD302" }, "the ids differ after the NUL, so the target exists")
        #expect(LoadedFile.load(Array(story.utf8)).story?.model() == nil)
    }
}
