#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import StoryFormat
import StoryStore

/// A chapter as the reader sees it: the name filled in, choices numbered.
public struct ChapterView: Sendable, Equatable {
    public var record: ChapterRecord
    /// The text with [[name]] replaced, split into paragraphs.
    public var paragraphs: [String]
    /// Reading ends here (no choices).
    public var endsReading: Bool { record.endsReading }
}

/// How a session began.
public enum Resumption: Sendable, Equatable {
    case started
    case resumed
    /// The reader's chapter is gone from the current version of the story; they are at `fallback`
    /// (their last chapter that still exists, or the start) and may choose the start instead.
    case chapterGone(missing: String, fallback: String)
    /// Opened at a chapter asked for (`jump(toChapter:)`), whatever the reader's place was.
    case jumped
}

public enum ReadingError: Error, Equatable, CustomStringConvertible {
    case noSuchChoice(Int, available: Int)
    case unavailableChoice(String)
    case noSuchBookmark(String)
    case chapterMissing(String)

    public var description: String {
        switch self {
        case .noSuchChoice(let number, let available):
            available == 0 ? "there are no choices here" : "there is no choice \(number); choose 1 to \(available)"
        case .unavailableChoice(let target): "that choice leads to '\(VisibleText.escape(target))', which is not in this story"
        case .noSuchBookmark(let name): "no bookmark named '\(VisibleText.escape(name))'"
        case .chapterMissing(let key): "chapter '\(VisibleText.escape(key))' is not in this story"
        }
    }
}

/// One reader reading one story: where they are, where they have been, and everything they
/// can do there. Progress is saved after every move. No terminal code: the CLI, an app or a
/// bot can drive it.
public final class ReadingSession {
    public let library: StoryLibrary
    public let story: StoryRecord
    public let profile: String
    /// Replaces [[name]]; nil leaves the placeholder as written.
    public var firstName: String?
    /// Where the reader is, as they see it. Made when first asked for, so a session that opens
    /// at one chapter and goes on from another never lays out the first.
    public var current: ChapterView {
        if let shown { return shown }
        let made = view(place)
        shown = made
        return made
    }
    /// The current chapter as stored, and its view once made.
    private var place: ChapterRecord
    private var shown: ChapterView?
    /// The first chapter as `init` read it, until `begin` goes there (or elsewhere): starting
    /// reads it once, not twice.
    private var opening: ChapterRecord?
    /// Chapters before the current one, oldest first.
    public private(set) var history: [String]
    public let pictures: PictureFetcher
    /// The language the story is read in (one it has: `StoryLibrary.languages(of:)`); nil for
    /// its own. What is not translated is shown as the author wrote it.
    public let language: String?

    public init(
        library: StoryLibrary, story: StoryRecord, profile: String, firstName: String?, pictures: PictureFetcher? = nil, language: String? = nil
    ) throws {
        self.language = language
        self.library = library
        self.story = story
        self.profile = profile
        self.firstName = firstName
        self.pictures = pictures ?? PictureFetcher(library: library, source: nil)
        guard let first = try library.chapter(story.firstChapter, of: story, language: language) else { throw ReadingError.chapterMissing(story.firstChapter) }
        history = []
        place = first
        opening = first
    }

    /// A chapter from the library, or the one `init` read when it is that one.
    private func stored(_ key: String) throws -> ChapterRecord? {
        if let opened = opening, opened.key == key {
            opening = nil
            return opened
        }
        opening = nil
        return try library.chapter(key, of: story, language: language)
    }

    private func show(_ chapter: ChapterRecord) {
        place = chapter
        shown = nil
    }

    /// Resumes where the reader left off, or starts (with `restart`, always starts).
    @discardableResult
    public func begin(restart: Bool = false) throws -> Resumption {
        defer { opening = nil }
        guard !restart, let progress = try library.progress(profile: profile, story: story) else {
            try go(to: story.firstChapter, keepingHistory: [])
            return .started
        }
        if let chapter = try stored(progress.chapterKey) {
            history = progress.history
            show(chapter)
            return .resumed
        }
        // The story changed under the reader: fall back to the last chapter of their path that exists.
        var path = progress.history
        while let last = path.popLast() {
            if try library.chapterExists(last, in: story) {
                try go(to: last, keepingHistory: path)
                return .chapterGone(missing: progress.chapterKey, fallback: last)
            }
        }
        try go(to: story.firstChapter, keepingHistory: [])
        return .chapterGone(missing: progress.chapterKey, fallback: story.firstChapter)
    }

