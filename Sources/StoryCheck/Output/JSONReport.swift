#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import StoryFormat

/// One JSON object: each file with its findings and summary, then the totals.
enum JSONReport {
    /// Written by hand, streaming into one buffer: a flood of 100,000 findings through
    /// Foundation's JSONEncoder took 1.5 s and 440 MB (a dictionary per finding); this takes a
    /// fraction of that. Keys in sorted order, two-space indentation, absent optionals left out,
    /// every string through `JSONQuoting` (so no control or bidi character reaches a terminal).
    static func write(_ reports: [ResolvedReport], to sink: @escaping ReportSink) {
        var out = JSONWriter(sink: sink)
        out.open("{")
        out.key("files")
        out.open("[")
        for report in reports {
            out.element()
            out.open("{")
            out.key("diagnostics")
            out.open("[")
            for item in report.diagnostics {
                out.element()
                out.open("{")
                out.field("category", item.rule?.category.rawValue)
                out.field("code", item.diagnostic.code.rawValue)
                out.field("column", item.start.column)
                out.field("endColumn", item.end.column)
                out.field("endLine", item.end.line)
                out.field("help", item.diagnostic.help)
                out.field("line", item.start.line)
                out.field("message", item.diagnostic.message)
                out.field("name", item.rule?.name)
                out.field("pointer", item.diagnostic.pointer)
                out.key("related")
                out.open("[")
                for related in item.related {
                    out.element()
                    out.open("{")
                    out.field("column", related.position.column)
                    out.field("line", related.position.line)
                    out.field("message", related.message)
                    out.close("}")
                }
                out.close("]")
                out.field("severity", item.diagnostic.severity.rawValue)
                out.close("}")
                out.flushIfFull()
            }
            out.close("]")
            out.field("errors", report.report.count(.error))
            out.field("kind", report.report.kind.map { $0 == .authors ? "authors" : "story" })
            out.field("notes", report.report.count(.note))
            out.field("path", report.report.path)
            if let story = report.report.summary {
                out.key("story")
                out.open("{")
                out.field("authors", story.authors)
                out.field("chapters", story.chapters)
                out.key("endings")
                out.open("[")
                for ending in story.endings {
                    out.element()
                    out.string(ending)
                }
                out.close("]")
                out.field("start", story.start)
                out.field("title", story.title)
                out.field("unreachable", story.unreachable)
                out.close("}")
            }
            out.field("warnings", report.report.count(.warning))
            out.close("}")
        }
        out.close("]")
        let totals = ReportTotals(reports.map(\.report))
        out.key("summary")
        out.open("{")
        out.field("errors", totals.errors)
        out.field("files", totals.files)
        out.field("notes", totals.notes)
        out.field("warnings", totals.warnings)
        out.close("}")
        out.field("version", 1)
        out.close("}")
        out.raw("\n")
        out.finish()
    }
}

/// A small pretty-printing JSON writer: the caller emits keys in order; commas and new lines
/// are the writer's business. With a sink, what is written goes to it every 64 KiB (and at
/// `finish`), so a report of 200,000 findings is never held whole.
struct JSONWriter {
    private var bytes: [UInt8] = []
    /// For each open object or array: whether nothing has been written in it yet.
    private var empty: [Bool] = []
    private let sink: ReportSink?

    init(sink: ReportSink? = nil) {
        self.sink = sink
        bytes.reserveCapacity(sink == nil ? 0 : Self.chunk + 4096)
    }

    static let chunk = 1 << 16

    var text: String { String(decoding: bytes, as: UTF8.self) }

    /// Hands what is buffered to the sink once it has grown past a chunk.
    mutating func flushIfFull() {
        guard let sink, bytes.count >= Self.chunk else { return }
        sink(bytes)
        bytes.removeAll(keepingCapacity: true)
    }

    /// Hands the rest to the sink.
    mutating func finish() {
        guard let sink, !bytes.isEmpty else { return }
        sink(bytes)
        bytes.removeAll()
    }

    mutating func raw(_ text: String) { bytes.append(contentsOf: text.utf8) }

    mutating func field(_ name: String, _ value: Bool) {
        key(name)
        raw(value ? "true" : "false")
    }

    mutating func open(_ bracket: Character) {
        bytes.append(contentsOf: String(bracket).utf8)
        empty.append(true)
    }

    mutating func close(_ bracket: Character) {
        let wasEmpty = empty.removeLast()
        if !wasEmpty { newline() }
        bytes.append(contentsOf: String(bracket).utf8)
    }

    /// Before an array element or an object member: a comma unless it is the first, a new line.
    mutating func element() {
        if empty.last == false { bytes.append(UInt8(ascii: ",")) }
        if !empty.isEmpty { empty[empty.count - 1] = false }
        newline()
    }

    mutating func key(_ name: String) {
        element()
        string(name)
        bytes.append(contentsOf: ": ".utf8)
    }

    mutating func string(_ value: String) { JSONQuoting.append(value, to: &bytes) }

    mutating func field(_ name: String, _ value: String?) {
        guard let value else { return }
        key(name)
        string(value)
    }

    mutating func field(_ name: String, _ value: Int?) {
        guard let value else { return }
        key(name)
        bytes.append(contentsOf: String(value).utf8)
    }

    /// A line feed and the indentation of the current depth, copied from one buffer (a
    /// `repeatElement` append goes through a generic sequence copy per line, a third of a debug
    /// build's time on a report of thousands of findings).
    private mutating func newline() {
        bytes.append(UInt8(ascii: "\n"))
        var spaces = empty.count * 2
        while spaces > 0 {
            let run = min(spaces, Self.indentation.count)
            bytes.append(contentsOf: Self.indentation[0..<run])
            spaces -= run
        }
    }

    private static let indentation = [UInt8](repeating: UInt8(ascii: " "), count: 64)
}
