import LocalFiles
import StoryAnalysis
import StoryFormat

/// What `cyd stats` says of a story's statistics, in text and JSON.
public enum StatsWords {
    public static func text(_ s: StoryStatistics) -> String {
        func name(_ chapter: Int) -> String { "'\(VisibleText.escape(s.ids[chapter]))'" }
        var out = "\(VisibleText.escape(s.title ?? "Untitled")): \(plural(s.chapters, "chapter")), \(plural(s.choices, "choice")), "
        out += "\(plural(s.intendedEndings + s.deadEnds, "ending")) (\(s.intendedEndings) marked, \(plural(s.deadEnds, "dead end"))), "
        out += "\(plural(s.pictures, "picture"))\(s.unreachable > 0 ? ", \(s.unreachable) unreachable" : "")\n"
        out += "Text: \(grouped(s.words)) words, \(grouped(s.characters)) characters; per chapter \(s.wordsPerChapter.minimum) to "
        out += "\(s.wordsPerChapter.maximum) words (median \(s.wordsPerChapter.median)); about \(minutes(s.readingMinutes)) to read every chapter once\n"
        guard let paths = s.paths else { return out + "Playthroughs: none (no chapter is marked \"is_first_chapter\": true)\n" }
        switch paths.playthroughs {
        case .finite(let count): out += "Playthroughs: \(count.abbreviated)\n"
        case .unbounded(let cycle):
            out += "Playthroughs: unbounded: the loop \((cycle + [cycle[0]]).map(name).joined(separator: " → ")) lies on a way to an ending\n"
        }
        for ending in paths.endings {
            let most = ending.mostChapters.map(String.init) ?? "unbounded"
            let count = switch ending.playthroughs {
                case .finite(let count): "\(count.abbreviated) \(count == .one ? "playthrough" : "playthroughs")"
                case .unbounded: "unboundedly many playthroughs"
                }
            out += "  \(name(ending.chapter)): \(count), \(ending.fewestChapters) to \(most) chapters\n"
        }
        if paths.endings.isEmpty { out += "  no ending can be reached from the start\n" }
        if !paths.everyReaderPasses.isEmpty { out += "Every reader passes: \(paths.everyReaderPasses.map(name).joined(separator: " → "))\n" }
        out += "Longest way: " + (paths.longestPath.map { plural($0, "chapter") } ?? "unbounded (loops)") + "\n"
        return out
    }

    public static func json(_ s: StoryStatistics) -> JSONValue {
        func count(_ value: PathAnalysis.Count) -> JSONValue {
            switch value {
            case .finite(let count): .string(count.description)
            case .unbounded: .null
            }
        }
        var object: [String: JSONValue] = [
            "title": s.title.map { .string($0) } ?? .null, "chapters": .number(Double(s.chapters)), "choices": .number(Double(s.choices)),
            "words": .number(Double(s.words)), "characters": .number(Double(s.characters)),
            "wordsPerChapter": .object([
                "min": .number(Double(s.wordsPerChapter.minimum)), "median": .number(Double(s.wordsPerChapter.median)),
                "max": .number(Double(s.wordsPerChapter.maximum)),
            ]),
            "readingMinutes": .number((s.readingMinutes * 10).rounded() / 10), "wordsPerMinute": .number(Double(StoryStatistics.wordsPerMinute)),
            "intendedEndings": .number(Double(s.intendedEndings)), "deadEnds": .number(Double(s.deadEnds)),
            "unreachable": .number(Double(s.unreachable)), "pictures": .number(Double(s.pictures)),
        ]
        if let paths = s.paths {
            object["playthroughs"] = count(paths.playthroughs)
            if case .unbounded(let cycle) = paths.playthroughs { object["cycle"] = .array(cycle.map { .string(s.ids[$0]) }) }
            object["endings"] = .array(paths.endings.map { ending in
                .object([
                    "id": .string(s.ids[ending.chapter]), "fewestChapters": .number(Double(ending.fewestChapters)),
                    "mostChapters": ending.mostChapters.map { .number(Double($0)) } ?? .null, "playthroughs": count(ending.playthroughs),
                ])
            })
            object["everyReaderPasses"] = .array(paths.everyReaderPasses.map { .string(s.ids[$0]) })
            object["longestPath"] = paths.longestPath.map { .number(Double($0)) } ?? .null
        } else {
            object["playthroughs"] = .null
        }
        return .object(object)
    }

    public static func grouped(_ value: Int) -> String { BigCount(UInt64(value)).abbreviated }

    public static func minutes(_ value: Double) -> String {
        value < 90 ? "\(max(1, Int(value.rounded()))) min" : "\(Int(value / 60)) h \(Int(value.truncatingRemainder(dividingBy: 60).rounded())) min"
    }
}

