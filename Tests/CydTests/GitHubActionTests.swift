import Foundation
import Testing
import TestSupport

/// action.yml's logic (scripts/github-action.sh) run here with the environment a GitHub runner
/// gives it: annotations on standard output, a Markdown summary in GITHUB_STEP_SUMMARY, counts
/// in GITHUB_OUTPUT, SARIF on request, and the job failing on errors.
@Suite struct GitHubActionTests {
    let folder: URL
    let cydFolder = Command.cyd.deletingLastPathComponent().path

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("cyd-action-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    func story(choiceTo target: String) -> String {
        """
        {"story": {"id": "a", "name": "A", "rating": "G", "summary": "For the action",
          "chapters": [
            {"id": "start", "name": "Start", "is_first_chapter": true, "text": "Go.", "choices": [{"chapter_id": "\(target)", "text": "On"}]},
            {"id": "end", "name": "End | with a pipe", "is_ending": true, "text": "Done.", "choices": []}
          ]}}
        """
    }

    func runAction(_ step: String, _ inputs: [String: String]) throws -> (result: CommandResult, summary: String, output: String, path: String) {
        let summary = folder.appendingPathComponent("summary.md")
        let output = folder.appendingPathComponent("output.txt")
        let path = folder.appendingPathComponent("path.txt")
        var environment = [
            "GITHUB_ACTIONS": "true", "GITHUB_STEP_SUMMARY": summary.path, "GITHUB_OUTPUT": output.path, "GITHUB_PATH": path.path,
            "RUNNER_TEMP": folder.path, "PATH": "\(cydFolder):/usr/local/bin:/usr/bin:/bin",
        ]
        for (key, value) in inputs { environment[key] = value }
        let result = try Command.run(URL(fileURLWithPath: "/bin/bash"), ["scripts/github-action.sh", step], environment: environment)
        func read(_ url: URL) -> String { (try? String(contentsOf: url, encoding: .utf8)) ?? "" }
        return (result, read(summary), read(output), read(path))
    }

    /// A repository whose `origin/main` is the pull request's base and whose HEAD is its head.
    func pullRequest(base: String, head: String) throws -> String {
        let repository = folder.appendingPathComponent("repo").path
        try FileManager.default.createDirectory(atPath: repository, withIntermediateDirectories: true)
        func git(_ arguments: [String]) throws {
            let run = try ChildProcess.run(["git", "-c", "user.name=T", "-c", "user.email=t@example.invalid", "-c", "commit.gpgsign=false"] + arguments, in: repository)
            #expect(run.status == 0, "\(arguments) \(run.standardError)")
        }
        try git(["init", "-q", "-b", "main"])
        try Data(base.utf8).write(to: URL(fileURLWithPath: repository + "/story.json"))
        try git(["add", "story.json"])
        try git(["commit", "-q", "-m", "base"])
        try git(["update-ref", "refs/remotes/origin/main", "HEAD"])
        try git(["checkout", "-q", "-b", "change"])
        try Data(head.utf8).write(to: URL(fileURLWithPath: repository + "/story.json"))
        try git(["commit", "-q", "-am", "change"])
        return repository
    }

    @Test func onAPullRequestTheSummarySaysWhatTheChangeDoesToTheStory() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let hostile = story(choiceTo: "end").replacingOccurrences(of: "\"Done.\"", with: "\"Done. <img src=x onerror=alert(1)> [a](javascript:x) **bold**\"")
        let repository = try pullRequest(base: story(choiceTo: "end"), head: hostile)
        let pullRequest = ["GITHUB_EVENT_NAME": "pull_request", "GITHUB_BASE_REF": "main", "INPUT_DIFF": repository]
        let run = try runAction("diff", pullRequest)
        #expect(run.result.status == 0, "\(run.result.standardOutput)\(run.result.standardError)")
        #expect(run.summary.contains("## Story change:") && run.summary.contains("### Text"), "\(run.summary)")
        #expect(run.summary.contains("“End \\| with a pipe” (`end`)"), "a title is escaped for Markdown: \(run.summary)")
        #expect(run.summary.contains("\\<img") && run.summary.firstMatch(of: /[^\\]</) == nil, "every < of the story is escaped: \(run.summary)")
        #expect(!run.summary.contains("](javascript") && !run.summary.contains("**bold**"), "story text never becomes markup: \(run.summary)")