    /// Takes choice `number` (1-based).
    @discardableResult
    public func choose(_ number: Int) throws -> ChapterView {
        let choices = place.choices
        guard (1...max(1, choices.count)).contains(number), number <= choices.count else {
            throw ReadingError.noSuchChoice(number, available: choices.count)
        }
        let choice = choices[number - 1]
        guard choice.isAvailable else { throw ReadingError.unavailableChoice(choice.target) }
        try go(to: choice.target, keepingHistory: history + [place.key])
        return current
    }

    /// Goes back to the previous chapter; false at the start.
    @discardableResult
    public func back() throws -> Bool {
        var path = history
        while let previous = path.popLast() {
            if try library.chapterExists(previous, in: story) {
                try go(to: previous, keepingHistory: path)
                return true
            }
        }
        return false
    }

    public func restart() throws { try go(to: story.firstChapter, keepingHistory: []) }

    /// The path so far, as (key, name), the current chapter last.
    public func path() throws -> [(key: String, name: String)] {
        let keys = history + [place.key]
        let names = try library.chapterNames(keys, of: story, language: language)
        return keys.map { ($0, names[$0] ?? $0) }
    }

    // MARK: Endings

    public func endingsFound() throws -> [String] { try library.endingsFound(profile: profile, story: story) }
    public var endingCount: Int { story.endingCount }

    // MARK: Bookmarks and notes

    @discardableResult
    public func bookmark(_ name: String? = nil) throws -> String { try placeBookmark(name).name }

    /// What placing a bookmark did.
    public enum BookmarkChange: Sendable, Hashable {
        case added
        /// It was on this chapter already.
        case alreadyHere
        /// It was on another chapter, named here by its title.
        case moved(from: String)
    }

    /// Bookmarks the current chapter (by default under the chapter's title) and says whether
    /// the name was new, already here, or moved from another chapter.
    public func placeBookmark(_ name: String? = nil) throws -> (name: String, change: BookmarkChange) {
        let name = name.flatMap { $0.isEmpty ? nil : $0 } ?? place.name
        let previous = try bookmarks().first { $0.name == name }
        try library.addBookmark(name, chapterKey: place.key, profile: profile, story: story)
        guard let previous else { return (name, .added) }
        if previous.chapterKey == place.key { return (name, .alreadyHere) }
        return (name, .moved(from: chapterTitle(previous.chapterKey)))
    }

    /// What readers call a chapter: its title; its id only when the story no longer has it (a
    /// bookmark or note kept across an update that removed the chapter) or it has no title.
    public func chapterTitle(_ key: String) -> String {
        guard let chapter = (try? library.chapter(key, of: story, language: language)) ?? nil, !chapter.name.isEmpty else { return key }
        return chapter.name
    }

    public func bookmarks() throws -> [Bookmark] { try library.bookmarks(profile: profile, story: story) }

    @discardableResult
    public func removeBookmark(_ name: String) throws -> Bool { try library.removeBookmark(name, profile: profile, story: story) }

    /// Jumps to a bookmark; the current chapter goes on the history, so "back" returns.
    public func jump(to name: String) throws {
        guard let mark = try bookmarks().first(where: { $0.name == name }) else { throw ReadingError.noSuchBookmark(name) }
        guard try library.chapterExists(mark.chapterKey, in: story) else { throw ReadingError.chapterMissing(mark.chapterKey) }
        try go(to: mark.chapterKey, keepingHistory: history + [place.key])
    }

    /// Goes to a chapter by its id (a search hit, `cyd read --chapter`); where the reader was goes
    /// on the history, so "back" returns.
    public func jump(toChapter key: String) throws {
        guard try library.chapterExists(key, in: story) else { throw ReadingError.chapterMissing(key) }
        guard key != place.key else { return }
        try go(to: key, keepingHistory: history + [place.key])
    }

