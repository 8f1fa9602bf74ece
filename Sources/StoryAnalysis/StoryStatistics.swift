import StoryCheck
import StoryFormat

/// What `cyd stats` reports: the text (words, characters, reading time) and the shape of the
/// story (chapters, choices, endings, pictures), with the exact path answers of `PathAnalysis`.
public struct StoryStatistics: Sendable {
    public struct Spread: Sendable, Hashable {
        public var minimum: Int
        public var median: Int
        public var maximum: Int
    }

    public var title: String?
    public var chapters: Int
    public var choices: Int
    public var words: Int
    /// Unicode scalars of chapter text, spaces included.
    public var characters: Int
    public var wordsPerChapter: Spread
    /// Minutes to read every chapter once at `wordsPerMinute`.
    public var readingMinutes: Double
    public static let wordsPerMinute = 200
    /// Chapters without choices: marked `"is_ending": true`, and not marked (dead ends).
    public var intendedEndings: Int
    public var deadEnds: Int
    public var unreachable: Int
    public var pictures: Int
    /// Chapter ids by chapter index, for naming chapters in reports.
    public var ids: [String]
    /// Nil without a first chapter.
    public var paths: PathAnalysis?

    public init(_ story: StorySyntax, graph: StoryGraph) {
        let document = story.document
        title = story.name?.value
        chapters = story.chapters.count
        choices = story.choices.count
        var wordCounts: [Int] = []
        wordCounts.reserveCapacity(chapters)
        var characters = 0
        for chapter in story.chapters {
            guard let node = chapter.textNode else {
                wordCounts.append(0)
                continue
            }
            var words = 0
            var inWord = false
            for piece in document.scalars(node) {
                characters += 1
                let value = piece.scalar.value
                // ASCII decided at once; Unicode's other spaces (no-break, ideographic, ...) by property.
                let isSpace = value < 0x80 ? (value == 0x20 || (0x09...0x0D).contains(value)) : piece.scalar.properties.isWhitespace
                if !isSpace && !inWord { words += 1 }
                inWord = !isSpace
            }
            wordCounts.append(words)
        }
        self.characters = characters
        words = wordCounts.reduce(0, +)
        let sorted = wordCounts.sorted()
        wordsPerChapter = sorted.isEmpty
            ? Spread(minimum: 0, median: 0, maximum: 0) : Spread(minimum: sorted[0], median: sorted[sorted.count / 2], maximum: sorted[sorted.count - 1])
        readingMinutes = Double(words) / Double(Self.wordsPerMinute)
        let ends = story.chapters.filter(\.hasNoChoices)
        intendedEndings = ends.count { $0.isEnding?.value == true }
        deadEnds = ends.count - intendedEndings
        unreachable = graph.start == nil ? 0 : graph.reachable.count { !$0 }
        pictures = story.media.count { $0.isPicture }
        ids = story.chapters.map { $0.id?.value ?? "chapter \($0.ordinal + 1)" }
        paths = PathAnalysis(graph)
    }
}
