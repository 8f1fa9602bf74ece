import ArgumentParser
import CydWords
#if canImport(FoundationEssentials)
import FoundationEssentials
#endif
import Foundation
#if canImport(Glibc)
import Glibc
#endif
import StoryAnalysis
import StoryCheck
import StoryFormat
import TerminalUI

struct Graph: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "graph",
        abstract: "Draw the chapter map: chapters, choices, and what the validator finds on them.",
        discussion: Help.graph)

    enum Format: String, ExpressibleByArgument, CaseIterable { case dot, mermaid, svg, text, json }

    @Argument(help: "A story folder or story.json (default: the current folder).")
    var path = "."

    @Option(help: "dot, mermaid, svg, text or json.")
    var format: Format = .dot

    @Option(name: .shortAndLong, help: ArgumentHelp("Write to this file instead of standard output.", valueName: "file"))
    var output: String?

    func run() throws {
        let story = try StoryInput.story(path)
        let map = ChapterMap(story, graph: StoryGraph(story))
        let rendered: String
        switch format {
        case .dot: rendered = map.dot
        case .mermaid: rendered = map.mermaid
        case .text: rendered = map.text
        case .svg:
            guard map.nodes.count <= Self.svgChapterLimit else {
                throw CLIError(
                    "the map has \(map.nodes.count) chapters, more than Graphviz's dot can lay out in reasonable time (svg is drawn for at most \(Self.svgChapterLimit)); "
                        + "`--format dot` writes the map for Graphviz's own tools (sfdp handles large maps), `--format text` shows it here")
            }
            rendered = try Self.svg(map.dot, chapters: map.nodes.count)
        case .json: rendered = GraphWords.json(map).encoded + "\n"
        }
        if let output {
            do {
                try FileWriter.write(Array(rendered.utf8), to: output)
            } catch {
                throw CLIError(error.description)
            }
        } else {
            Terminal.standardOutput.write(rendered)
        }
    }

    /// Above this many chapters svg is refused at once: dot's layout grows much faster than the
    /// map (a random 200-chapter map with several choices a chapter already takes minutes).
    static let svgChapterLimit = 2_000

    /// How long dot may take (CYD_GRAPH_SECONDS overrides): past it, dot is stopped and the
    /// reason said, rather than leaving the author waiting without end.
    static var svgSeconds: Double {
        ProcessInfo.processInfo.environment["CYD_GRAPH_SECONDS"].flatMap(Double.init).map { max(0.1, min($0, 3600)) } ?? 60
    }

    /// DOT through Graphviz's `dot -Tsvg`, within `svgSeconds`, its failures in words.
    static func svg(_ dot: String, chapters: Int) throws -> String {
        let limit = Self.svgSeconds
        do {
            return try GraphvizDrawing.svg(dot, timeLimit: limit) {
                if Terminal.standardError.isTerminal {
                    Terminal.standardError.write("drawing \(plural(chapters, "chapter")) with Graphviz's dot (at most \(Int(limit)) s)...\n")
                }
            }
        } catch {
            switch error {
            case .notInstalled:
                throw CLIError("drawing svg needs Graphviz's `dot`, which is not installed (Debian: apt-get install graphviz); `--format dot` writes the map for it")
            case .cannotStart(let program):
                throw CLIError("cannot start \(VisibleText.escape(program)) (it may not be executable)")
            case .timedOut:
                throw CLIError(
                    "Graphviz's dot did not finish drawing \(plural(chapters, "chapter")) in \(Int(limit)) s and was stopped; "
                        + "`--format dot` writes the map for dot (or sfdp) to take its time, `--format text` shows it here")
            case .failed(let signal, let status, let said):
                let how = signal.map { "was killed by signal \($0)" } ?? "exited with status \(status)"
                throw CLIError("Graphviz's dot failed: it \(how)" + (said.isEmpty ? " and said nothing" : ": \(VisibleText.escape(said))"))
            }
        }
    }
}
