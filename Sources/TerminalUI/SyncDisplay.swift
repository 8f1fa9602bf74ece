#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import StoryFormat
import StorySync

/// Progress for `cyd sync`: on a terminal, an overall bar with the repositories being checked,
/// and a line for each story that is new, updated or failed; elsewhere, plain lines.
package final class SyncDisplay: @unchecked Sendable {
    package let stream: Terminal.Stream
    package let live: Bool
    package let verbose: Bool
    private let lock = Lock()
    private var active: [String] = []
    private var done = 0
    private var total = 0
    private var drawn = false

    package init(stream: Terminal.Stream, verbose: Bool) {
        self.stream = stream
        self.live = stream.isTerminal && ProcessInfo.processInfo.environment["TERM"] != "dumb"
        self.verbose = verbose
    }

    package func handle(_ event: SyncEvent) {
        lock.withLock {
            switch event {
            case .discovering(let author, let index, let count):
                if live { draw("finding the stories of \(VisibleText.escape(author)) (\(index + 1) of \(count))") }
            case .checking(let count):
                total = count
                if !live, count > 0 { stream.write("checking \(plural(count, "repository", "repositories"))\n") }
            case .started(let id):
                active.append(id)
                if live { drawBar() }
            case .finished(let item, let done, _):
                self.done = done
                active.removeAll { $0 == item.id }
                if let line = line(for: item) {
                    if live { clear() }
                    TextLayout.write(line, to: stream, indent: "         ")
                }
                if live { drawBar() }
            }
        }
    }

    /// A line for a story that is new or updated (failures are listed once, at the end).
    package func line(for item: SyncReport.Item) -> String? {
        let id = VisibleText.escape(item.id)
        let title = item.title.map { " \u{201C}\(VisibleText.escape($0))\u{201D}" } ?? ""
        switch item.change {
        case .new: return "new      \(id)\(title)"
        case .updated: return "updated  \(id)\(title)"
        case .removed: return "removed  \(id)\(title)"
        case .failed, .broken, .unreachable: return nil  // printed once, in the list at the end
        case .unchanged, .recent, .notStory:
            return verbose ? "\(item.change.rawValue.padding(8)) \(id)\(title)" : nil
        }
    }

    private func drawBar() {
        let width = 24
        let filled = total == 0 ? 0 : width * done / total
        let bar = String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled)
        draw("[\(bar)] \(done)/\(total)  \(active.prefix(3).map { VisibleText.escape($0) }.joined(separator: ", "))")
    }

    private func draw(_ text: String) {
        let columns = Terminal.width(of: stream) ?? 80
        stream.write("\r\u{1B}[2K" + TextLayout.truncate(text, width: max(10, columns - 1)))
        drawn = true
    }

    private func clear() {
        if drawn { stream.write("\r\u{1B}[2K") }
        drawn = false
    }

    package func finish() { lock.withLock { if live { clear() } } }
}

package extension String {
    func padding(_ width: Int) -> String { count >= width ? self : self + String(repeating: " ", count: width - count) }
}

