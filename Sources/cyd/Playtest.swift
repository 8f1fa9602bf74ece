import ArgumentParser
import CydWords
import Foundation
import LocalFiles
import StoryFormat
import StoryAnalysis
import StoryCheck
import TerminalUI

struct Test: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "test",
        abstract: "Playtest a story: walkthroughs that take every choice, transcript replays, random playthroughs.",
        discussion: Help.test)

    @Argument(help: "A story folder or story.json (default: the current folder).") var path = "."
    @Option(help: ArgumentHelp("Write each walkthrough as a transcript file into this folder.", valueName: "dir")) var write: String?
    @Option(parsing: .upToNextOption, help: ArgumentHelp("Replay these transcript files.", valueName: "file")) var replay: [String] = []
    @Option(help: "Play this many random playthroughs.") var random: Int?
    @Option(help: "The seed for --random.") var seed: UInt64 = 1
    @Option(help: "The longest random playthrough, in choices (default: 10 times the chapters).") var maxLength: Int?
    @Flag(help: "One JSON object instead of text.") var json = false

    func validate() throws {
        if let random, !(1...1_000_000).contains(random) { throw ValidationError("--random takes a number from 1 to 1000000") }
    }

    func run() throws {
        let story = try StoryInput.story(path)
        let test = Playtest(story, graph: StoryGraph(story))
        guard test.start != nil else { throw CLIError("no chapter is marked \"is_first_chapter\": true, so there is nothing to play") }
        let out = Terminal.standardOutput
        if !replay.isEmpty {
            let (text, failed) = try PlaytestWords.replays(replay, in: test, json: json)
            out.write(text)
            if failed > 0 { throw Exit.problemsFound }
            return
        }
        if let random {
            let walks = test.random(count: random, seed: seed, limit: maxLength ?? max(10, 10 * test.choices.count))
            return out.write(json ? PlaytestWords.randomJSON(walks, in: test, seed: seed).encoded + "\n" : PlaytestWords.random(walks, in: test, seed: seed))
        }
        let (walks, uncoverable) = test.coveringWalks()
        // What a playtest asserts: every choice a reader can reach is part of a way to an
        // ending. A reachable choice into a chapter with no way out, or to a missing chapter,
        // strands a reader: the playtest fails. Choices in chapters no reader reaches are
        // `cyd validate`'s business (CYD501), not a reader's.
        let stranding = uncoverable.filter { $0.reason != .unreachable }
        if json && write == nil {
            out.write(PlaytestWords.coverageJSON(walks, uncoverable, in: test).encoded + "\n")
        } else {
            out.write(PlaytestWords.coverage(walks, uncoverable, in: test))
            if let write { try Self.write(walks, of: test, into: write) }
            out.write(PlaytestWords.verdict(stranding: stranding.count))
        }
        if !stranding.isEmpty { throw Exit.problemsFound }
    }

    /// Each walkthrough as a transcript file in `folder` (made when missing).
    static func write(_ walks: [Playtest.Walk], of test: Playtest, into folder: String) throws {
        if FileStatus(folder) == nil { try FileWriter.makeFolder(folder) }
        for (number, walk) in walks.enumerated() {
            let name = FileWriter.joined(folder, String(format: "walkthrough-%03d.txt", number + 1))
            try FileWriter.write(PlaytestWords.transcript(walk, test, number: number + 1, of: walks.count), to: name)
        }
        Terminal.standardOutput.write(
            "wrote \(plural(walks.count, "transcript")) to \(VisibleText.escape(folder)); `cyd test --replay \(VisibleText.escape(FileWriter.joined(folder, "*.txt")))` replays them\n")
    }
}
