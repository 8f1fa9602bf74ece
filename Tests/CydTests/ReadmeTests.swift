import Foundation
import Testing

/// The README is a front page: the two commands, a short tour for each kind of user, and links to
/// the guides in docs/. These hold it to that, and hold the guides to the program.
@Suite("README and docs")
struct ReadmeTests {
    static func text(_ path: String) throws -> String {
        try String(contentsOf: Command.packageRoot.appendingPathComponent(path), encoding: .utf8)
    }

    @Test("the rule table in docs/rules.md is exactly what cyd rules --markdown prints")
    func ruleTable() throws {
        let rules = try Self.text("docs/rules.md")
        let table = try Command.cyd(["rules", "--markdown"]).standardOutput
        #expect(!table.isEmpty)
        #expect(rules.contains(table), "run `cyd rules --markdown` and paste it into docs/rules.md")
    }

    @Test("CI runs exactly the README's test command")
    func ciRunsTheReadmeCommand() throws {
        let readme = try Self.text("README.md")
        let ci = try Self.text(".ci/run")
        let lines = readme.split(separator: "\n")
        let comment = try #require(lines.firstIndex { $0.hasPrefix("# the tests") }, "the README names its test command")
        let command = lines[comment + 1]
        #expect(command.hasPrefix("scripts/install-deps.sh && "))
        #expect(ci.split(separator: "\n").contains(command), ".ci/run must run: \(command)")
    }

    @Test("the README is a front page of at most 250 lines, and links every guide in docs/")
    func frontPage() throws {
        let readme = try Self.text("README.md")
        #expect(readme.split(separator: "\n", omittingEmptySubsequences: false).count <= 250)
        let guides = try FileManager.default.contentsOfDirectory(atPath: Command.packageRoot.appendingPathComponent("docs").path)
            .filter { $0.hasSuffix(".md") }
        #expect(guides.count >= 8)
        for guide in guides {
            #expect(readme.contains("(docs/\(guide))"), "the README links docs/\(guide)")
        }
    }

    @Test("every relative link in the README and the guides leads to a file that exists")
    func linksResolve() throws {
        let root = Command.packageRoot
        let docs = try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("docs").path)
            .filter { $0.hasSuffix(".md") }.map { "docs/" + $0 }
        for page in ["README.md"] + docs {
            let text = try Self.text(page)
            let folder = (page as NSString).deletingLastPathComponent
            var rest = text[...]
            while let open = rest.range(of: "](") {
                guard let close = rest[open.upperBound...].firstIndex(of: ")") else { break }
                let target = String(rest[open.upperBound..<close]).split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)[0]
                rest = rest[close...]
                if target.isEmpty || target.contains("://") { continue }
                let path = folder.isEmpty ? String(target) : folder + "/" + target
                #expect(FileManager.default.fileExists(atPath: root.appendingPathComponent(path).path), "\(page) links \(target), which does not exist")
            }
        }
    }
}
