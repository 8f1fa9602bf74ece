import Foundation
import TestSupport
import Testing

#if BrowserReader
/// `cyd serve` at the edges an independent review reached (Tests/Support/serve_edges.py): hidden
/// values with control characters, ids that are dot-segments, HEAD, HTTP/1.0, absolute-form
/// targets, two Host headers, a profile cookie planted from another port, and readers that never
/// read a large chapter.
@Suite("cyd serve at the edges")
struct ServeEdgeTests {
    /// A story whose first chapter leads, in order, to the ids a path or a form mangles, and to a
    /// chapter of 3 MB.
    static func edgeStory(_ folder: TemporaryFolder) throws -> String {
        let ids = ["tab\there", "..", ".", "-", "~x", "big"]
        var chapters: [[String: Any]] = [[
            "id": "start", "name": "Start", "is_first_chapter": true, "text": "Begin.",
            "choices": ids.map { ["chapter_id": $0, "text": "to " + $0] },
        ]]
        for id in ids {
            let text = id == "big" ? String(repeating: "A long night. ", count: 220_000) : "Here: " + id
            chapters.append(["id": id, "name": "Chapter '\(id)'", "text": text, "choices": [["chapter_id": "start", "text": "again"]]])
        }
        let story: [String: Any] = ["story": ["id": "edge", "name": "Edges", "rating": "G", "summary": "ids at the edge", "chapters": chapters]]
        let data = try JSONSerialization.data(withJSONObject: story)
        return try folder.write("edges/story.json", [UInt8](data)).deletingLastPathComponent().path
    }

    @Test("hidden values come back exactly, every id has an address, HEAD, HTTP/1.0 closes, absolute-form and two Host headers refused, a planted profile cookie ignored; 200 readers that never read hold little memory")
    func edges() throws {
        let folder = try TemporaryFolder()
        let library = folder.path("library")
        let added = try Command.cyd(["add", "--library", library, try Self.edgeStory(folder)])
        #expect(added.status == 0, "\(added.standardError)")
        let server = try ServeTests.Server(["--library", library])
        defer { _ = server.stop() }
        let script = Command.packageRoot.path + "/Tests/Support/serve_edges.py"
        // Memory first: the edges add a second profile, after which a browser is asked who reads.
        let memory = try ChildProcess.run(["python3", script, "memory", server.root, "1", String(server.child.pid)], in: folder.url.path)
        #expect(memory.status == 0, "\(memory.standardOutput)\n\(memory.standardError)")
        #expect(memory.standardOutput.contains("all passed"))
        let edges = try ChildProcess.run(["python3", script, "edges", server.root, "1"], in: folder.url.path)
        #expect(edges.status == 0, "\(edges.standardOutput)\n\(edges.standardError)")
        #expect(edges.standardOutput.contains("all passed"))
    }
}
#endif
