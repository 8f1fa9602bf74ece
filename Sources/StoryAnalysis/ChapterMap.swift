import StoryCheck
import StoryFormat

/// The chapter map of a story: chapters as nodes, choices as edges, and what the validator
/// finds in the graph drawn on it (unreachable chapters, chapters with no way out, choices to
/// chapters that do not exist). Written as DOT, Mermaid or an indented text tree; node names are
/// the chapter ids, so the map of two versions of a story diffs line by line.
public struct ChapterMap: Sendable {
    public struct Node: Sendable, Hashable {
        public var id: String
        public var title: String
        public var isStart: Bool
        /// No choices.
        public var isEnding: Bool
        public var isUnreachable: Bool
        /// Reachable, but no ending can be reached from it.
        public var isTrap: Bool
    }

    public struct Edge: Sendable, Hashable {
        public var from: Int
        /// The chapter it leads to, or nil for a target that does not exist (`missing`).
        public var to: Int?
        public var missing: String?
        public var label: String
    }

    public var title: String
    public var nodes: [Node]
    public var edges: [Edge]
    public var start: Int?

    public init(_ story: StorySyntax, graph: StoryGraph) {
        let document = story.document
        title = story.name?.value ?? "Untitled"
        start = graph.start
        nodes = story.chapters.enumerated().map { index, chapter in
            Node(
                id: chapter.id?.value ?? "chapter \(index + 1)", title: chapter.nameNode.map { document.string($0) } ?? "",
                isStart: graph.start == index, isEnding: chapter.hasNoChoices,
                isUnreachable: graph.start != nil && !graph.reachable[index],
                isTrap: graph.reachable[index] && !graph.canFinish[index])
        }
        var edges: [Edge] = []
        for (index, chapter) in story.chapters.enumerated() {
            for (offset, choice) in story.choices(of: chapter).enumerated() {
                let label = choice.textNode.map { document.string($0) } ?? ""
                let target = Int(graph.choiceTargets[Int(chapter.choiceStart) + offset])
                if target >= 0 {
                    edges.append(Edge(from: index, to: target, missing: nil, label: label))
                } else if let name = story.target(of: choice)?.value, !name.isEmpty {
                    edges.append(Edge(from: index, to: nil, missing: name, label: label))
                }
            }
        }
        self.edges = edges
    }

    /// Choice text on an edge, cut to `limit` characters with an ellipsis.
    static func shortened(_ text: String, _ limit: Int = 32) -> String {
        let flat = text.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
        return flat.count <= limit ? flat : String(flat.prefix(limit - 1)) + "…"
    }

    // MARK: DOT

    /// Graphviz DOT: quoted ids (any text is safe inside), a legend of styles, stable order.
    public var dot: String {
        // The inside of a DOT string: controls made visible, quotes and backslashes escaped.
        func body(_ text: String) -> String {
            var out = ""
            for scalar in VisibleText.escape(text).unicodeScalars {
                switch scalar {
                case "\"": out += "\\\""
                case "\\": out += "\\\\"
                default: out.unicodeScalars.append(scalar)
                }
            }
            return out
        }
        func quote(_ text: String) -> String { "\"" + body(text) + "\"" }
        var lines = ["digraph story {", "  label=\(quote(title)); labelloc=t;", "  node [shape=box, style=rounded, fontname=\"Helvetica\"];",
                     "  edge [fontname=\"Helvetica\", fontsize=10];"]
        for node in nodes {
            // Title over id, on two lines (DOT's \n inside a string).
            var attributes = ["label=" + (node.title.isEmpty ? quote(node.id) : "\"\(body(node.title))\\n(\(body(node.id)))\"")]
            if node.isStart { attributes.append("shape=box, style=\"rounded,bold\", penwidth=2") }
            if node.isEnding { attributes.append("shape=doubleoctagon") }
            if node.isUnreachable { attributes.append("style=\"rounded,dashed\", color=gray50, fontcolor=gray50") }
            if node.isTrap { attributes.append("color=orange, fontcolor=orange") }
            lines.append("  \(quote(node.id)) [\(attributes.joined(separator: ", "))];")
        }
        var stubs: [String] = []
        for edge in edges {
            let label = "label=\(quote(Self.shortened(edge.label)))"
            if let to = edge.to {
                lines.append("  \(quote(nodes[edge.from].id)) -> \(quote(nodes[to].id)) [\(label)];")
            } else if let missing = edge.missing {
                let stub = "missing: " + missing
                if !stubs.contains(stub) {
                    stubs.append(stub)
                    lines.append("  \(quote(stub)) [label=\(quote("no chapter '\(missing)'")), shape=box, style=dashed, color=red, fontcolor=red];")
                }
                lines.append("  \(quote(nodes[edge.from].id)) -> \(quote(stub)) [\(label), color=red, fontcolor=red];")
            }
        }
        lines.append("}")
        return lines.joined(separator: "\n") + "\n"
    }

    // MARK: Mermaid

