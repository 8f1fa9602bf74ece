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

#if BrowserReader
/// A served POST is a writer too: on a full disk it says so and keeps the reader where they were;
/// killed in the middle of many, the library opens whole.
@Suite("cyd serve's writes under faults", .serialized)
struct ServeFaultTests {
    static func post(_ url: String, _ body: String) throws -> (status: Int, body: String) {
        let result = try ChildProcess.run(["curl", "-s", "-L", "-o", "-", "-w", "\n%{http_code}", "--max-time", "20", "--data", body, url])
        let lines = result.standardOutput.split(separator: "\n", omittingEmptySubsequences: false)
        return (Int(lines.last ?? "") ?? 0, lines.dropLast().joined(separator: "\n"))
    }

    @Test("on a full disk a choice is answered 'your place was not saved' with the reason; once space is freed the next choice is kept",
        .enabled(if: TmpfsMounts.available, "needs root to mount a tmpfs"))
    func fullDisk() throws {
        let mount = try FileSystemFaultTests.Mount(size: "6m")
        let library = mount.folder.path("library")
        #expect(try Command.cyd(["add", "--library", library, FileSystemFaultTests.sevenStairs]).status == 0)
        let server = try ServeTests.Server(["--library", library])
        defer { _ = server.stop() }
        let page = try ChildProcess.run(["curl", "-s", server.root + "stories/1"]).standardOutput
        let token = try #require(page.firstMatch(of: /name="token" value="([0-9a-f]+)"/)?.1)
        let begun = try Self.post(server.root + "stories/1/-/restart", "token=\(token)")
        #expect(begun.status == 200)
        _ = try Command.run(URL(fileURLWithPath: "/bin/dd"), ["if=/dev/zero", "of=\(mount.folder.path("filler"))", "bs=4k"])
        var refused = false
        for _ in 0..<3 {  // SQLite may find room for one page in the WAL; a few moves fill it
            let chosen = try Self.post(server.root + "stories/1/-/choose", "token=\(token)&choice=1")
            if chosen.status == 500 {
                #expect(chosen.body.contains("Your place was not saved") && chosen.body.contains("the disk is full"), "\(chosen.body)")
                #expect(!chosen.body.contains("SQLite"))
                refused = true
                break
            }
        }
        #expect(refused, "a choice on a full disk was said not to be saved")
        try FileManager.default.removeItem(atPath: mount.folder.path("filler"))
        let kept = try Self.post(server.root + "stories/1/-/choose", "token=\(token)&choice=1")
        #expect(kept.status == 200, "\(kept.body.prefix(400))")
        let list = try Command.cyd(["list", "--json", "--library", library])
        #expect(list.status == 0 && list.standardOutput.contains("\"progress\""), "\(list.standardOutput)")
    }

    @Test("killed (SIGKILL) while 64 POSTs are in flight, at four moments: the library opens whole and reading goes on")
    func killedDuringPosts() throws {
        let folder = try TemporaryFolder()
        let library = folder.path("library")
        #expect(try Command.cyd(["add", "--library", library, FileSystemFaultTests.sevenStairs]).status == 0)
        for delay in [0.0, 0.05, 0.2, 0.5] {
            let server = try ServeTests.Server(["--library", library])
            let page = try ChildProcess.run(["curl", "-s", server.root + "stories/1"]).standardOutput
            let token = try #require(page.firstMatch(of: /name="token" value="([0-9a-f]+)"/)?.1)
            // 64 POSTs from 8 curl processes at once (each keeps its connection).
            var clients: [ChildProcess] = []
            for _ in 0..<8 {
                var arguments = ["curl", "-s", "-o", "/dev/null", "--max-time", "10"]
                for number in 0..<8 { arguments += [server.root + "stories/1/-/" + (number % 3 == 0 ? "restart" : "choose"), "--data", "token=\(token)&choice=1"] }
                clients.append(try ChildProcess(arguments, takesInput: false, output: .discarded, errors: .discarded))
            }
            Thread.sleep(forTimeInterval: delay)
            server.child.signal(SIGKILL)
            _ = server.child.finish()
            for client in clients { _ = client.finish() }
            let list = try Command.cyd(["list", "--json", "--library", library])
            #expect(list.status == 0, "killed after \(delay) s: \(list.standardError)")
            let read = try Command.cyd(["read", "--library", library, "--plain", "1"], input: "1\nq\n")
            #expect(read.status == 0, "killed after \(delay) s: \(read.standardError)")
        }
    }
}
#endif
