/// A story as story.json text, keys in the order authors write them (the format's own), optional
/// keys only when set, two-space indentation, a line feed at the end.
public enum StoryJSON {
    /// The plain model of a story file that was read, its chapters made in two halves on two
    /// cores when there are many (nil as `StorySyntax.model()` is nil).
    /// A mapped file's pages are given back behind each half as it goes (the model holds its
    /// own text), so the file and the model are not both in memory whole.
    public static func model(_ syntax: StorySyntax) -> Story? {
        let count = syntax.chapters.count
        guard count >= 1000 else { return syntax.model() }
        let bytes = syntax.document.bytes
        bytes.beginPass()
        defer { bytes.endPass() }
        let middle = count / 2
        let second = BackgroundWork { () -> [Chapter]? in
            var sweep = bytes.sweep(from: Int(syntax.document.nodes[syntax.chapters[middle].node].start))
            defer { sweep.end() }
            return syntax.chapterModels(middle..<count) { sweep.release(upTo: $0) }
        }
        var sweep = bytes.sweep()
        guard var chapters = syntax.chapterModels(0..<middle, { sweep.release(upTo: $0) }), var rest = second.take() else { return nil }
        chapters.appendMoving(&rest, leaving: Chapter(id: "", name: "", text: ""))
        return syntax.model(chapters: chapters)
    }

    public static func text(_ story: Story) -> String { String(decoding: bytes(story), as: UTF8.self) }

    /// The same text as `value(story).pretty()` and a line feed, written straight out: a story of
    /// 100,000 chapters is not first built as a tree of values.
    public static func bytes(_ story: Story) -> [UInt8] {
        var (writer, second) = started(story)
        if let second {
            writer.out += second.wait()
            writer.markFilled()
        }
        closing(into: &writer)
        return writer.out
    }

    /// The same bytes as `bytes`, in pieces of about a megabyte made as a writer takes them (the
    /// next two on other cores while one is written): the text is never held whole beside the
    /// story.
    public static func chunks(_ story: Story) -> FilePieces {
        var head = PrettyWriter()
        opening(story, into: &head)
        var tail = PrettyWriter(levels: [true, true, !story.chapters.isEmpty])
        closing(into: &tail)
        return FilePieces(
            PiecesMadeAhead(
                count: story.chapters.count,
                // A chapter's id, name and text are always written, and its choices, escapes only adding.
                leastSize: { index in
                    let chapter = story.chapters[index]
                    return chapter.id.utf8.count + chapter.name.utf8.count + chapter.text.utf8.count
                        + chapter.choices.reduce(0) { $0 + $1.chapterID.utf8.count + $1.text.utf8.count } + 32
                },
                head: head.out, tail: tail.out,
                appendingUnits: { range, out in
                    // Inside the chapters array, which holds the chapters before these.
                    var writer = PrettyWriter(levels: [true, true, range.lowerBound > 0])
                    swap(&writer.out, &out)
                    write(story, range, into: &writer)
                    swap(&writer.out, &out)
                }))
    }

    /// A writer holding the story's opening and the first half of its chapters, and the second
    /// half being written on another core (none for a small story, written whole here). The
    /// writer has room for the whole file.
    private static func started(_ story: Story) -> (writer: PrettyWriter, second: BackgroundWork<[UInt8]>?) {
        let count = story.chapters.count
        let split = count >= 1000 ? count / 2 : count
        let second = secondHalf(story, from: split)
        var writer = PrettyWriter()
        writer.out.reserveLarge(estimate(story, 0..<count) + 1024)
        opening(story, into: &writer)
        write(story, 0..<split, into: &writer)
        return (writer, second)
    }

    private static func secondHalf(_ story: Story, from split: Int) -> BackgroundWork<[UInt8]>? {
        let count = story.chapters.count
        guard split < count else { return nil }
        return BackgroundWork { () -> [UInt8] in
            var writer = PrettyWriter(levels: [true, true, true])
            writer.out.reserveLarge(estimate(story, split..<count))
            write(story, split..<count, into: &writer)
            return writer.out
        }
    }

    private static func closing(into writer: inout PrettyWriter) {
        writer.end(0x5D)
        writer.end(0x7D)
        writer.end(0x7D)
        writer.out.append(0x0A)
    }

