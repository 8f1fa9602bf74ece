import ArgumentParser
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
        discussion: """
            Without options: walkthroughs from the first chapter to an ending that together take \
            every choice that can be part of one (near-smallest: each goes to the first choice no \
            earlier one took by a shortest way, then finishes preferring untaken choices), and the \
            choices none can take (unreachable, to a missing chapter, or into a chapter with no way \
            out). It passes when every choice a reader can reach is part of a way to an ending, and \
            fails (exit 1) when one leads into a chapter with no way out or to a missing chapter. \
            --write DIR saves each as a transcript: the choice numbers `cyd read` accepts on \
            standard input, with `> chapter` after each choice and `= ending` at the end. --replay \
            FILE... follows transcripts in the story as it is now and fails (exit 1), showing what \
            a reader would now see, where one no longer holds. --random N plays N random \
            playthroughs (the same ones for the same --seed) and reports coverage and lengths.
            """)

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
                let difference = try Self.replay(file, in: test)
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
            var takenChoices = Set<[Int]>()
            for walk in walks { for (position, choice) in walk.choices.enumerated() { takenChoices.insert([walk.chapters[position], choice]) } }
            let total = test.choices.reduce(0) { $0 + $1.count }
            let lengths = walks.map(\.choices.count).sorted()
            let ended = walks.count { test.choices[$0.ending].isEmpty }
            if json {
                out.write(JSONValue.object([
                    "seed": .string(String(seed)), "playthroughs": .number(Double(walks.count)), "reachedAnEnding": .number(Double(ended)),
                    "choicesTaken": .number(Double(takenChoices.count)), "choices": .number(Double(total)),
                    "length": lengths.isEmpty ? .null : .object([
                        "min": .number(Double(lengths[0])), "median": .number(Double(lengths[lengths.count / 2])), "max": .number(Double(lengths[lengths.count - 1])),
                    ]),
                ]).encoded + "\n")
                return
            }
            out.write("\(plural(random, "random playthrough")) (seed \(seed)): \(ended) reached an ending")
            out.write(ended < walks.count ? ", \(walks.count - ended) stopped at the length limit or a dead choice\n" : "\n")
            out.write("choices taken: \(takenChoices.count) of \(total)\n")
            if let first = lengths.first, let last = lengths.last {
                out.write("length in choices: min \(first), median \(lengths[lengths.count / 2]), max \(last)\n")
            }
            return
        }
        let (walks, uncoverable) = test.coveringWalks()
        let total = test.choices.reduce(0) { $0 + $1.count }
        // What a playtest asserts: every choice a reader can reach is part of a way to an
        // ending. A reachable choice into a chapter with no way out, or to a missing chapter,
        // strands a reader: the playtest fails. Choices in chapters no reader reaches are
        // `cyd validate`'s business (CYD501), not a reader's.
        let stranding = uncoverable.filter { $0.reason != .unreachable }
        if json && write == nil {
            out.write(JSONValue.object([
                "choices": .number(Double(total)),
                "walkthroughs": .array(walks.map { walk in
                    .object([
                        "choices": .array(walk.choices.map { .number(Double($0 + 1)) }), "chapters": .array(walk.chapters.map { .string(test.ids[$0]) }),
                        "ending": .string(test.ids[walk.ending]),
                    ])
                }),
                "notTaken": .array(uncoverable.map { missed in
                    .object(["chapter": .string(test.ids[missed.chapter]), "choice": .number(Double(missed.choice + 1)), "reason": .string("\(missed.reason)")])
                }),
                "passed": .bool(stranding.isEmpty),
            ]).encoded + "\n")
            if !stranding.isEmpty { throw Exit.problemsFound }
            return
        }
        out.write("\(plural(walks.count, "walkthrough")) \(walks.count == 1 ? "takes" : "take") \(total - uncoverable.count) of \(plural(total, "choice")):\n")
        for (number, walk) in walks.enumerated() {
            let steps = walk.choices.map { String($0 + 1) }.joined(separator: " ")
            out.write("  \(number + 1). \(steps.isEmpty ? "(the start is an ending)" : steps) → '\(VisibleText.escape(test.ids[walk.ending]))'\n")
        }
        for missed in uncoverable {
            let why = switch missed.reason {
                case .unreachable: "its chapter cannot be reached"
                case .missingTarget: "it leads to a chapter that does not exist"
                case .noWayOut: "no ending can be reached after it"
                }
            out.write("  not taken: choice \(missed.choice + 1) of '\(VisibleText.escape(test.ids[missed.chapter]))': \(why)\n")
        }
        if let write {
            do {
                if FileStatus(write) == nil { try FileManager.default.createDirectory(atPath: write, withIntermediateDirectories: true) }
            } catch {
                throw CLIError("cannot make the folder \(VisibleText.escape(write))")
            }
            for (number, walk) in walks.enumerated() {
                let name = FileWriter.joined(write, String(format: "walkthrough-%03d.txt", number + 1))
                do {
                    try FileWriter.write(Self.transcript(walk, test, number: number + 1, of: walks.count), to: name)
                } catch {
                    throw CLIError(error.description)
                }
            }
            out.write("wrote \(plural(walks.count, "transcript")) to \(VisibleText.escape(write)); `cyd test --replay \(VisibleText.escape(FileWriter.joined(write, "*.txt")))` replays them\n")
        }
        if stranding.isEmpty {
            out.write("passed: every choice a reader can reach is part of a way to an ending\n")
        } else {
            out.write(
                "failed: \(plural(stranding.count, "choice")) a reader can reach \(stranding.count == 1 ? "leads" : "lead") where no ending can be reached; "
                    + "a playtest passes when every choice a reader can reach is part of a way to an ending\n")
            throw Exit.problemsFound
        }
    }

    /// Choice numbers as `cyd read` takes them, with `> chapter` after each and `= ending` last.
    static func transcript(_ walk: Playtest.Walk, _ test: Playtest, number: Int, of count: Int) -> String {
        var steps: [Transcript.Step] = []
        for (position, choice) in walk.choices.enumerated() {
            steps += [.choose(choice + 1), .expectChapter(test.ids[walk.chapters[position + 1]])]
        }
        steps.append(.expectEnding(test.ids[walk.ending]))
        return Transcript(steps: steps).written(comment: "cyd test walkthrough \(number) of \(count), from '\(test.ids[walk.chapters[0]])'")
    }

    /// Follows a transcript in the story as it is; nil when every expectation holds, else the
    /// expected lines beside what a reader now sees, from the first difference on.
    static func replay(_ path: String, in test: Playtest) throws -> String? {
        let bytes: [UInt8]
        do { bytes = try LocalFile.read(path, limit: 16 << 20) } catch { throw CLIError("cannot read \(VisibleText.escape(path)): \(error.description)") }
        let transcript: Transcript
        do {
            transcript = try Transcript.parse(bytes)
        } catch {
            switch error {
            case .notAStep(let line, let text):
                throw CLIError("\(VisibleText.escape(path)):\(line): '\(VisibleText.escape(text))' is not a choice number, '> chapter' or '= ending'")
            case .noSteps:
                throw CLIError("\(VisibleText.escape(path)) has no step (no choice number, '> chapter' or '= ending'), so it checks nothing; a transcript must say where reading goes")
            }
        }
        guard let divergence = test.replay(transcript) else { return nil }
        var text = "  line \(divergence.line.number):\n"
        for previous in divergence.before { text += "      \(VisibleText.escape(previous))\n" }
        let now = switch divergence.actual {
        case .chapter(let id): "> \(id)"
        case .ending(let id): "= \(id)"
        case .notAnEnding(let id, let choices): "> \(id) (not an ending: \(choices) choices)"
        case .noSuchChoice(let id, let choices, let number): "'\(id)' has \(plural(choices, "choice")); there is no choice \(number)"
        case .missingTarget(let id, let number): "choice \(number) of '\(id)' leads to a chapter that does not exist"
        }
        text += "    - \(VisibleText.escape(divergence.line.text))\n    + \(VisibleText.escape(now))\n"
        return text
    }
}
