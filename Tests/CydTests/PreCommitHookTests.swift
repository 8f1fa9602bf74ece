import Foundation
import TestSupport
import Testing

/// The project's own pre-commit hook (.pre-commit-hooks.yaml, language: swift), run for real:
/// a story repository's .pre-commit-config.yaml names this repository at its HEAD commit, and
/// pre-commit clones it, builds cyd with `swift build -c release` and runs it. Both runs share
/// one PRE_COMMIT_HOME, so cyd is built once (`pre-commit try-repo` would build it for each
/// run: it keeps no store); the folder is removed afterwards. The release build takes minutes:
/// the test waits for it suspended (`Command.runDetached`), not holding a thread of the pool
/// the other tests run on.
@Suite struct PreCommitHookTests {
    @Test func theHookFailsABrokenStoryAndPassesItOnceFixed() async throws {
        let story = FileManager.default.temporaryDirectory.appendingPathComponent("cyd-hook-\(UUID().uuidString)")
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("cyd-pre-commit-home-\(UUID().uuidString)")
        defer {
            try? FileManager.default.removeItem(at: story)
            try? FileManager.default.removeItem(at: home)
        }
        try FileManager.default.createDirectory(at: story, withIntermediateDirectories: true)
        let git = URL(fileURLWithPath: "/usr/bin/git")
        func hookStory(choiceTo target: String) -> String {
            TestStory(
                id: "hook", title: "Hook", summary: "A story for the hook",
                chapters: [
                    .init("start", name: "Start", text: "Go.", choices: [(target, "On")], isFirst: true),
                    .init("end", name: "End", text: "Done.", isEnding: true),
                ]
            ).json
        }
        let broken = hookStory(choiceTo: "ned")
        try Data(broken.utf8).write(to: story.appendingPathComponent("story.json"))
        for arguments in [["init", "-q"], ["add", "story.json"]] {
            _ = try Command.run(git, arguments, in: story)
        }
        let environment = [
            "PRE_COMMIT_HOME": home.path,
            "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.com", "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.com",
        ]
        let head = try Command.run(git, ["rev-parse", "HEAD"]).standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(head.count == 40, "the package is a git repository")
        let config = """
            repos:
              - repo: \(Command.packageRoot.path)
                rev: \(head)
                hooks:
                  - id: cyd-validate

            """
        try Data(config.utf8).write(to: story.appendingPathComponent(".pre-commit-config.yaml"))
        _ = try Command.run(git, ["add", ".pre-commit-config.yaml"], in: story)
        let runHooks = ["pre-commit", "run", "--all-files", "--color", "never"]
        let failing = try await Command.runDetached(URL(fileURLWithPath: "/usr/bin/env"), runHooks, in: story, environment: environment)
        #expect(failing.status == 1, "\(failing.standardOutput)\(failing.standardError)")
        #expect(failing.standardOutput.contains("CYD302"), "\(failing.standardOutput)\(failing.standardError)")
        #expect(failing.standardOutput.contains("Failed"), "\(failing.standardOutput)")

        try Data(hookStory(choiceTo: "end").utf8).write(to: story.appendingPathComponent("story.json"))
        _ = try Command.run(git, ["add", "story.json"], in: story)
        let passing = try await Command.runDetached(URL(fileURLWithPath: "/usr/bin/env"), runHooks, in: story, environment: environment)
        #expect(passing.status == 0, "\(passing.standardOutput)\(passing.standardError)")
        #expect(passing.standardOutput.contains("Passed"), "\(passing.standardOutput)")
    }
}
