import ArgumentParser
import StoryAnalysis
import StoryCheck
import StoryFormat
import TerminalUI

struct Stats: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Exact statistics of a story: words, reading time, endings, and every way through it.",
        discussion: """
            A story.json has no hidden state, so playthroughs (ways from the first chapter to a \
            chapter without choices; two choices to the same chapter are two ways) are counted \
            exactly, not sampled, however many there are; with a loop on a way to an ending there \
            are unboundedly many, and the loop is shown. For each ending: the fewest and most \
            chapters on the way there and how many playthroughs end there; the chapters every \
            reader passes through; the longest way through. Reading time is at \
            \(StoryStatistics.wordsPerMinute) words a minute, every chapter read once.
            """)

    @Argument(help: "A story folder or story.json (default: the current folder).")
    var path = "."

    @Flag(help: "One JSON object; counts too large for a JSON number are strings of digits.")
    var json = false

    func run() throws {
        let story = try StoryInput.story(path)
        let statistics = StoryStatistics(story, graph: StoryGraph(story))
        Terminal.standardOutput.write(json ? Self.json(statistics).encoded + "\n" : Self.text(statistics))
    }

    static func text(_ s: StoryStatistics) -> String {
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

    static func json(_ s: StoryStatistics) -> JSONValue {
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

    static func grouped(_ value: Int) -> String { BigCount(UInt64(value)).abbreviated }

    static func minutes(_ value: Double) -> String {
        value < 90 ? "\(max(1, Int(value.rounded()))) min" : "\(Int(value / 60)) h \(Int(value.truncatingRemainder(dividingBy: 60).rounded())) min"
    }
}
