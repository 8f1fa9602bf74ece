#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import InterfaceWords
import StoryFormat
import StoryReader
import StoryStore
import TerminalPictures

/// How `cyd read` shows things: styled text on a terminal, plain text in a pipe, or one JSON
/// object per event. Every piece of story text goes through VisibleText before it is printed.
package struct ReaderScreen {
    package enum Mode { case terminal, plain, json }
    package let mode: Mode
    package let colors: Bool
    /// How pictures are drawn; always off unless the mode is terminal.
    package let pictures: PictureMode
    package let output: Terminal.Stream
    /// Where the cursor is, counted in lines, and where a picture still loading will go.
    package let tracker = ScreenTracker()
    /// cyd's own words, in the reader's languages.
    package let words: Phrasebook

    /// `output`: standard output, or (in tests) any descriptor.
    package init(mode: Mode, colors: Bool, pictures: PictureMode = .off, output: Terminal.Stream = Terminal.standardOutput, words: Phrasebook = .english) {
        self.output = output
        self.words = words
        self.mode = mode
        self.colors = colors
        self.pictures = mode == .terminal ? pictures : .off
    }

    package var width: Int {
        if mode == .terminal, let columns = Terminal.width(of: output) { return min(columns, 100) }
        if let columns = ProcessInfo.processInfo.environment["COLUMNS"].flatMap(Int.init), columns > 0 { return columns }
        return 80
    }

    package func safe(_ text: String) -> String { VisibleText.escape(text, keepLineBreaks: true) }

    /// For what must stay on one line (a path, a reason, a name): line breaks shown as ^J too, so
    /// a story cannot fake a line of cyd's own (a pic_path holding "\nThe end.").
    package func safeLine(_ text: String) -> String { VisibleText.escape(text) }

    package func style(_ text: String, _ code: String) -> String { colors ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text }

    /// What `--json` reading reports, one object a line with its name in `event`: the names are
    /// these and no others.
    package enum Event: String, Sendable, CaseIterable {
        case story, chapter, ending, error, help, message, history, quit, bookmark, bookmarks, bookmarkRemoved
        case note, notes, noteRemoved, picture, pictureSaved, pictureOpened
    }

    package func emit(_ event: Event, _ fields: [String: JSONValue]) {
        var object = fields
        object["event"] = .string(event.rawValue)
        output.write(JSONValue.object(object).encoded + "\n")
    }

    package func line(_ text: String = "") { write(text + "\n") }

    /// Writes `text`; the cursor moves down by its newlines, or by `advancing` lines when given
    /// (a picture drawn with the cursor saved and restored moves it by what it reserved).
    package func write(_ text: String, advancing: Int? = nil) {
        tracker.withLock { state in
            output.write(text)
            state.line += advancing ?? text.utf8.reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }
        }
    }

    /// Writes bytes known to hold `advancing` line feeds (a chapter's page, counted as it was made).
    package func write(_ bytes: [UInt8], advancing: Int) {
        tracker.withLock { state in
            output.write(bytes)
            state.line += advancing
        }
    }

    /// - Parameter currentTitle: the title of the chapter reading goes on from.
    /// `language`: the language the story is read in, when not its own, and how much of it is translated.
    package func storyOpened(_ story: StoryRecord, _ resumption: Resumption, currentTitle: String, language: StoryLanguage? = nil) {
        switch mode {
        case .json:
            var event: [String: JSONValue] = ["id": .number(Double(story.id)), "title": .string(story.title)]
            if let language {
                event["language"] = .string(language.language)
                event["translatedPercent"] = .number(Double(language.percent))
            }
            switch resumption {
            case .started: event["resumption"] = "started"
            case .resumed: event["resumption"] = "resumed"
            case .jumped: event["resumption"] = "jumped"
            case .chapterGone(let missing, let fallback):
                event["resumption"] = "chapterGone"
                event["missing"] = .string(missing)
                event["fallback"] = .string(fallback)
            }
            emit(.story, event)
        default:
            line(style(safe(story.title), "1"))
            if let language {
                let phrase: Phrase = language.translated < language.total ? .readerPartlyTranslated : .readerTranslated
                line(style(words(phrase, ["language": safe(language.language), "percent": String(language.percent)]), "2"))
            }
            switch resumption {
            case .started: break
            case .resumed: line(style(words[.readerWelcomeBack], "2"))
            case .jumped: line(style(words(.readerOpenedAt, ["chapter": safe(currentTitle)]), "2"))
            case .chapterGone(let missing, _):
                // The missing chapter is known only by its id (the library keeps the current
                // version); the one reading goes on from is named by its title.
                message(words(.readerStoryChanged, ["id": safe(missing)]))
                message(words(.readerStoryChangedPlace, ["chapter": safe(currentTitle)]))
            }
        }
    }

    package func chapter(_ view: ChapterView, picture: PictureState, endingsFound: Int, endingCount: Int) {
        let record = view.record
        switch mode {
        case .json:
            var event: [String: JSONValue] = [
                "key": .string(record.key), "title": .string(record.name),
                "paragraphs": .array(view.paragraphs.map { .string($0) }),
                "choices": .array(record.choices.enumerated().map { index, choice in
                    .object(["number": .number(Double(index + 1)), "text": .string(choice.label), "available": .bool(choice.isAvailable)])
                }),
                "ending": .bool(view.endsReading),
            ]
            if let path = record.picPath { event["picture"] = pictureJSON(path, picture) }
            emit(.chapter, event)
            if view.endsReading {
                emit(.ending, ["key": .string(record.key), "endingsFound": .number(Double(endingsFound)), "endingsTotal": .number(Double(endingCount))])
            }
        default:
            let width = width
            let title = safe(record.name)
            line()
            line(mode == .terminal ? style("━━ \(title) ━━", "1;36") : "== \(title) ==")
            line()
            tracker.withLock { $0.placeholder = nil }
            if let path = record.picPath, pictures != .off {
                showPicture(path, picture)
                line()
            }
            // The text in one write per 64 KB, not one per line: a huge chapter is 600,000 lines.
            var page: [UInt8] = []
            page.reserveCapacity(65536 + 4096)
            var lines = 0
            for (index, paragraph) in view.paragraphs.enumerated() {
                if index > 0 {
                    page.append(0x0A)
                    lines += 1
                }
                lines += TextLayout.wrap(safe(paragraph), width: width, appendingTo: &page)
                if page.count > 65536 {
                    write(page, advancing: lines)
                    page.removeAll(keepingCapacity: true)
                    lines = 0
                }
            }
            write(page, advancing: lines)
            if let path = record.picPath, pictures == .off {
                line()
                line(style(pictureLine(path, picture), "2"))
            }
            line()
            if view.endsReading {
                line(style(words(.readerTheEnd, ["found": String(endingsFound), "total": String(endingCount)]), "1"))
                line(style(words[.readerAfterTheEnd], "2"))
            } else {
                for (index, choice) in record.choices.enumerated() {
                    let label = safe(choice.label) + (choice.isAvailable ? "" : " " + words[.readerUnavailable])
                    let wrapped = TextLayout.wrap(label, width: width - 6, indent: "")
                    line("  " + style("\(index + 1))", "1;33") + " " + wrapped[0])
                    for more in wrapped.dropFirst() { line("     " + more) }
                }
            }
        }
    }

    // MARK: Pictures drawn

    /// The cells a chapter's picture may take: the text's width, about half the window's height.
    package func pictureBox(full: Bool = false) -> (window: Terminal.Window, columns: Int, rows: Int) {
        let window = Terminal.window(of: output) ?? Terminal.Window(columns: width, rows: 24, cell: .usual)
        if full { return (window, window.columns, max(3, window.rows - 3)) }
        return (window, min(width, window.columns), max(3, window.rows / 2))
    }

    /// Draws the picture above the chapter's text, or its placeholder while it loads, or a line
    /// saying why it cannot be shown.
    package func showPicture(_ path: String, _ state: PictureState) {
        let (window, columns, rows) = pictureBox()
        switch state {
        case .ready(let stored):
            do {
                let drawn = try PictureDrawer.draw(stored.data, mode: pictures, columns: columns, rows: rows, cell: window.cell)
                place(drawn)
            } catch {
                line(style(words(.readerPictureLineUndrawable, ["path": safeLine(path), "reason": safeLine(error.reason)]), "2"))
            }
        case .loading:
            // Room for a picture of the usual photo shape; the picture is fitted into it when it
            // arrives, drawn in place while the chapter is still on the screen.
            let area = PictureLayout.fit(width: 3, height: 2, columns: columns, rows: rows, cell: window.cell)
            let label = TextLayout.truncate(pictureLine(path, state), width: area.columns)
            tracker.withLock { $0.placeholder = .init(path: path, top: $0.line, columns: area.columns, rows: area.rows) }
            write(style(label, "2") + String(repeating: "\n", count: area.rows))
        case .failed, .none:
            line(style(pictureLine(path, state), "2"))
        }
    }

    /// Writes a drawn picture below the cursor: its rows are reserved first (scrolling if
    /// needed), then it is drawn from their top with the cursor saved, so whatever a protocol
    /// does with the cursor, the text goes on right below the picture.
    package func place(_ drawn: DrawnPicture) {
        let rows = drawn.rows
        write(String(repeating: "\n", count: rows) + "\u{1B}[\(rows)A\r\u{1B}7" + drawn.text + "\u{1B}8\u{1B}[\(rows)B\r", advancing: rows)
    }

    /// A picture that was loading has arrived (or failed): drawn into its placeholder when that
    /// is still on the screen, with the cursor (and whatever the reader is typing) left where it is.
    package func pictureSettled(_ path: String, _ state: PictureState) {
        tracker.withLock { screen in
            guard let placeholder = screen.placeholder, placeholder.path == path else { return }
            screen.placeholder = nil
            let up = screen.line - placeholder.top
            let window = pictureBox().window
            guard up > 0, up < window.rows else { return }  // scrolled away: p shows it
            var text = "\u{1B}7\u{1B}[\(up)A\r\u{1B}[2K"
            switch state {
            case .ready(let stored):
                do {
                    text += try PictureDrawer.draw(
                        stored.data, mode: pictures, columns: placeholder.columns, rows: placeholder.rows, cell: window.cell
                    ).text
                } catch {
                    text += style(TextLayout.truncate(words(.readerPictureLineUndrawable, ["path": safeLine(path), "reason": safeLine("\(error)")]), width: window.columns), "2")
                }
            default:
                text += style(TextLayout.truncate(pictureLine(path, state), width: window.columns), "2")
            }
            output.write(text + "\u{1B}8")
        }
    }

    package func pictureLine(_ path: String, _ state: PictureState) -> String {
        switch state {
        case .none: words(.readerPictureLine, ["path": safeLine(path)])
        case .loading: words(.readerPictureLoading, ["path": safeLine(path)])
        case .ready(let picture): words(.readerPictureReady, ["path": safeLine(path), "kind": describe(picture)])
        case .failed(_, let reason): words(.readerPictureLineFailed, ["path": safeLine(path), "reason": safeLine(reason)])
        }
    }

    package func pictureJSON(_ path: String, _ state: PictureState) -> JSONValue {
        switch state {
        case .none, .loading: .object(["path": .string(path), "state": "loading"])
        case .ready(let picture): .object(["path": .string(path), "state": "ready", "bytes": .number(Double(picture.data.count))])
        case .failed(_, let reason): .object(["path": .string(path), "state": "failed", "reason": .string(reason)])
        }
    }

    package func describe(_ picture: StoredPicture) -> String {
        let kind = PictureFormat.detect(Array(picture.data.prefix(12)))?.name ?? picture.mediaType ?? "unknown format"
        let size = picture.data.count < 1024 ? "\(picture.data.count) bytes" : "\(picture.data.count / 1024) KB"
        return "\(safe(kind)), \(size)"
    }


    package func message(_ text: String, event: Event = .message, fields: [String: JSONValue] = [:]) {
        if mode == .json {
            var object = fields
            object["message"] = .string(text)
            emit(event, object)
        } else {
            for part in wrapped(text) { line(part) }
        }
    }

    package func error(_ text: String) {
        if mode == .json { emit(.error, ["message": .string(text)]) } else { for part in wrapped(text) { line(style(part, "31")) } }
    }

    /// On a terminal, text wrapped to the window by display width; plain output (scripts,
    /// transcripts) keeps each message on one line.
    package func wrapped(_ text: String) -> [String] {
        mode == .terminal ? TextLayout.wrap(text, width: width) : [text]
    }

    /// The key reminder shown before each prompt (at an ending, where there is nothing to
    /// choose, it says so), from the command table; on a terminal wrapped between items.
    package func keyHints(atEnding: Bool) -> String {
        let items = ReaderCommand.keyLineItems(atEnding: atEnding, words: words)
        let lines = mode == .terminal ? TextLayout.wrapItems(items, width: width) : [items.joined(separator: " · ")]
        return lines.map { style($0, "2") }.joined(separator: "\n")
    }

    /// `?`: the command table, one command a line.
    package func help() {
        if mode == .json {
            emit(.help, ["message": .string(ReaderCommand.helpLines(words: words).joined(separator: "\n"))])
        } else {
            for row in ReaderCommand.helpLines(width: mode == .terminal ? width : nil, words: words) { line(row) }
        }
    }

    /// A line of the story picker: on a terminal the story's line wraps with a hanging indent
    /// and its source goes on a line of its own, indented and never broken by us: a path or URL
    /// longer than the window is left to the terminal's own soft wrap, which a copy joins back
    /// (a line feed put inside it would not be); plain output keeps one line a story.
    package func pickerEntry(_ head: String, source: String) {
        guard mode == .terminal else { return line(head + " · " + source) }
        let indent = "      "
        let lead = String(head.prefix { $0 == " " })
        for (index, part) in TextLayout.wrap(String(head.dropFirst(lead.count)), width: width, indent: indent).enumerated() {
            line(index == 0 ? lead + part.dropFirst(indent.count) : part)
        }
        line(style(indent + source, "2"))
    }
}

/// What the reader's screen holds: the cursor's line (counted from the start of reading) and
/// the placeholder of a picture still loading. Writes and this count change together, under
/// one lock, so a picture arriving in the background never interleaves with the page.
package final class ScreenTracker: @unchecked Sendable {
    package struct Placeholder {
        package var path: String
        /// The line the placeholder starts on.
        package var top: Int
        package var columns: Int
        package var rows: Int
    }

    package struct State {
        package var line = 0
        package var placeholder: Placeholder?
    }

    private let lock = Lock()
    private var state = State()

    package func withLock<T>(_ body: (inout State) -> T) -> T { lock.withLock { body(&state) } }
}


