import StoryCheck
import StoryFormat

/// Where an imported story's parts were in its Twee file, so that findings about the story (a
/// choice to nowhere, an empty chapter) can point into the file the author edits.
public struct TweeSourceMap: Sendable {
    /// A place in the file: its 1-based line and the byte it starts at in that line (0-based).
    public struct Place: Sendable, Equatable {
        public var line: Int
        public var byte: Int
        public init(line: Int, byte: Int) {
            self.line = line
            self.byte = byte
        }
    }

    /// One chapter's places, in the story's chapter order.
    public struct ChapterPlaces: Sendable {
        /// The passage's header line.
        public var header: Int
        /// The file's line of each line of the chapter's text (into `textLines`); nil when the
        /// text came from cyd's metadata passage.
        public var textLines: Range<Int>?
        /// The chapter's links (into `choices`), one a choice; nil when the choices came from
        /// cyd's metadata passage.
        public var choices: Range<Int>?
    }

    public var storyTitle: Int?
    public var storyData: Int?
    /// The header line of cyd's metadata passage.
    public var metadata: Int?
    public var chapters: [ChapterPlaces] = []
    public var textLines: [Int32] = []
    public var choices: [Place] = []

    public init() {}

    /// Adds the chapters of `other` (read after these) after these.
    mutating func append(_ other: TweeSourceMap) {
        let lines = textLines.count
        let links = choices.count
        chapters += other.chapters.map { chapter in
            var moved = chapter
            moved.textLines = chapter.textLines.map { ($0.lowerBound + lines)..<($0.upperBound + lines) }
            moved.choices = chapter.choices.map { ($0.lowerBound + links)..<($0.upperBound + links) }
            return moved
        }
        textLines += other.textLines
        choices += other.choices
    }
}

/// Passage positions for Twine's story map, in layers: the first chapter at the top, each
/// chapter a row below the nearest chapter that leads to it (its distance in choices from the
/// start, found breadth-first, as a reader meets them), the chapters of a row in the order they
/// are met. Chapters no choice reaches follow in rows of their own. A row wraps after 40
/// passages so that a wide story stays a map one can scroll.
public enum TweeLayout {
    /// Passage boxes are 100 wide and high; 125 apart leaves a gap for Twine's arrows.
    static let spacing = 125
    static let margin = 100
    static let rowWidth = 40

    /// Each chapter's position (x, y), in the story's chapter order.
    public static func positions(of story: Story) -> [(x: Int, y: Int)] { positions(of: story, parallelFrom: parallelFrom) }

    /// From how many chapters the choices' chapters are found in two halves, one on another core.
    static let parallelFrom = 20_000

    /// - Parameter parallelFrom: chapters from which the choices are resolved in two halves
    ///   (tests lay a story out both ways).
    static func positions(of story: Story, parallelFrom: Int) -> [(x: Int, y: Int)] {
        let count = story.chapters.count
        // Chapters by id as the checks find them (the first of a repeated id): a table made for
        // hundreds of thousands of choices' look-ups.
        let index = ChapterIndex(ids: story.chapters.map(\.id))
        // Each chapter's choices as the chapters they lead to, found in file order before the
        // walk: the walk meets chapters out of order, and reading each one's choices there was
        // a cache miss a chapter (most of the time of laying out 100,000 chapters).
        let successors = ChoiceTargets(story.chapters, index, parallelFrom: parallelFrom)
        var layer = [Int](repeating: -1, count: count)
        var order: [Int] = []
        order.reserveCapacity(count)
        var deepest = -1
        let start = story.chapters.firstIndex(where: \.isFirstChapter) ?? (count > 0 ? 0 : nil)
        if let start { walk(from: start, layer: 0, successors, &layer, &order, &deepest) }
        for chapter in 0..<count where layer[chapter] < 0 {
            walk(from: chapter, layer: deepest + 1, successors, &layer, &order, &deepest)  // below everything placed so far
        }
        // Rows: each layer in the order met, wrapped. Breadth-first walks meet the layers in
        // order, and each later walk starts below the last, so `order` is sorted by layer.
        var positions = [(x: Int, y: Int)](repeating: (0, 0), count: count)
        var row = -1
        var currentLayer = -1
        var column = 0
        for chapter in order {
            if layer[chapter] != currentLayer || column == rowWidth {
                row += 1
                column = 0
                currentLayer = layer[chapter]
            }
            positions[chapter] = (margin + column * spacing, margin + row * spacing)
            column += 1
        }
        return positions
    }

    /// Breadth-first from `root`, at layer `base`: each chapter reached is given the layer after
    /// its chapter's and added to `order`. (Its state passed in, not captured: a nested function's
    /// captured variables are checked for exclusive access at every touch.)
    private static func walk(
        from root: Int, layer base: Int, _ successors: ChoiceTargets, _ layer: inout [Int], _ order: inout [Int], _ deepest: inout Int
    ) {
        layer[root] = base
        deepest = max(deepest, base)
        var head = order.count
        order.append(root)
        successors.ends.withUnsafeBufferPointer { ends in
            successors.targets.withUnsafeBufferPointer { targets in
                while head < order.count {
                    let chapter = order[head]
                    head += 1
                    for slot in Int(ends[chapter])..<Int(ends[chapter + 1]) {
                        let next = Int(targets[slot])
                        guard layer[next] < 0 else { continue }
                        layer[next] = layer[chapter] + 1
                        deepest = max(deepest, layer[next])
                        order.append(next)
                    }
                }
            }
        }
    }
}