        try? FileManager.default.removeItem(at: folder.appendingPathComponent("summary.md"))
        let push = try runAction("diff", ["GITHUB_EVENT_NAME": "push", "INPUT_DIFF": repository])
        #expect(push.result.status == 0 && push.summary.isEmpty, "not a pull request: no diff")
        try? FileManager.default.removeItem(at: folder.appendingPathComponent("summary.md"))
        let shallow = try runAction("diff", ["GITHUB_EVENT_NAME": "pull_request", "GITHUB_BASE_REF": "release", "INPUT_DIFF": repository])
        #expect(shallow.result.status == 0 && shallow.summary.contains("fetch-depth: 0"), "a base not fetched is said, and the job goes on: \(shallow.summary)")
    }

    @Test func aBrokenStoryFailsTheJobWithAnnotationsASummaryAndSARIF() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("story.json")
        try Data(story(choiceTo: "ned").utf8).write(to: file)
        let sarif = folder.appendingPathComponent("cyd.sarif")
        let run = try runAction("validate", ["INPUT_PATH": file.path, "INPUT_SARIF": sarif.path])
        #expect(run.result.status == 1, "\(run.result.standardOutput)\(run.result.standardError)")
        // Annotations: one workflow command per finding, located.
        #expect(run.result.standardOutput.contains("::error file=\(file.path),line=3,"), "\(run.result.standardOutput)")
        #expect(run.result.standardOutput.contains("CYD302"))
        // The summary: a verdict and a table whose cells cannot break the table.
        #expect(run.summary.contains("## cyd validate"))
        #expect(run.summary.contains("**failed**"), "\(run.summary)")
        #expect(run.summary.contains("| ❌ | `CYD302` | \(file.path):3:"), "\(run.summary)")
        #expect(!run.summary.contains("End | with"))
        #expect(run.output.contains("errors=2"), "\(run.output)")
        let log = try JSONSerialization.jsonObject(with: Data(contentsOf: sarif)) as? [String: Any]
        #expect(log?["version"] as? String == "2.1.0")
    }

    @Test func withoutPythonTheSummaryStillCountsTheFindings() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("story.json")
        try Data(story(choiceTo: "ned").utf8).write(to: file)
        let run = try runAction("validate", ["INPUT_PATH": file.path, "CYD_ACTION_PYTHON": "no-such-python"])
        #expect(run.result.status == 1, "\(run.result.standardOutput)\(run.result.standardError)")
        #expect(run.summary.contains("2 errors, 1 warnings: see the annotations"), "\(run.summary)")
        #expect(run.output.contains("errors=2") && run.output.contains("warnings=1"), "\(run.output)")
    }

    @Test func aCleanStoryPassesAndStrictFailsOnWarnings() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("story.json")
        try Data(story(choiceTo: "end").utf8).write(to: file)
        let clean = try runAction("validate", ["INPUT_PATH": file.path])
        #expect(clean.result.status == 0, "\(clean.result.standardOutput)\(clean.result.standardError)")
        #expect(clean.summary.contains("**passed**: 0 errors"), "\(clean.summary)")
        #expect(clean.output.contains("errors=0"))

        // An unreachable chapter is a warning: strict fails on it.
        try Data(story(choiceTo: "end").replacingOccurrences(of: "\n  ]}}", with: ",\n {\"id\": \"lost\", \"name\": \"Lost\", \"is_ending\": true, \"text\": \"x\", \"choices\": []}\n  ]}}").utf8).write(to: file)
        let strict = try runAction("validate", ["INPUT_PATH": file.path, "INPUT_STRICT": "true"])
        #expect(strict.result.status == 1, "\(strict.result.standardOutput)\(strict.summary)")
        #expect(strict.result.standardOutput.contains("::warning file="), "\(strict.result.standardOutput)")
    }

    @Test func aReleaseVersionIsDownloadedAndPutOnThePath() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        // A release archive as the release workflow would publish it, served on 127.0.0.1.
        let releases = folder.appendingPathComponent("releases/v9.9.9")
        try FileManager.default.createDirectory(at: releases, withIntermediateDirectories: true)
        let machine = try Command.run(URL(fileURLWithPath: "/usr/bin/uname"), ["-m"]).standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
        let tar = try Command.run(
            URL(fileURLWithPath: "/usr/bin/tar"),
            ["-czf", releases.appendingPathComponent("cyd-linux-\(machine).tar.gz").path, "-C", cydFolder, "cyd"])
        #expect(tar.status == 0, "\(tar.standardError)")
        let server = try TestHTTPServer(files: folder.appendingPathComponent("releases").path)
        let run = try runAction("install", ["INPUT_VERSION": "9.9.9", "CYD_RELEASE_BASE_URL": server.url("/files")])
        #expect(run.result.status == 0, "\(run.result.standardOutput)\(run.result.standardError)")
        let bin = run.path.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(bin == folder.appendingPathComponent("cyd-9.9.9").path)
        let version = try Command.run(URL(fileURLWithPath: bin).appendingPathComponent("cyd"), ["--version"])
        #expect(version.standardOutput.hasPrefix("cyd "))

        let missing = try runAction("install", ["INPUT_VERSION": "1.0.0", "CYD_RELEASE_BASE_URL": server.url("/files")])
        #expect(missing.result.status == 2)
        #expect(missing.result.standardOutput.contains("::error title=cyd::could not download cyd 1.0.0"), "\(missing.result.standardOutput)")
        let hostile = try runAction("install", ["INPUT_VERSION": "1.0; rm -rf /"])
        #expect(hostile.result.status == 2)
        #expect(hostile.result.standardOutput.contains("is not a version number"))
    }
}
