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

    /// DOT through Graphviz's `dot -Tsvg`, within `svgSeconds`.
    static func svg(_ dot: String, chapters: Int) throws -> String {
        let candidates = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":").map { "\($0)/dot" }
        guard let program = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            throw CLIError("drawing svg needs Graphviz's `dot`, which is not installed (Debian: apt-get install graphviz); `--format dot` writes the map for it")
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = ["-Tsvg"]
        let input = Pipe()
        let output = Pipe()
        let errors = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        do { try process.run() } catch { throw CLIError("cannot start \(program) (it may not be executable)") }
        // Read and write on other threads: a large map fills the pipes both ways, and a dot that
        // stops reading must not hold cyd past the time limit. A dot that exits before it has read
        // the map closes the pipe: SIGPIPE is ignored so that cyd lives to say why (dot's own
        // words and status, below), and the write's error is dropped.
        signal(SIGPIPE, SIG_IGN)
        let collected = Collected()
        let reader = Thread {
            collected.set(output.fileHandleForReading.readDataToEndOfFile(), errors.fileHandleForReading.readDataToEndOfFile())
        }
        reader.start()
        let writer = Thread {
            try? input.fileHandleForWriting.write(contentsOf: Data(dot.utf8))
            try? input.fileHandleForWriting.close()
        }
        writer.start()
        let limit = Self.svgSeconds
        let deadline = Date().addingTimeInterval(limit)
        var told = false
        while process.isRunning {
            if Date() >= deadline {
                kill(process.processIdentifier, SIGKILL)
                process.waitUntilExit()
                throw CLIError(
                    "Graphviz's dot did not finish drawing \(plural(chapters, "chapter")) in \(Int(limit)) s and was stopped; "
                        + "`--format dot` writes the map for dot (or sfdp) to take its time, `--format text` shows it here")
            }
            if !told, Date() >= deadline.addingTimeInterval(-limit + 2), Terminal.standardError.isTerminal {
                Terminal.standardError.write("drawing \(plural(chapters, "chapter")) with Graphviz's dot (at most \(Int(limit)) s)...\n")
                told = true
            }
            usleep(5_000)
        }
        while !collected.done { usleep(1000) }
        guard process.terminationStatus == 0, process.terminationReason == .exit else {
            let said = String(decoding: collected.errors, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            let how = process.terminationReason == .uncaughtSignal ? "was killed by signal \(process.terminationStatus)" : "exited with status \(process.terminationStatus)"
            throw CLIError("Graphviz's dot failed: it \(how)" + (said.isEmpty ? " and said nothing" : ": \(VisibleText.escape(said))"))
        }
        return String(decoding: collected.output, as: UTF8.self)
    }

    final class Collected: @unchecked Sendable {
        private let lock = Lock()
        private var value: (Data, Data)?
        func set(_ output: Data, _ errors: Data) { lock.withLock { value = (output, errors) } }
        var done: Bool { lock.withLock { value != nil } }
        var output: Data { lock.withLock { value?.0 ?? Data() } }
        var errors: Data { lock.withLock { value?.1 ?? Data() } }
    }
}
