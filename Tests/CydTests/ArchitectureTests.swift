import Foundation
import Testing

/// The module graph as Package.swift declares it is the graph the code imports, and it flows
/// one way: storage below checking, sources above both, the CLI on top.
@Suite("Architecture")
struct ArchitectureTests {
    static let ours: Set<String> = ["StoryFormat", "LocalFiles", "StoryCheck", "StoryAnalysis", "Transport", "StoryStore", "StoryReader", "StorySources", "StorySync", "TerminalPictures"]

    /// Each target's dependencies on our own modules, from `swift package dump-package`.
    static func declared() throws -> [String: Set<String>] {
        // Its own scratch folder: `swift test` holds the lock on .build while this runs.
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("cyd-dump-package-\(getpid())").path
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let result = try Command.run(URL(fileURLWithPath: "/usr/bin/env"), ["swift", "package", "--scratch-path", scratch, "dump-package"])
        let package = try #require(try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
        var graph: [String: Set<String>] = [:]
        for target in package["targets"] as? [[String: Any]] ?? [] where target["type"] as? String == "regular" || target["type"] as? String == "executable" {
            let name = target["name"] as? String ?? ""
            let names = (target["dependencies"] as? [[String: Any]] ?? []).compactMap { ($0.values.first as? [Any])?.first as? String }
            graph[name] = Set(names).intersection(ours)
        }
        return graph
    }

    /// Each target's imports of our own modules, from its sources.
    static func imported(_ target: String) throws -> Set<String> {
        let folder = Command.packageRoot.appendingPathComponent("Sources/\(target)")
        var modules = Set<String>()
        for case let file as String in FileManager.default.enumerator(atPath: folder.path) ?? FileManager.default.enumerator(atPath: "/")! where file.hasSuffix(".swift") {
            let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
            for line in text.split(separator: "\n") where line.hasPrefix("import ") {
                let module = String(line.dropFirst("import ".count)).trimmingCharacters(in: .whitespaces)
                if ours.contains(module) { modules.insert(module) }
            }
        }
        return modules
    }

    @Test("Package.swift declares exactly the modules each target imports")
    func declaredAsImported() throws {
        let graph = try Self.declared()
        for target in Self.ours.union(["cyd"]) where FileManager.default.fileExists(atPath: Command.packageRoot.appendingPathComponent("Sources/\(target)").path) {
            #expect(try Self.imported(target) == graph[target] ?? [], "\(target)")
        }
    }

    @Test("dependencies flow one way: storage and reading know nothing of checking, sources or the network")
    func oneWay() throws {
        let graph = try Self.declared()
        #expect(graph["StoryFormat"] == [])
        #expect(graph["StoryStore"] == ["StoryFormat"])
        #expect(graph["StoryReader"] == ["StoryStore", "StoryFormat"])
        #expect(graph["StoryCheck"] == ["StoryFormat", "LocalFiles"])
        #expect(graph["StorySync"]?.contains("StorySources") == true)
        // Drawing pictures knows pixels and terminals' protocols, nothing of stories.
        #expect(graph["TerminalPictures"] == [])
    }
}
