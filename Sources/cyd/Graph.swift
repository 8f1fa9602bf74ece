import ArgumentParser
import CydWords
import StoryAnalysis
import StoryCheck
import TerminalUI

struct Graph: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "graph",
        abstract: "Draw the chapter map: chapters, choices, and what the validator finds on them.",
        discussion: Help.graph)

    enum Format: String, ExpressibleByArgument, CaseIterable { case dot, mermaid, svg, text, json }

    @Argument(help: "A story folder or story.json (default: the current folder).") var path = "."
    @Option(help: "dot, mermaid, svg, text or json.") var format: Format = .dot
    @Option(name: .shortAndLong, help: ArgumentHelp("Write to this file instead of standard output.", valueName: "file")) var output: String?

    func run() throws {
        let story = try StoryInput.story(path)
        let map = ChapterMap(story, graph: StoryGraph(story))
        let rendered = switch format {
            case .dot: map.dot
            case .mermaid: map.mermaid
            case .text: map.text
            case .svg: try Self.svg(map)
            case .json: GraphWords.json(map).encoded + "\n"
            }
        if let output { try FileWriter.write(Array(rendered.utf8), to: output) } else { Terminal.standardOutput.write(rendered) }
    }

    /// The map through Graphviz's `dot -Tsvg`, within its time limit, its failures in words.
    static func svg(_ map: ChapterMap) throws -> String {
        let (chapters, limit) = (map.nodes.count, GraphvizDrawing.timeLimit())
        guard chapters <= GraphvizDrawing.chapterLimit else { throw CLIError(GraphWords.tooLarge(chapters: chapters)) }
        do {
            return try GraphvizDrawing.svg(map.dot, timeLimit: limit) {
                if Terminal.standardError.isTerminal { Terminal.standardError.write(GraphWords.drawing(chapters: chapters, limit: limit)) }
            }
        } catch {
            throw CLIError(GraphWords.svgProblem(error, chapters: chapters, limit: limit))
        }
    }
}
