import ArgumentParser
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
        discussion: """
            Chapters are nodes (the first chapter bold, endings as octagons), choices are edges \
            labelled with their text (shortened). Unreachable chapters are dashed and grey, \
            chapters with no way out orange, and a choice to a chapter that does not exist leads \
            to a red stub. Node names are the chapter ids, so maps of two versions diff line by \
            line. svg is drawn by Graphviz's `dot` (Debian: apt-get install graphviz); text is an \
            indented tree for the terminal, each chapter once, later ways to it as back-references.
            """)

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
        case .json: rendered = Self.json(map).encoded + "\n"
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

    /// The map as data: chapters with their marks, choices with their targets (or the missing id).
    static func json(_ map: ChapterMap) -> JSONValue {
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
