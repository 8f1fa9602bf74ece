import Foundation
import TestSupport
import Testing

/// The project's own pre-commit hook (.pre-commit-hooks.yaml, language: swift), run for real:
/// pre-commit clones this repository, builds cyd with `swift build -c release` and runs it on a
/// story repository. PRE_COMMIT_HOME is a temporary folder, removed afterwards (a release build
/// per commit tested would otherwise pile up), so each run builds cyd once: about two minutes.
@Suite struct PreCommitHookTests {
    @Test func theHookFailsABrokenStoryAndPassesItOnceFixed() throws {
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
        let tryRepo = ["pre-commit", "try-repo", Command.packageRoot.path, "cyd-validate", "--all-files", "--color", "never"]
        let failing = try Command.run(URL(fileURLWithPath: "/usr/bin/env"), tryRepo, in: story, environment: environment)
        #expect(failing.status == 1, "\(failing.standardOutput)\(failing.standardError)")
        #expect(failing.standardOutput.contains("CYD302"), "\(failing.standardOutput)\(failing.standardError)")
        #expect(failing.standardOutput.contains("Failed"), "\(failing.standardOutput)")

        try Data(hookStory(choiceTo: "end").utf8).write(to: story.appendingPathComponent("story.json"))
        _ = try Command.run(git, ["add", "story.json"], in: story)
        let passing = try Command.run(URL(fileURLWithPath: "/usr/bin/env"), tryRepo, in: story, environment: environment)
        #expect(passing.status == 0, "\(passing.standardOutput)\(passing.standardError)")
        #expect(passing.standardOutput.contains("Passed"), "\(passing.standardOutput)")
    }
}
