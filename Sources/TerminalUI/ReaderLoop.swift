#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import InterfaceWords
import LocalFiles
import StoryAnalysis
import StoryFormat
import StoryReader
import StoryStore
import TerminalPictures

/// The reader's command loop in a terminal (or a pipe): a line read, the command it names
/// (`ReaderCommand`), the session moved, the screen told. What only the command line may say
/// (how to come back to the story, a storage error's remedy) comes in `Words`; where lines come
/// from is `input`, so the loop runs in-process in its tests.
package struct ReaderLoop {
    /// The command line's words for what the loop says.
    package struct Words {
        /// Said on quitting in a terminal (and on Ctrl-C): where the place is kept, how to return.
        package var farewell: String
        /// A storage error in words, its remedy included.
        package var library: (LibraryError) -> String

        package init(farewell: String, library: @escaping (LibraryError) -> String) {
            self.farewell = farewell
            self.library = library
        }
    }

    package let session: ReadingSession
    package let screen: ReaderScreen
    package let interactive: Bool
    package let words: Words
    /// The next line, nil at the end of input.
    package let input: () -> String?

    /// Lines from the line editor on a terminal, else from standard input.
    package init(session: ReadingSession, screen: ReaderScreen, interactive: Bool, words: Words, input: (() -> String?)? = nil) {
        self.session = session
        self.screen = screen
        self.interactive = interactive
        self.words = words
        self.input = input ?? (interactive ? { LineEditor.readLine(prompt: "> ") } : { readLine() })
    }

    package func showChapter() throws {
        screen.chapter(
            session.current, picture: session.picture(), endingsFound: try session.endingsFound().count, endingCount: session.endingCount)
        // A picture that arrived while its placeholder was being written found no placeholder
        // yet: it is drawn now (drawing a placeholder twice is harmless: the first draw ends it).
        if screen.pictures != .off, screen.tracker.withLock({ $0.placeholder != nil }), let path = session.current.record.picPath {
            let state = session.picture()
            switch state {
            case .ready, .failed: screen.pictureSettled(path, state)
            default: break
            }
        }
        if let unsaved = session.unsaved {
            screen.error(screen.words(.readerPlaceNotSaved, ["reason": VisibleText.escape(unsaved.description)]))
        }
    }

    package func run() throws {
        // Ctrl-C says where the place is kept too (the session saves after every move).
        if screen.mode == .terminal { Terminal.setInterruptFarewell(farewell) }
        try showChapter()
        while true {
            if interactive { screen.write(screen.keyHints(atEnding: session.current.record.choices.isEmpty) + "\n") }
            let typed = input()
            // The line typed ends with a newline the terminal shows.
            if interactive { screen.tracker.withLock { $0.line += 1 } }
            guard let raw = typed else {
                // Ctrl-D on a terminal: end on a fresh line, not after the prompt.
                if interactive { Terminal.standardOutput.write("\n") }
                break
            }
            let line = raw.trimmingBlanks
            // A transcript (`cyd test --write`) annotates the choices: `# comment`, `> chapter`
            // after a choice and `= ending` at the end are for `cyd test --replay`, not commands.
            switch Transcript.kind(of: line) {
            case .blankOrComment, .step(.expectChapter(_)), .step(.expectEnding(_)): continue
            case .step(.choose(_)), .other: break
            }
            let (command, argument) = split(line)
            do {
                if let number = Int(line) {
                    try session.choose(number)
                    try showChapter()
                    continue
                }
                switch ReaderCommand.find(command)?.action {
                case .quit:
                    sayWherePlaceIsKept()
                    return
                case .back:
                    if try session.back() { try showChapter() } else { screen.error(screen.words[.readerAtStart]) }
                case .restart:
                    try session.restart()
                    try showChapter()
                case .bookmark:
                    let (name, change) = try session.placeBookmark(argument)
                    let here = screen.safe(session.current.record.name)
                    let text = switch change {
                    case .added: screen.words(.readerBookmarked, ["chapter": here, "bookmark": screen.safeLine(name)])
                    case .alreadyHere: screen.words(.readerBookmarkAlreadyHere, ["bookmark": screen.safeLine(name), "chapter": here])
                    case .moved(let from): screen.words(.readerBookmarkMoved, ["bookmark": screen.safeLine(name), "from": screen.safe(from), "chapter": here])
                    }
                    screen.message(text, event: .bookmark, fields: ["name": .string(name)])
                case .jump:
                    if argument.isEmpty { try listBookmarks() } else {
                        try session.jump(to: argument)
                        try showChapter()
                    }
                case .unmark:
                    if argument.isEmpty {
                        let names = try session.bookmarks().map { "'\(screen.safe($0.name))'" }
                        screen.error(names.isEmpty ? screen.words[.readerDeleteHowNone] : screen.words(.readerDeleteHow, ["bookmarks": names.joined(separator: ", ")]))
                    } else if try session.removeBookmark(argument) {
                        screen.message(screen.words(.readerBookmarkRemoved, ["bookmark": screen.safe(argument)]), event: .bookmarkRemoved, fields: ["name": .string(argument)])
                    } else {
                        screen.error(screen.words(.readerNoSuchBookmark, ["bookmark": screen.safe(argument)]))
                    }
                case .note:
                    try note(argument)
                case .history:
                    let path = try session.path()
                    if screen.mode == .json {
                        screen.emit(.history, ["chapters": .array(path.map { .string($0.key) })])
                    } else {
                        for (index, step) in path.enumerated() { screen.line("  \(index + 1). \(screen.safe(step.name))") }
                    }
                case .picture:
                    try picture(argument)
                case .help:
                    screen.help()
                case .choose, .unnote, .name:
                    // Numbers choose (above); `n -N` removes a note; the name is asked at the start.
                    screen.error(screen.words(.readerNotACommand, ["typed": screen.safe(line)]))
                case nil:
                    screen.error(screen.words(.readerNotACommand, ["typed": screen.safe(line)]))
                }
            } catch let error as ReadingError {
                screen.error(error.description)
            } catch LibraryError.storyRemoved(let title) {
                screen.error(LibraryError.storyRemoved(title: VisibleText.escape(title)).description)
                return
            } catch {
                // A storage error (a full disk, a read-only library) is shown, and reading goes on.
                guard let worded = LibraryError.worded(error, path: session.library.location.databasePath) else { throw error }
                screen.error(VisibleText.escape(words.library(worded)))
            }
        }
        sayWherePlaceIsKept()
    }

    /// The last words of a reading session: where the place is kept and how to come back.
    func sayWherePlaceIsKept() {
        if screen.mode == .json {
            screen.emit(.quit, ["library": .string(session.library.location.databasePath), "story": .number(Double(session.story.id))])
            return
        }
        // Plain output is for scripts and transcripts: it stays as it was.
        guard screen.mode == .terminal else { return }
        screen.message(farewell)
    }

    var farewell: String { words.farewell }

    func split(_ line: String) -> (String, String) {
        guard let space = line.firstIndex(of: " ") else { return (line.lowercased(), "") }
        return (line[..<space].lowercased(), String(line[line.index(after: space)...]).trimmingBlanks)
    }

    func listBookmarks() throws {
        let marks = try session.bookmarks()
        if screen.mode == .json {
            screen.emit(.bookmarks, ["bookmarks": .array(marks.map {
                .object(["name": .string($0.name), "key": .string($0.chapterKey), "title": .string(session.chapterTitle($0.chapterKey))])
            })])
        } else if marks.isEmpty {
            screen.line(screen.words[.readerNoBookmarks])
        } else {
            // Readers know chapters by their titles; ids are the author's.
            for mark in marks { screen.line("  \(screen.safe(mark.name)) → \(screen.safe(session.chapterTitle(mark.chapterKey)))") }
        }
    }

    func note(_ text: String) throws {
        if text.isEmpty {
            let notes = try session.notes()
            if screen.mode == .json {
                screen.emit(.notes, ["notes": .array(notes.map {
                    .object(["id": .number(Double($0.id)), "key": .string($0.chapterKey), "title": .string(session.chapterTitle($0.chapterKey)), "text": .string($0.body)])
                })])
            } else if notes.isEmpty {
                screen.line(screen.words[.readerNoNotes])
            } else {
                for note in notes { screen.line("  #\(note.id) [\(screen.safe(session.chapterTitle(note.chapterKey)))] \(screen.safe(note.body))") }
            }
        } else if text.hasPrefix("-"), let id = Int64(text.dropFirst()) {
            if try session.removeNote(id) { screen.message(screen.words(.readerNoteRemoved, ["number": String(id)]), event: .noteRemoved, fields: ["id": .number(Double(id))]) } else {
                screen.error(screen.words(.readerNoSuchNote, ["number": String(id)]))
            }
        } else if text.hasPrefix("-"), !text.contains(" ") {
            // One word after a dash looks like a mistyped removal, not a note.
            screen.error(screen.words(.readerNotANoteNumber, ["typed": screen.safe(String(text.dropFirst()))]))
        } else {
            let id = try session.addNote(text)
            screen.message(screen.words(.readerNoteSaved, ["number": String(id)]), event: .note, fields: ["id": .number(Double(id))])
        }
    }

    func picture(_ argument: String) throws {
        guard let path = session.current.record.picPath else {
            screen.error(screen.words[.readerNoPicture])
            return
        }
        let (action, target) = split(argument)
        guard ["", "save", "save!", "open", "retry"].contains(action) else {
            return screen.error(screen.words(.readerNotAPictureCommand, ["typed": screen.safe(argument)]))
        }
        // What the picture shows, in the author's words (`pic_alt`), when they gave them.
        let shows = session.current.record.picAlt.map { screen.words(.readerPictureShows, ["alt": screen.safeLine($0)]) } ?? ""
        let alt: JSONValue = session.current.record.picAlt.map { .string($0) } ?? .null
        var state = action == "retry" ? session.retryPicture() : session.waitForPicture()
        if action == "retry" { state = session.waitForPicture() }
        guard case .ready(let picture) = state else {
            if case .failed(_, let reason) = state {
                screen.message(screen.words(.readerPictureFailed, ["path": screen.safeLine(path), "reason": screen.safe(reason), "shows": shows]),
                    event: .picture, fields: ["path": .string(path), "state": "failed", "reason": .string(reason), "alt": alt])
            } else {
                screen.message(screen.words(.readerPictureStillLoading, ["path": screen.safeLine(path)]), event: .picture, fields: ["path": .string(path), "state": "loading"])
            }
            return
        }
        switch action {
        case "save", "save!":
            guard !target.isEmpty else { return screen.error(screen.words[.readerSaveWhere]) }
            // A folder gets the write's own answer ("... is a folder"); a file is kept unless asked.
            if action == "save", let status = FileStatus(target), !status.isDirectory {
                return screen.error(screen.words(.readerSaveExists, ["file": screen.safeLine(target)]))
            }
            do {
                try FileWriter.write(picture.data, to: target)
            } catch {
                return screen.error(screen.words(.readerPictureNotSaved, ["reason": error.description]))
            }
            screen.message(screen.words(.readerPictureSaved, ["path": screen.safeLine(path), "file": screen.safeLine(target)]), event: .pictureSaved, fields: ["file": .string(target)])
        case "open":
            let folder = session.library.location.cacheDirectory + "/pictures"
            let name = String(path.split(separator: "/").last ?? "picture").filter { $0.isLetter || $0.isNumber || $0 == "." || $0 == "-" || $0 == "_" }
            let file = folder + "/\(session.story.id)-" + (name.isEmpty ? "picture" : name)
            do {
                try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
                try FileWriter.write(picture.data, to: file)
            } catch {
                return screen.error(screen.words(.readerPictureNotOpened, ["reason": error.description]))
            }
            if Terminal.launch("xdg-open", [file]) {
                screen.message(screen.words(.readerPictureOpened, ["file": screen.safeLine(file)]), event: .pictureOpened, fields: ["file": .string(file)])
            } else {
                screen.message(screen.words(.readerPictureSavedNoOpener, ["file": screen.safeLine(file)]), event: .pictureSaved, fields: ["file": .string(file)])
            }
        default:
            if screen.pictures != .off {
                // p draws it as large as the window allows.
                let (window, columns, rows) = screen.pictureBox(full: true)
                do {
                    screen.place(try PictureDrawer.draw(picture.data, mode: screen.pictures, columns: columns, rows: rows, cell: window.cell))
                } catch {
                    screen.error(screen.words(.readerPictureCannotBeDrawn, ["path": screen.safeLine(path), "reason": screen.safe(error.reason)]))
                }
            }
            screen.message(
                screen.words(.readerPictureStored, ["path": screen.safeLine(path), "kind": screen.describe(picture), "shows": shows]),
                event: .picture, fields: ["path": .string(path), "state": "ready", "bytes": .number(Double(picture.data.count)), "alt": alt])
        }
    }
}