    @discardableResult
    public func addNote(_ text: String) throws -> Int64 {
        try library.addNote(text, chapterKey: place.key, profile: profile, story: story)
    }

    public func notes() throws -> [Note] { try library.notes(profile: profile, story: story) }

    @discardableResult
    public func removeNote(_ id: Int64) throws -> Bool { try library.removeNote(id: id, profile: profile, story: story) }

    // MARK: Pictures

    /// The current chapter's picture, starting its fetch if needed (never waits).
    public func picture() -> PictureState {
        guard let path = place.picPath else { return .none }
        return pictures.request(path, of: story)
    }

    /// Waits for the current chapter's picture, for when the reader asks to see it.
    public func waitForPicture(timeout: Double = 60) -> PictureState {
        guard let path = place.picPath else { return .none }
        if case .loading = pictures.request(path, of: story) { return pictures.wait(path, of: story, timeout: timeout) }
        return pictures.request(path, of: story)
    }

    public func retryPicture() -> PictureState {
        guard let path = place.picPath else { return .none }
        return pictures.retry(path, of: story)
    }

    // MARK: Moving

    /// Why the reader's place could not be saved at the last move (a full disk, a read-only
    /// library), or nil. The move happens all the same, and the next move saves it again.
    public private(set) var unsaved: LibraryError?

    private func go(to key: String, keepingHistory newHistory: [String]) throws {
        guard let chapter = try stored(key) else {
            if try !library.contains(story) { throw LibraryError.storyRemoved(title: story.title) }
            throw ReadingError.chapterMissing(key)
        }
        let trimmed = Array(newHistory.suffix(StoryLibrary.historyLimit))
        history = trimmed
        show(chapter)
        do {
            try library.saveProgress(
                Progress(chapterKey: key, history: trimmed, updatedAt: 0), profile: profile, story: story, reachedEnding: chapter.endsReading)
            unsaved = nil
        } catch LibraryError.storyRemoved(let title) {
            throw LibraryError.storyRemoved(title: title)
        } catch {
            guard let worded = LibraryError.worded(error, path: library.location.databasePath) else { throw error }
            unsaved = worded
        }
    }

    /// A chapter as this reader sees it (their name in it), wherever their place is. The name
    /// goes in paragraph by paragraph ("[[name]]" never spans a line), so a huge chapter is not
    /// copied whole a second time.
    public func view(_ chapter: ChapterRecord) -> ChapterView {
        var paragraphs = Chapter.paragraphs(of: chapter.body)
        if let firstName {
            for index in paragraphs.indices { paragraphs[index] = paragraphs[index].replacingPlaceholder(with: firstName) }
        }
        return ChapterView(record: chapter, paragraphs: paragraphs)
    }
}

extension String {
    /// Replaces every exact "[[name]]", as the original reader did; one pass over the UTF-8
    /// bytes (memchr finds each "["), so a huge chapter costs its size.
    func replacingPlaceholder(with name: String) -> String {
        let placeholder: StaticString = "[[name]]"
        let length = placeholder.utf8CodeUnitCount
        var text = self
        return text.withUTF8 { bytes -> String in
            guard let base = bytes.baseAddress, bytes.count >= length else { return self }
            var result: [UInt8] = []
            var copied = 0
            var index = 0
            while index + length <= bytes.count,
                let found = memchr(base + index, 0x5B, bytes.count - length + 1 - index)
            {
                let at = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
                guard memcmp(base + at, placeholder.utf8Start, length) == 0 else {
                    index = at + 1
                    continue
                }
                if result.isEmpty { result.reserveCapacity(bytes.count) }
                result.append(contentsOf: UnsafeBufferPointer(start: base + copied, count: at - copied))
                result.append(contentsOf: name.utf8)
                index = at + length
                copied = index
            }
            guard copied > 0 else { return self }
            result.append(contentsOf: UnsafeBufferPointer(start: base + copied, count: bytes.count - copied))
            return String(decoding: result, as: UTF8.self)
        }
    }
}