/// What `cyd graph` says of the chapter map as data.
public enum GraphWords {
    /// Why a map of `chapters` is not drawn as svg.
    public static func tooLarge(chapters: Int) -> String {
        "the map has \(chapters) chapters, more than Graphviz's dot can lay out in reasonable time (svg is drawn for at most \(GraphvizDrawing.chapterLimit)); "
            + "`--format dot` writes the map for Graphviz's own tools (sfdp handles large maps), `--format text` shows it here"
    }

    /// Said on a terminal while dot draws a large map.
    public static func drawing(chapters: Int, limit: Double) -> String {
        "drawing \(plural(chapters, "chapter")) with Graphviz's dot (at most \(Int(limit)) s)...\n"
    }

    /// Why dot did not draw the map.
    public static func svgProblem(_ failure: GraphvizDrawing.Failure, chapters: Int, limit: Double) -> String {
        switch failure {
        case .notInstalled:
            return "drawing svg needs Graphviz's `dot`, which is not installed (Debian: apt-get install graphviz); `--format dot` writes the map for it"
        case .cannotStart(let program):
            return "cannot start \(VisibleText.escape(program)) (it may not be executable)"
        case .timedOut:
            return "Graphviz's dot did not finish drawing \(plural(chapters, "chapter")) in \(Int(limit)) s and was stopped; "
                + "`--format dot` writes the map for dot (or sfdp) to take its time, `--format text` shows it here"
        case .failed(let signal, let status, let said):
            let how = signal.map { "was killed by signal \($0)" } ?? "exited with status \(status)"
            return "Graphviz's dot failed: it \(how)" + (said.isEmpty ? " and said nothing" : ": \(VisibleText.escape(said))")
        }
    }

    /// The map as data: chapters with their marks, choices with their targets (or the missing id).
    public static func json(_ map: ChapterMap) -> JSONValue {
        .object([
            "title": .string(map.title),
            "start": map.start.map { .string(map.nodes[$0].id) } ?? .null,
            "chapters": .array(map.nodes.map { node in
                .object([
                    "id": .string(node.id), "title": .string(node.title), "start": .bool(node.isStart), "ending": .bool(node.isEnding),
                    "unreachable": .bool(node.isUnreachable), "noWayOut": .bool(node.isTrap),
                ])
            }),
            "choices": .array(map.edges.map { edge in
                .object([
                    "from": .string(map.nodes[edge.from].id), "to": edge.to.map { .string(map.nodes[$0].id) } ?? .null,
                    "missing": edge.missing.map { .string($0) } ?? .null, "text": .string(edge.label),
                ])
            }),
        ])
    }
}

/// What `cyd test` writes and says: walkthroughs as transcripts, and where a transcript parts from the story.
public enum PlaytestWords {
    /// `cyd test --random` as text: how many reached an ending, choices taken, lengths.
    public static func random(_ walks: [Playtest.Walk], in test: Playtest, seed: UInt64) -> String {
        let (taken, total, lengths, ended) = randomCounts(walks, in: test)
        var out = "\(plural(walks.count, "random playthrough")) (seed \(seed)): \(ended) reached an ending"
        out += ended < walks.count ? ", \(walks.count - ended) stopped at the length limit or a dead choice\n" : "\n"
        out += "choices taken: \(taken) of \(total)\n"
        if let first = lengths.first, let last = lengths.last {
            out += "length in choices: min \(first), median \(lengths[lengths.count / 2]), max \(last)\n"
        }
        return out
    }

    public static func randomJSON(_ walks: [Playtest.Walk], in test: Playtest, seed: UInt64) -> JSONValue {
        let (taken, total, lengths, ended) = randomCounts(walks, in: test)
        return .object([
            "seed": .string(String(seed)), "playthroughs": .number(Double(walks.count)), "reachedAnEnding": .number(Double(ended)),
            "choicesTaken": .number(Double(taken)), "choices": .number(Double(total)),
            "length": lengths.isEmpty ? .null : .object([
                "min": .number(Double(lengths[0])), "median": .number(Double(lengths[lengths.count / 2])), "max": .number(Double(lengths[lengths.count - 1])),
            ]),
        ])
    }

    /// Distinct choices taken, all choices, the walks' lengths sorted, and how many ended.
    static func randomCounts(_ walks: [Playtest.Walk], in test: Playtest) -> (taken: Int, total: Int, lengths: [Int], ended: Int) {
        var takenChoices = Set<[Int]>()
        for walk in walks { for (position, choice) in walk.choices.enumerated() { takenChoices.insert([walk.chapters[position], choice]) } }
        let total = test.choices.reduce(0) { $0 + $1.count }
        return (takenChoices.count, total, walks.map(\.choices.count).sorted(), walks.count { test.choices[$0.ending].isEmpty })
    }

