import Foundation
import StoryFormat

/// A story for a test, built as values and written as the format's JSON (every string escaped by
/// the project's JSON writer): one builder instead of story JSON written by hand in each test
/// file. Tests about the bytes themselves (trailing commas, odd spacing, broken files) still
/// write their bytes; this is for tests that need a story.
public struct TestStory: Sendable {
    public struct Chapter: Sendable {
        public var id: String
        public var name: String
        public var text: String
        /// Each choice: the chapter it leads to, and its text.
        public var choices: [(target: String, text: String)]
        public var isFirst = false
        public var isEnding = false
        public var picture: String?

        public init(
            _ id: String, name: String? = nil, text: String? = nil, choices: [(target: String, text: String)] = [], isFirst: Bool = false,
            isEnding: Bool = false, picture: String? = nil
        ) {
            self.id = id
            self.name = name ?? "Chapter \(id)"
            self.text = text ?? "This is \(id)."
            self.choices = choices
            self.isFirst = isFirst
            self.isEnding = isEnding
            self.picture = picture
        }
    }

    public var id: String
    public var title: String
    public var rating: String
    public var summary: String
    public var picture: String?
    public var chapters: [Chapter]

    public init(id: String = "s1", title: String = "Tide", rating: String = "G", summary: String = "A test story about the sea", picture: String? = nil, chapters: [Chapter]) {
        self.id = id
        self.title = title
        self.rating = rating
        self.summary = summary
        self.picture = picture
        self.chapters = chapters
    }

    /// A story from (id, [targets]) pairs: the first chapter is the start, each choice reads
    /// "Go to TARGET", and each text is `text` followed by "This is ID.".
    public static func graph(
        _ graph: [(String, [String])], id: String = "s1", title: String = "Tide", text: String = "Hello, [[name]].", picture: String? = nil
    ) -> TestStory {
        TestStory(
            id: id, title: title,
            chapters: graph.enumerated().map { index, chapter in
                Chapter(
                    chapter.0, text: "\(text) This is \(chapter.0).", choices: chapter.1.map { ($0, "Go to \($0)") }, isFirst: index == 0,
                    picture: index == 0 ? picture : nil)
            })
    }

    /// Two chapters, 'a' (the start, "Shore") with one choice to 'b' ("Cliff", an ending): the
    /// smallest story a reader can finish.
    public static func twoChapters(title: String = "Tide", id: String = "story01", rating: String = "G", summary: String = "A tale told in git", picture: String? = nil)
        -> TestStory
    {
        TestStory(
            id: id, title: title, rating: rating, summary: summary,
            chapters: [
                Chapter("a", name: "Shore", text: "Waves.", choices: [("b", "Walk on")], isFirst: true, picture: picture),
                Chapter("b", name: "Cliff", text: "Wind."),
            ])
    }

    public var value: JSONValue {
        var story: [(String, JSONValue)] = [("id", .string(id)), ("name", .string(title)), ("rating", .string(rating)), ("summary", .string(summary))]
        if let picture { story.append(("pic_path", .string(picture))) }
        story.append(("chapters", .array(chapters.map(\.value))))
        return .object([("story", .object(story))])
    }

    /// The story.json text, one chapter a line.
    public var json: String {
        var out = value.encoded
        // One chapter a line: a failing test's message stays readable.
        out = out.replacingOccurrences(of: #"},{"id":"#, with: "},\n{\"id\":")
        return out + "\n"
    }

    public var bytes: [UInt8] { Array(json.utf8) }

    /// A README carrying the catalogue's tag, as a story repository's front page.
    public static let taggedReadme = Array("# Tale\n\nA #ChooseYourDestiny story.\n".utf8)
}

extension TestStory.Chapter {
    var value: JSONValue {
        var members: [(String, JSONValue)] = [("id", .string(id)), ("name", .string(name)), ("text", .string(text))]
        if isFirst { members.append(("is_first_chapter", true)) }
        if isEnding { members.append(("is_ending", true)) }
        if let picture { members.append(("pic_path", .string(picture))) }
        if !choices.isEmpty {
            members.append(("choices", .array(choices.map { .object([("chapter_id", .string($0.target)), ("text", .string($0.text))]) })))
        }
        return .object(members)
    }
}

extension Chapter {
    /// A chapter with each of `keys` set (made from the declaration, `ChapterField`, so a key
    /// added later is set too): texts "value of KEY", flags true, one choice to "b". Tests of the
    /// writer, the decoder, Twee and the library round-trip it.
    public static func withEveryKey(_ keys: [ChapterField] = ChapterField.allCases) -> Chapter {
        var chapter = Chapter(id: "a", name: "A", text: "Text")
        for field in keys {
            switch field.kind {
            case .text, .nonEmptyText: if field.value(in: chapter) == nil { field.set(.text("value of \(field.key)"), in: &chapter) }
            case .flag: field.set(.flag(true), in: &chapter)
            case .choices: field.set(.choices([Choice(chapterID: "b", text: "On")]), in: &chapter)
            case .object: field.set(.object(.object([("tags", [.string("value-of-\(field.key)")]), ("position", "600,400"), ("size", "100,200")])), in: &chapter)
            }
        }
        return chapter
    }
}

