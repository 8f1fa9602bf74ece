import ArgumentParser
import CydWords
#if canImport(FoundationEssentials)
import FoundationEssentials
#endif
import Foundation
import LocalFiles
import StoryAnalysis
import StoryCheck
import StoryFormat
import TerminalUI

struct Test: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "test",
        abstract: "Playtest a story: walkthroughs that take every choice, transcript replays, random playthroughs.",
        discussion: Help.test)

    @Argument(help: "A story folder or story.json (default: the current folder).")
    var path = "."

    @Option(help: ArgumentHelp("Write each walkthrough as a transcript file into this folder.", valueName: "dir"))
    var write: String?

    @Option(parsing: .upToNextOption, help: ArgumentHelp("Replay these transcript files.", valueName: "file"))
    var replay: [String] = []

    @Option(help: "Play this many random playthroughs.")
    var random: Int?

    @Option(help: "The seed for --random.")
    var seed: UInt64 = 1

    @Option(help: "The longest random playthrough, in choices (default: 10 times the chapters).")
    var maxLength: Int?

    @Flag(help: "One JSON object instead of text.")
    var json = false

    func validate() throws {
        if let random, !(1...1_000_000).contains(random) { throw ValidationError("--random takes a number from 1 to 1000000") }
    }

    func run() throws {
        let story = try StoryInput.story(path)
        let test = Playtest(story, graph: StoryGraph(story))
        guard test.start != nil else { throw CLIError("no chapter is marked \"is_first_chapter\": true, so there is nothing to play") }
        let out = Terminal.standardOutput
        if !replay.isEmpty {
            var failed = 0
            var results: [JSONValue] = []
            for file in replay {
                let difference = try PlaytestWords.replay(file, in: test)
                results.append(.object(["file": .string(file), "passed": .bool(difference == nil), "difference": difference.map { .string($0) } ?? .null]))
                guard !json else {
                    if difference != nil { failed += 1 }
                    continue
                }
                switch difference {
                case nil: out.write("pass  \(VisibleText.escape(file))\n")
                case let difference?:
                    failed += 1
                    out.write("FAIL  \(VisibleText.escape(file))\n\(difference)")
                }
            }
            out.write(json ? JSONValue.object(["transcripts": .array(results), "failed": .number(Double(failed))]).encoded + "\n"
                : "\(plural(replay.count - failed, "transcript")) passed, \(failed) failed\n")
            if failed > 0 { throw Exit.problemsFound }
            return
        }
        if let random {
            let walks = test.random(count: random, seed: seed, limit: maxLength ?? max(10, 10 * test.choices.count))
            out.write(json ? PlaytestWords.randomJSON(walks, in: test, seed: seed).encoded + "\n" : PlaytestWords.random(walks, in: test, seed: seed))
            return
        }
        let (walks, uncoverable) = test.coveringWalks()
        // What a playtest asserts: every choice a reader can reach is part of a way to an
        // ending. A reachable choice into a chapter with no way out, or to a missing chapter,
        // strands a reader: the playtest fails. Choices in chapters no reader reaches are
        // `cyd validate`'s business (CYD501), not a reader's.
        let stranding = uncoverable.filter { $0.reason != .unreachable }
        if json && write == nil {
            out.write(PlaytestWords.coverageJSON(walks, uncoverable, in: test).encoded + "\n")
            if !stranding.isEmpty { throw Exit.problemsFound }
            return
        }
        out.write(PlaytestWords.coverage(walks, uncoverable, in: test))
        if let write {
            do {
                if FileStatus(write) == nil { try FileManager.default.createDirectory(atPath: write, withIntermediateDirectories: true) }
            } catch {
                throw CLIError("cannot make the folder \(VisibleText.escape(write))")
            }
            for (number, walk) in walks.enumerated() {
                let name = FileWriter.joined(write, String(format: "walkthrough-%03d.txt", number + 1))
                do {
                    try FileWriter.write(PlaytestWords.transcript(walk, test, number: number + 1, of: walks.count), to: name)
                } catch {
                    throw CLIError(error.description)
                }
            }
            out.write("wrote \(plural(walks.count, "transcript")) to \(VisibleText.escape(write)); `cyd test --replay \(VisibleText.escape(FileWriter.joined(write, "*.txt")))` replays them\n")
        }
        out.write(PlaytestWords.verdict(stranding: stranding.count))
        if !stranding.isEmpty { throw Exit.problemsFound }
    }
}