    /// The walkthroughs that take every choice they can, and each choice none takes, with why.
    public static func coverage(_ walks: [Playtest.Walk], _ uncoverable: [Playtest.Uncoverable], in test: Playtest) -> String {
        let total = test.choices.reduce(0) { $0 + $1.count }
        var out = "\(plural(walks.count, "walkthrough")) \(walks.count == 1 ? "takes" : "take") \(total - uncoverable.count) of \(plural(total, "choice")):\n"
        for (number, walk) in walks.enumerated() {
            let steps = walk.choices.map { String($0 + 1) }.joined(separator: " ")
            out += "  \(number + 1). \(steps.isEmpty ? "(the start is an ending)" : steps) → '\(VisibleText.escape(test.ids[walk.ending]))'\n"
        }
        for missed in uncoverable {
            let why = switch missed.reason {
                case .unreachable: "its chapter cannot be reached"
                case .missingTarget: "it leads to a chapter that does not exist"
                case .noWayOut: "no ending can be reached after it"
                }
            out += "  not taken: choice \(missed.choice + 1) of '\(VisibleText.escape(test.ids[missed.chapter]))': \(why)\n"
        }
        return out
    }

    public static func coverageJSON(_ walks: [Playtest.Walk], _ uncoverable: [Playtest.Uncoverable], in test: Playtest) -> JSONValue {
        .object([
            "choices": .number(Double(test.choices.reduce(0) { $0 + $1.count })),
            "walkthroughs": .array(walks.map { walk in
                .object([
                    "choices": .array(walk.choices.map { .number(Double($0 + 1)) }), "chapters": .array(walk.chapters.map { .string(test.ids[$0]) }),
                    "ending": .string(test.ids[walk.ending]),
                ])
            }),
            "notTaken": .array(uncoverable.map { missed in
                .object(["chapter": .string(test.ids[missed.chapter]), "choice": .number(Double(missed.choice + 1)), "reason": .string("\(missed.reason)")])
            }),
            "passed": .bool(!uncoverable.contains { $0.reason != .unreachable }),
        ])
    }

    /// What a playtest asserts: every choice a reader can reach is part of a way to an ending
    /// (`stranding` reachable choices are not).
    public static func verdict(stranding: Int) -> String {
        stranding == 0
            ? "passed: every choice a reader can reach is part of a way to an ending\n"
            : "failed: \(plural(stranding, "choice")) a reader can reach \(stranding == 1 ? "leads" : "lead") where no ending can be reached; "
                + "a playtest passes when every choice a reader can reach is part of a way to an ending\n"
    }

    /// Choice numbers as `cyd read` takes them, with `> chapter` after each and `= ending` last.
    public static func transcript(_ walk: Playtest.Walk, _ test: Playtest, number: Int, of count: Int) -> String {
        var steps: [Transcript.Step] = []
        for (position, choice) in walk.choices.enumerated() {
            steps += [.choose(choice + 1), .expectChapter(test.ids[walk.chapters[position + 1]])]
        }
        steps.append(.expectEnding(test.ids[walk.ending]))
        return Transcript(steps: steps).written(comment: "cyd test walkthrough \(number) of \(count), from '\(test.ids[walk.chapters[0]])'")
    }

    /// `cyd test --replay`: a line a transcript (`pass`, or `FAIL` and where it parts from the
    /// story) then the totals, or one JSON object; and how many failed.
    public static func replays(_ files: [String], in test: Playtest, json: Bool) throws -> (text: String, failed: Int) {
        var (failed, out, results) = (0, "", [JSONValue]())
        for file in files {
            let difference = try replay(file, in: test)
            if difference != nil { failed += 1 }
            results.append(.object(["file": .string(file), "passed": .bool(difference == nil), "difference": difference.map { .string($0) } ?? .null]))
            out += difference.map { "FAIL  \(VisibleText.escape(file))\n\($0)" } ?? "pass  \(VisibleText.escape(file))\n"
        }
        if json { return (JSONValue.object(["transcripts": .array(results), "failed": .number(Double(failed))]).encoded + "\n", failed) }
        return (out + "\(plural(files.count - failed, "transcript")) passed, \(failed) failed\n", failed)
    }

    /// Follows a transcript in the story as it is; nil when every expectation holds, else the
    /// expected lines beside what a reader now sees, from the first difference on.
    public static func replay(_ path: String, in test: Playtest) throws -> String? {
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
