import Foundation
import StoryAnalysis
import Testing

/// `cyd graph --format svg` hands its map to Graphviz's dot through `GraphvizDrawing`: a real
/// dot draws; a missing, failing or endless one ends in a typed failure, in time.
@Suite("Drawing a map with Graphviz's dot")
struct GraphvizDrawingTests {
    /// A folder holding a `dot` that runs `script`, for PATH.
    func fakeDot(_ script: String) throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("cyd-dot-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: folder + "/dot", contents: Data("#!/bin/sh\n\(script)\n".utf8), attributes: [.posixPermissions: 0o755])
        return folder
    }

    /// `GraphvizDrawing.svg` with a fake dot just written: it may not start at once ("text file
    /// busy": a process another test starts meanwhile holds the file open as it was written, until
    /// that process runs its own program), so starting it is tried up to five times, 0.1 s apart.
    func svg(_ dot: String, timeLimit: Double, path: String, whenSlow: () -> Void = {}) throws(GraphvizDrawing.Failure) -> String {
        var attempt = 0
        while true {
            do {
                return try GraphvizDrawing.svg(dot, timeLimit: timeLimit, environment: ["PATH": path], whenSlow: whenSlow)
            } catch .cannotStart where attempt < 4 {
                attempt += 1
                usleep(100_000)
            }
        }
    }

    @Test("Graphviz's own dot draws a map as SVG")
    func draws() throws {
        let svg = try GraphvizDrawing.svg("digraph { a -> b }", timeLimit: 30)
        #expect(svg.contains("<svg") && svg.contains(">a</text>"), "\(svg.prefix(300))")
    }

    @Test("no dot, a dot that fails, one killed by a signal and one that never ends: each a failure of its own")
    func failures() throws {
        #expect(throws: GraphvizDrawing.Failure.notInstalled) { try GraphvizDrawing.svg("digraph {}", timeLimit: 5, environment: ["PATH": "/nonexistent"]) }

        let failing = try fakeDot("cat >/dev/null; echo 'syntax error in line 1' >&2; exit 3")
        defer { try? FileManager.default.removeItem(atPath: failing) }
        #expect(throws: GraphvizDrawing.Failure.failed(signal: nil, status: 3, said: "syntax error in line 1")) {
            try svg("digraph {", timeLimit: 10, path: failing)
        }

        let killed = try fakeDot("kill -9 $$")
        defer { try? FileManager.default.removeItem(atPath: killed) }
        #expect(throws: GraphvizDrawing.Failure.failed(signal: 9, status: 9, said: "")) {
            try svg("digraph {}", timeLimit: 10, path: killed)
        }

        // A dot that neither reads nor ends: stopped at the limit, with the slow notice once.
        let endless = try fakeDot("exec sleep 60")
        defer { try? FileManager.default.removeItem(atPath: endless) }
        let started = Date()
        var told = 0
        #expect(throws: GraphvizDrawing.Failure.timedOut(seconds: 2.5)) {
            try svg(String(repeating: "a -> b;\n", count: 200_000), timeLimit: 2.5, path: endless) { told += 1 }
        }
        #expect(Date().timeIntervalSince(started) < 10)
        #expect(told == 1)
    }
}
