import Foundation
import StoryCheck
import StoryFormat
import TestSupport
import Testing

/// The scan of every string runs on another thread while the rules that do not read it run.
/// What a check finds, and in what order, must not depend on which thread finishes first.
@Suite("The text scan beside the rules")
struct ConcurrentScanTests {
    /// A story with findings of the text rules (placeholder, control character, escape, bidi,
    /// control character in an id) and of the graph and reference rules between them.
    static let story: [UInt8] = {
        var chapters: [TestStory.Chapter] = [TestStory.Chapter("start", text: "Hello [[nmae]].", choices: [("c1", "On"), ("nowhere", "Off")], isFirst: true)]
        for index in 1...400 {
            let text = switch index % 5 {
            case 0: "Bell\u{07} rings [[nmae]]."
            case 1: "Escape \u{1B}[31m red."
            case 2: "Bidi \u{202E}reversed."
            case 3: "Plain text, with a ’curly’ quote."
            default: "Lost [[who]] and [[name]]."
            }
            let next = index < 400 ? [("c\(index + 1)", "On"), ("c\(index)x", "Astray")] : []
            chapters.append(TestStory.Chapter("c\(index)", text: text, choices: next, isEnding: index == 400))
        }
        chapters.append(TestStory.Chapter("orphan\u{07}", text: "Nobody comes here."))
        return TestStory(chapters: chapters).bytes
    }()

    @Test("fifty checks of one story give the same findings in the same order, with text findings among the others")
    func deterministic() throws {
        let first = Checker.check(bytes: Self.story, path: "story.json", options: CheckOptions())
        let codes = Set(first.flatMap(\.diagnostics).map(\.code.rawValue))
        for code in ["CYD701", "CYD703", "CYD704", "CYD705", "CYD305", "CYD302", "CYD501"] {
            #expect(codes.contains(code), "the story must have a finding of \(code); it has \(codes.sorted())")
        }
        let rendered = ReportFormat.json.render(first, style: .plain)
        for _ in 1...50 {
            #expect(ReportFormat.json.render(Checker.check(bytes: Self.story, path: "story.json", options: CheckOptions()), style: .plain) == rendered)
        }
    }

    /// The scan starts as soon as the tree is parsed, before the story is decoded, so it looks
    /// for placeholders in every string; keeping those of the chapter texts must leave exactly
    /// the chapter texts' placeholders (none from ids, targets or choice labels) and every other
    /// finding as it was.
    @Test("a scan started before decoding, kept to the chapter texts, finds the chapter texts' placeholders and nothing else changes")
    func earlyScan() throws {
        let story = TestStory(chapters: [
            TestStory.Chapter("[[id]]", text: "Hello [[name]], [[nmae]] \u{07}.", choices: [("[[target]]", "Go [[name]]")], isFirst: true),
            TestStory.Chapter("end", text: "Bye [[name]].", isEnding: true),
        ])
        let file = LoadedFile.load(story.bytes)
        let document = try #require(file.document)
        let textNodes = try #require(file.story).chapters.compactMap(\.textNode)
        let early = TextScan(document: document)
        // The id, and the title TestStory makes of it, hold one each.
        #expect(early.findings(of: .placeholder).map(\.placeholder) == ["id", "id", "name", "nmae", "target", "name", "name"])
        let kept = early.keepingPlaceholders(in: textNodes)
        #expect(kept.findings(of: .placeholder).map(\.placeholder) == ["name", "nmae", "name"])
        #expect(kept.findings(of: .placeholder).allSatisfy { textNodes.contains($0.node) })
        #expect(kept.findings.filter { $0.kind != .placeholder } == early.findings.filter { $0.kind != .placeholder })
        #expect(kept.findings(of: .control).count == 1)
        // And a whole check, which starts the scan early, reports the chapter texts' one unknown placeholder.
        let reported = Checker.check(bytes: story.bytes, path: "story.json").flatMap(\.diagnostics).filter { $0.code.rawValue == "CYD701" }
        #expect(reported.count == 1)
    }

    @Test("every rule that reads the text scan says so, so that it runs after the scan is started")
    func textReadersDeclareIt() throws {
        let rules = TestHTTPServer.packageRoot.appendingPathComponent("Sources/StoryCheck/Rules")
        let files = try #require(FileManager.default.enumerator(atPath: rules.path)?.allObjects as? [String]).filter { $0.hasSuffix(".swift") }
        var readers = 0
        for file in files {
            let source = try String(contentsOf: rules.appendingPathComponent(file), encoding: .utf8)
            guard source.contains("context.text") else { continue }
            readers += 1
            #expect(source.contains("static let readsTextScan = true"), "\(file) reads context.text without declaring readsTextScan")
        }
        #expect(readers == 5)
    }
}
