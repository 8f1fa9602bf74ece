import StoryFormat

/// A story as story.json text, keys in the order authors write them (the format's own), optional
/// keys only when set, two-space indentation, a line feed at the end.
public enum StoryJSON {
    public static func text(_ story: Story) -> String { value(story).pretty() + "\n" }

    public static func value(_ story: Story) -> JSONValue {
        var fields: [(String, JSONValue)] = [("id", .string(story.id)), ("name", .string(story.name)), ("rating", .string(story.rating)), ("summary", .string(story.summary))]
        if let path = story.picPath { fields.append(("pic_path", .string(path))) }
        if let path = story.vidPath { fields.append(("vid_path", .string(path))) }
        fields.append(("chapters", .array(story.chapters.map(value))))
        return .object([("story", .object(fields))])
    }

    static func value(_ chapter: Chapter) -> JSONValue {
        var fields: [(String, JSONValue)] = [("id", .string(chapter.id)), ("name", .string(chapter.name))]
        if chapter.isFirstChapter { fields.append(("is_first_chapter", true)) }
        fields.append(("text", .string(chapter.text)))
        if let path = chapter.picPath { fields.append(("pic_path", .string(path))) }
        if let alt = chapter.picAlt { fields.append(("pic_alt", .string(alt))) }
        if let path = chapter.vidPath { fields.append(("vid_path", .string(path))) }
        if chapter.isEnding { fields.append(("is_ending", true)) }
        if !chapter.choices.isEmpty {
            fields.append(("choices", .array(chapter.choices.map { .object([("chapter_id", .string($0.chapterID)), ("text", .string($0.text))]) })))
        }
        return .object(fields)
    }
}