    private static func opening(_ story: Story, into writer: inout PrettyWriter) {
        writer.begin(0x7B)
        writer.key("story")
        writer.begin(0x7B)
        writer.member("id", story.id)
        writer.member("name", story.name)
        writer.member("rating", story.rating)
        writer.member("summary", story.summary)
        if let path = story.picPath { writer.member("pic_path", path) }
        if let path = story.vidPath { writer.member("vid_path", path) }
        if let twine = story.twine {
            writer.key("twine")
            writer.write(twine)
        }
        writer.key("chapters")
        writer.begin(0x5B)
    }

    /// About how many bytes the chapters in `range` take written out (escapes aside).
    static func estimate(_ story: Story, _ range: Range<Int>) -> Int {
        story.chapters[range].reduce(0) { total, chapter in
            total + 128 + chapter.id.utf8.count + chapter.name.utf8.count + chapter.text.utf8.count
                + chapter.choices.reduce(0) { $0 + 72 + $1.chapterID.utf8.count + $1.text.utf8.count }
        }
    }

    /// The chapters in `range`, as elements of the open `chapters` array.
    static func write(_ story: Story, _ range: Range<Int>, into writer: inout PrettyWriter) {
        story.chapters.withUnsafeBufferPointer { chapters in
            for index in range {
                let chapter = chapters[index]
                writer.element()
                writer.begin(0x7B)
                for field in ChapterField.all {
                    switch field.value(in: chapter) {
                    case nil: continue
                    case .text(let text): writer.member(field.key, text)
                    case .flag(let flag): writer.member(field.key, flag)
                    case .object(let value):
                        writer.key(field.key)
                        writer.write(value)
                    case .choices(let choices):
                        writer.key(field.key)
                        writer.begin(0x5B)
                        for choice in choices {
                            writer.element()
                            writer.begin(0x7B)
                            writer.member("chapter_id", choice.chapterID)
                            writer.member("text", choice.text)
                            writer.end(0x7D)
                        }
                        writer.end(0x5D)
                    }
                }
                writer.end(0x7D)
            }
        }
    }

    /// JSON as `JSONValue.pretty()` lays it out (two spaces a level, `[]`/`{}` when empty),
    /// written as it goes.
    package struct PrettyWriter {
        package var out: [UInt8] = []
        /// Whether each open container has a member yet.
        private var filled: [Bool]

        /// A writer inside containers already open (and whether each has a member), for a part
        /// of a document written apart.
        package init(levels: [Bool] = []) { filled = levels }

        /// The innermost container has members now (written apart and added to `out`).
        package mutating func markFilled() { filled[filled.count - 1] = true }

        private mutating func newline() {
            out.append(0x0A)
            for _ in 0..<filled.count { out.append(0x20); out.append(0x20) }
        }

        package mutating func begin(_ bracket: UInt8) {
            out.append(bracket)
            filled.append(false)
        }

        package mutating func end(_ bracket: UInt8) {
            if filled.removeLast() { newline() }
            out.append(bracket)
        }

        /// Starts an element of an array.
        package mutating func element() {
            if filled[filled.count - 1] { out.append(0x2C) }
            filled[filled.count - 1] = true
            newline()
        }

        package mutating func key(_ key: String) {
            element()
            JSONQuoting.append(key, to: &out)
            out.append(0x3A)
            out.append(0x20)
        }

        package mutating func member(_ name: String, _ value: String) {
            key(name)
            JSONQuoting.append(value, to: &out)
        }

        /// Any value, laid out the same way.
        package mutating func write(_ value: JSONValue) {
            switch value {
            case .string(let text): JSONQuoting.append(text, to: &out)
            case .array(let values) where !values.isEmpty:
                begin(0x5B)
                for value in values {
                    element()
                    write(value)
                }
                end(0x5D)
            case .object(let members) where !members.isEmpty:
                begin(0x7B)
                for (name, value) in members {
                    key(name)
                    write(value)
                }
                end(0x7D)
            default: value.write(to: &out)
            }
        }

        package mutating func member(_ name: String, _ value: Bool) {
            key(name)
            out.append(contentsOf: (value ? "true" : "false").utf8)
        }
    }
}
