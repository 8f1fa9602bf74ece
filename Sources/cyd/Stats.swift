import ArgumentParser
import CydWords
import StoryAnalysis
import StoryCheck
import TerminalUI

struct Stats: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "stats",
        abstract: "Exact statistics of a story: words, reading time, endings, and every way through it.",
        discussion: Help.stats)

    @Argument(help: "A story folder or story.json (default: the current folder).") var path = "."
    @Flag(help: "One JSON object; counts too large for a JSON number are strings of digits.") var json = false

    func run() throws {
        let story = try StoryInput.story(path)
        let statistics = StoryStatistics(story, graph: StoryGraph(story))
        Terminal.standardOutput.write(json ? StatsWords.json(statistics).encoded + "\n" : StatsWords.text(statistics))
    }
}