    /// A Mermaid flowchart (GitHub renders these in Markdown). Node keys are `c` and the chapter's
    /// position, since Mermaid ids cannot hold arbitrary text; labels carry the ids.
    public var mermaid: String {
        func label(_ text: String) -> String {
            // Mermaid labels in quotes, written with its entity codes: a quote cannot end the
            // label early, and markup (`<script>`, `<b>`, a Markdown string's backticks) is text.
            var out = "\""
            for character in VisibleText.escape(text) {
                switch character {
                case "#": out += "#35;"
                case "\"": out += "#quot;"
                case "<": out += "#lt;"
                case ">": out += "#gt;"
                case "&": out += "#amp;"
                case "`": out += "#96;"
                default: out.append(character)
                }
            }
            return out + "\""
        }
        var lines = ["flowchart TD"]
        for (index, node) in nodes.enumerated() {
            let text = label(node.title.isEmpty ? node.id : "\(node.title) (\(node.id))")
            lines.append(node.isEnding ? "  c\(index)([\(text)])" : node.isStart ? "  c\(index)[[\(text)]]" : "  c\(index)[\(text)]")
        }
        var stubs: [String: Int] = [:]
        for edge in edges {
            let from = "c\(edge.from)"
            let text = label(Self.shortened(edge.label))
            if let to = edge.to {
                lines.append("  \(from) -->|\(text)| c\(to)")
            } else if let missing = edge.missing {
                let key = stubs[missing] ?? stubs.count
                if stubs[missing] == nil {
                    stubs[missing] = key
                    lines.append("  missing\(key)[\(label("no chapter '\(missing)'"))]")
                }
                lines.append("  \(from) -.->|\(text)| missing\(key)")
            }
        }
        lines.append("  classDef unreachable stroke-dasharray: 5 5, color:#777")
        lines.append("  classDef trap stroke:#e69500, color:#e69500")
        lines.append("  classDef missing stroke:#d00, color:#d00, stroke-dasharray: 3 3")
        let unreachable = nodes.indices.filter { nodes[$0].isUnreachable }.map { "c\($0)" }
        let traps = nodes.indices.filter { nodes[$0].isTrap }.map { "c\($0)" }
        if !unreachable.isEmpty { lines.append("  class \(unreachable.joined(separator: ",")) unreachable") }
        if !traps.isEmpty { lines.append("  class \(traps.joined(separator: ",")) trap") }
        if !stubs.isEmpty { lines.append("  class \(stubs.values.sorted().map { "missing\($0)" }.joined(separator: ",")) missing") }
        return lines.joined(separator: "\n") + "\n"
    }

    // MARK: Text

    /// An indented tree from the start for the terminal: each chapter once, where it is first
    /// met; later ways to it are back-references (`→ 'id' (above)`), loops marked `↺`. Chapters no
    /// way reaches are listed after. Iterative: a 100k-chapter chain needs no deep stack; past a
    /// depth of 24 the depth is shown as `[depth]`, so the output grows with the story, not its
    /// depth squared.
    static let deepest = 24

    public var text: String {
        var out: [String] = []
        func name(_ index: Int) -> String {
            let node = nodes[index]
            var marks: [String] = []
            if node.isEnding { marks.append("ending") }
            if node.isTrap { marks.append("no way out") }
            return "'\(VisibleText.escape(node.id))' \(VisibleText.escape(node.title))" + (marks.isEmpty ? "" : " [\(marks.joined(separator: ", "))]")
        }
        var outgoing = [[Int]](repeating: [], count: nodes.count)
        for (position, edge) in edges.enumerated() { outgoing[edge.from].append(position) }
        var shown = [Bool](repeating: false, count: nodes.count)
        var onPath = [Bool](repeating: false, count: nodes.count)
        // Frames: a chapter and the next of its choices to draw.
        var stack: [(node: Int, next: Int, depth: Int)] = []
        if let start {
            out.append(name(start))
            shown[start] = true
            onPath[start] = true
            stack.append((start, 0, 0))
        } else {
            out.append("(no chapter is marked \"is_first_chapter\": true)")
        }
        while var frame = stack.popLast() {
            guard frame.next < outgoing[frame.node].count else {
                onPath[frame.node] = false
                continue
            }
            let edge = edges[outgoing[frame.node][frame.next]]
            frame.next += 1
            stack.append(frame)
            // Past a depth of 24 the depth is written as a number, not spaces: a 100k-chapter
            // chain would otherwise print billions of spaces.
            let depth = frame.depth + 1
            let indent = depth <= Self.deepest ? String(repeating: "  ", count: depth)
                : String(repeating: "  ", count: Self.deepest) + "[\(depth)] "
            let choice = "\"\(VisibleText.escape(Self.shortened(edge.label)))\""
            guard let to = edge.to else {
                out.append("\(indent)\(choice) ✗ no chapter '\(VisibleText.escape(edge.missing ?? ""))'")
                continue
            }
            if onPath[to] {
                out.append("\(indent)\(choice) ↺ '\(VisibleText.escape(nodes[to].id))' (loop)")
            } else if shown[to] {
                out.append("\(indent)\(choice) → '\(VisibleText.escape(nodes[to].id))' (above)")
            } else {
                out.append("\(indent)\(choice) → \(name(to))")
                shown[to] = true
                onPath[to] = true
                stack.append((to, 0, frame.depth + 1))
            }
        }
        let unreached = nodes.indices.filter { !shown[$0] }
        if !unreached.isEmpty {
            out.append("")
            out.append("Not reachable from the start (\(unreached.count)):")
            for index in unreached { out.append("  " + name(index)) }
        }
        return out.joined(separator: "\n") + "\n"
    }
}

extension String {
    func replacingAll(_ target: Character, with replacement: String) -> String {
        var out = ""
        for character in self { if character == target { out += replacement } else { out.append(character) } }
        return out
    }
}
