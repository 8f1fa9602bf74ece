import InterfaceWords
import LocalFiles
import StoryFormat
import StorySources
import StoryStore

/// What the terminal reader asks before a story opens: which story (the library's, with the
/// reader's place in each, and the bundled stories not added yet) and the reader's first name.
/// Lines come from `input` and questions go to `ask`, so both run in-process in their tests.
package struct ReaderQuestions {
    /// A bundled story as the picker lists it: its number among all the bundled stories (b2 is
    /// always the second, so adding one never renumbers the others), where it is, its title, and
    /// the title of the chapter the reader's place was kept at when the story was removed.
    package struct Bundled: Sendable, Equatable {
        package var number: Int
        package var folder: String
        package var title: String
        package var keptAt: String?

        package init(number: Int, folder: String, title: String, keptAt: String?) {
            (self.number, self.folder, self.title, self.keptAt) = (number, folder, title, keptAt)
        }
    }

    /// The bundled story folders (all of them, in order) that the library does not hold, as the
    /// picker lists them; a story removed with the reader's place kept shows where they were.
    package static func bundled(_ folders: [String], library: StoryLibrary, profile: String) throws -> [Bundled] {
        let stored = Set(try library.stories().map(\.source.location))
        return folders.enumerated().compactMap { index, folder in
            let location = LocalFile.realPath(folder) ?? folder
            guard !stored.contains(location) else { return nil }
            let kept = (try? library.progress(profile: profile, source: StorySource(kind: .folder, location: location)))??.chapterKey
            let story = BundledStories.story(in: folder)  // read once for its title and the kept chapter's
            return Bundled(number: index + 1, folder: folder, title: BundledStories.title(of: story, in: folder), keptAt: kept.map { BundledStories.chapterTitle($0, of: story) })
        }
    }

    /// The reader's answer to "which one?".
    package enum Pick: Equatable {
        case stored(StoryRecord)
        /// A bundled story, by its number (1 for b1), added or not.
        case bundled(Int)
        /// They quit, or the input ended.
        case quit
    }

    package let screen: ReaderScreen
    package let interactive: Bool
    package let input: () -> String?
    package let ask: (String) -> Void

    /// Lines from standard input; questions to standard output.
    package init(screen: ReaderScreen, interactive: Bool, input: (() -> String?)? = nil, ask: ((String) -> Void)? = nil) {
        self.screen = screen
        self.interactive = interactive
        self.input = input ?? { readLine() }
        self.ask = ask ?? { Terminal.standardOutput.write($0) }
    }

    /// The name for [[name]]: `given`, the profile's, or asked for on a terminal (asked again
    /// when the answer is empty or holds what a page cannot show); `fallback` when nobody can be
    /// asked. Kept in the profile when the library can be written. Nil when the reader quits.
    package func firstName(given: String?, library: StoryLibrary, profile: String, fallback: String) throws -> String? {
        if let given, !given.isEmpty {
            // Kept for next time when the library can be written; used now regardless.
            do { try library.setFirstName(given, profile: profile) } catch where LibraryError.words(for: error) != nil {}
            return given
        }
        if let stored = try library.firstName(profile: profile) { return stored }
        guard interactive else { return fallback }
        ask(screen.words[.readerAskName])
        while true {
            guard let raw = input() else {
                ask("\n")
                return nil
            }
            let answer = raw.trimmingBlanks
            if answer.lowercased() == "q" { return nil }
            if answer.isEmpty || answer.unicodeScalars.contains(where: { VisibleText.isUnsafe($0) }) {
                ask(screen.words[.readerAskNameAgain])
                continue
            }
            do { try library.setFirstName(answer, profile: profile) } catch where LibraryError.words(for: error) != nil {}
            return answer
        }
    }

    /// Lists the library's stories (numbered by library id, with the reader's place) and the
    /// bundled ones not added yet (`bundled`; any of the `bundledCount` numbers is taken, also one
    /// added already), then asks which until the answer names one.
    package func pickStory(library: StoryLibrary, profile: String, bundled: [Bundled], bundledCount: Int) throws -> Pick {
        let stored = try library.stories()
        screen.line(screen.words[.readerStories])
        for record in stored {
            let place = (try? library.progress(profile: profile, story: record))?.flatMap { try? library.chapter($0.chapterKey, of: record)?.name }
            let progress = place.map { screen.words(.readerAt, ["chapter": VisibleText.escape($0)]) } ?? screen.words[.readerNotStarted]
            let number = String(record.id)
            let padded = String(repeating: " ", count: max(0, 3 - number.count)) + number
            screen.pickerEntry("  \(padded)) \(VisibleText.escape(record.title)) · \(progress)", source: VisibleText.escape(record.source.location))
        }
        for story in bundled {
            let progress = story.keptAt.map { screen.words(.readerBundledAt, ["chapter": VisibleText.escape($0)]) } ?? screen.words[.readerBundledNotStarted]
            screen.pickerEntry("  b\(story.number)) \(VisibleText.escape(story.title)) · \(progress)", source: VisibleText.escape(story.folder))
        }
        let ids = Set(stored.map { String($0.id) })
        while true {
            if interactive { ask(screen.words[.readerWhichOne]) }
            guard let answer = input()?.trimmingBlanks.lowercased(), answer != "q" else { return .quit }
            if ids.contains(answer), let id = Int64(answer), let record = try library.story(id: id) { return .stored(record) }
            if answer.hasPrefix("b"), let number = Int(answer.dropFirst()), number >= 1, number <= bundledCount {
                return .bundled(number)
            }
            let choices = (stored.map { String($0.id) } + bundled.map { "b\($0.number)" }).joined(separator: ", ")
            screen.error(screen.words(.readerTypeOneOf, ["choices": choices]))
            if !interactive { return .quit }
        }
    }
}
