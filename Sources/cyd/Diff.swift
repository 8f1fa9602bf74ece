import ArgumentParser
import CydWords
import StoryDiff
import TerminalUI

struct Diff: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "diff", abstract: "What a change does to a story: chapters, choices, text, endings, playthroughs, findings, translations.", discussion: Help.diff)

    @Argument(help: ArgumentHelp("The story before: a folder, a story.json, or a git revision of the story's repository (HEAD~1, main).", valueName: "old")) var old: String
    @Argument(help: ArgumentHelp("The story after, named the same ways (default: the story's folder as it is now).", valueName: "new")) var new: String?
    @Option(help: ArgumentHelp("The story's folder, where revisions are read from (default: the current folder).", valueName: "folder")) var story = "."
    @Option(help: "text, markdown (a pull request's comment, a job summary), json, or outline (OLD alone, a chapter a paragraph: git's textconv).") var format: DiffWords.Format = .text

    func run() throws {
        if format == .outline { return Terminal.standardOutput.write(try DiffWords.outline(StoryVersion.result(old, storyFolder: story))) }
        let changes = StoryChanges(old: old, new: new ?? story, storyFolder: story)
        Terminal.standardOutput.write(DiffWords.report(changes, format: format, colour: Terminal.useColor(.auto, for: Terminal.standardOutput)))
        Terminal.end(changes.old.problem != nil || changes.new.problem != nil ? 1 : 0)  // the stories are freed with the process, at once
    }
}

extension DiffWords.Format: ExpressibleByArgument {}
