import StoryAnalysis
import StoryCheck
import StoryFormat
import StoryTranslation
import StoryValidation

/// What a change does to a story, as a story: chapters added, removed and renamed, choices
/// added, removed and retargeted, text changed word by word, endings gained and lost, chapters
/// that became reachable or unreachable, playthroughs and the shortest and longest way, findings
/// new and fixed, pictures and translations affected. Either side may be unreadable: the other is
/// still described, and the problem said.
public struct StoryChanges: Sendable {
    /// A chapter as a change names it.
    public struct Chapter: Sendable, Hashable {
        public var id: String
        public var title: String
    }

    /// One side, described.
    public struct Side: Sendable {
        public var label: String
        /// Why it could not be read, when it could not.
        public var problem: Problem?
        public var title: String?
        public var chapters = 0
        public var endings = 0
        public var playthroughs: PathAnalysis.Count?
        /// Chapters read on the shortest and the longest way to an ending (longest: nil when a loop
        /// makes it unbounded).
        public var shortest: Int?
        public var longest: Int?
        /// Every finding of the validator (StoryValidation) on the side's story.json.
        public var findings: [Finding] = []
    }

    public enum Problem: Sendable, Equatable {
        /// The version could not be found or read (StoryVersion's problem).
        case version(StoryVersion.Problem)
        /// Read, and not a story: the first error, at its place.
        case notAStory(Finding?)
    }

    public struct Finding: Sendable, Hashable {
        public var code: String
        public var severity: Severity
        public var message: String
        public var position: SourcePosition
    }

    public struct Rename: Sendable, Hashable {
        public var from: Chapter
        public var to: Chapter
        /// How alike their text and choices are, in percent (100: only the id changed).
        public var similarity: Int
    }

    public enum ChoiceChange: Sendable, Hashable {
        case added(in: Chapter, text: String, to: String)
        case removed(in: Chapter, text: String, to: String)
        /// The same words now lead elsewhere.
        case retargeted(in: Chapter, text: String, from: String, to: String)
        /// The choice to the same chapter is worded differently.
        case reworded(in: Chapter, to: String, WordDiff)
    }

    /// A chapter whose title, text or picture's alt text changed.
    public struct TextChange: Sendable, Hashable {
        public var chapter: Chapter
        public var title: WordDiff?
        public var text: WordDiff?
        public var pictureAlt: WordDiff?
    }

    /// The story's own title, summary or rating.
    public struct FieldChange: Sendable, Hashable {
        public var field: String
        public var change: WordDiff
    }

    public struct PictureChange: Sendable, Hashable {
        public enum Kind: String, Sendable, Hashable { case added, removed, changed }
        public var path: String
        public var kind: Kind
        /// The chapters that show it (on the new side, else the old).
        public var chapters: [String]
    }

    public struct TranslationImpact: Sendable, Hashable {
        public var language: String
        /// Strings translated before the change whose text changed: updating the translation marks them
        /// fuzzy for the translator.
        public var becomeFuzzy: Int
        /// Translated strings whose place is gone (a chapter, a paragraph or a choice removed).
        public var lost: Int
        /// A few of them, by their string's id.
        public var examples: [String]
    }

    public var old: Side
    public var new: Side
    public var story: [FieldChange] = []
    public var added: [Chapter] = []
    public var removed: [Chapter] = []
    public var renamed: [Rename] = []
    public var choices: [ChoiceChange] = []
    public var texts: [TextChange] = []
    public var endingsAdded: [Chapter] = []
    public var endingsLost: [Chapter] = []
    public var becameUnreachable: [Chapter] = []
    public var becameReachable: [Chapter] = []
    public var findingsNew: [Finding] = []
    public var findingsFixed: [Finding] = []
    public var pictures: [PictureChange] = []
    public var translations: [TranslationImpact] = []

    /// Nothing a reader, an author or a translator would notice changed.
    public var isEmpty: Bool {
        story.isEmpty && added.isEmpty && removed.isEmpty && renamed.isEmpty && choices.isEmpty && texts.isEmpty && endingsAdded.isEmpty
            && endingsLost.isEmpty && becameUnreachable.isEmpty && becameReachable.isEmpty && findingsNew.isEmpty && findingsFixed.isEmpty
            && pictures.isEmpty && translations.isEmpty && old.playthroughs == new.playthroughs
    }

    /// The most pairs of removed × added chapters compared for renames by their words (a larger
    /// change pairs only chapters whose content is the same).
    public static let renameComparisons = 1_000_000
    /// The least similarity (percent) for a removed and an added chapter to be one renamed.
    public static let renameThreshold = 50

    /// The changes from `old` to `new`, each a version or why it could not be had.
    public init(old: Result<StoryVersion, StoryVersion.Problem>, new: Result<StoryVersion, StoryVersion.Problem>, labels: (String, String)) {
        self.init(loading: { old }, { new }, labels: labels)
    }

    /// The changes between two versions named as `StoryVersion.load` names them, each read
    /// from `storyFolder` (its repository for a revision); both are found and read at once.
    public init(old: String, new: String, storyFolder: String) {
        self.init(loading: { StoryVersion.result(old, storyFolder: storyFolder) }, { StoryVersion.result(new, storyFolder: storyFolder) }, labels: (old, new))
    }

    private init(
        loading old: @escaping @Sendable () -> Result<StoryVersion, StoryVersion.Problem>, _ new: () -> Result<StoryVersion, StoryVersion.Problem>,
        labels: (String, String)
    ) {
        // The two sides are found, read and checked at once, one a core. The playthroughs of
        // the side read first (exact counts: the costly part) are counted as soon as it is read,
        // beside the reading of the other side and then the comparison. A side whose chapters
        // lead to the same chapters as the other's has the same playthroughs, counted once; one
        // of another shape is counted after the comparison.
        let first = FirstToFinish()
        let oldWork = BackgroundWork { () -> (Reading, BackgroundWork<PathAnalysis?>?) in
            let reading = Reading(old(), label: labels.0)
            return (reading, first.isFirst(0) ? BackgroundWork { reading.paths() } : nil)
        }
        let after = Reading(new(), label: labels.1)
        let newCounting = first.isFirst(1) ? BackgroundWork { after.paths() } : nil
        let (before, oldCounting) = oldWork.wait()
        let sameShape = before.syntax != nil && before.start == after.start && before.successors == after.successors
        var changes = StoryChanges(old: before.side, new: after.side)
        if before.syntax != nil, after.syntax != nil { changes.compare(before, after) }
        let oldPlaythroughs = oldCounting?.wait() ?? (sameShape ? newCounting?.wait() ?? nil : before.paths())
        let newPlaythroughs = newCounting?.wait() ?? (sameShape ? oldPlaythroughs : after.paths())
        var described = (before, after)
        described.0.describe(oldPlaythroughs)
        described.1.describe(newPlaythroughs)
        self = changes
        self.old = described.0.side
        self.new = described.1.side
        // The two stories are given back with the changes, not freed here: a caller about to
        // end (the command line) need not wait for 200,000 chapters to be freed one by one.
        retained = [before, after]
    }

    /// Which of the two sides was read first (0 the old, 1 the new).
    private final class FirstToFinish: @unchecked Sendable {
        private let lock = Lock()
        private var side: Int?

        /// Whether `side` is the first to say it is read.
        func isFirst(_ side: Int) -> Bool {
            lock.withLock {
                if self.side == nil { self.side = side }
                return self.side == side
            }
        }
    }

    /// The two sides as read (kept with the changes; see `init`).
    private var retained: [Reading] = []

    private init(old: Side, new: Side) {
        self.old = old
        self.new = new
    }

    // MARK: One side read

    struct Reading: Sendable {
        var side: Side
        /// The story as written: chapters are compared where they are written, and only those
        /// that changed are made into values (`chapter(_:)`).
        var syntax: StorySyntax?
        var version: StoryVersion?
        var reachable: [Bool] = []
        var index = ChapterIndex(ids: [])
        /// Whether a chapter is the first of its id (a later one of the same id is never read).
        var isFirst: [Bool] = []

        init(_ result: Result<StoryVersion, StoryVersion.Problem>, label: String) {
            side = Side(label: label)
            switch result {
            case .failure(let problem):
                side.problem = .version(problem)
                return
            case .success(let version):
                self.version = version
                side.label = version.label
                let path = label.hasSuffix(".json") ? label : "story.json"
                // Read once, as the validator reads it, for its findings and for the story;
                // a file only readers' leniency reads (a trailing comma) is read again so.
                // A finding here is a code, a message and a place: no JSON pointer is worked out.
                let file = LoadedFile.load(version.source, fileName: path, resolvingPointers: false)
                let (reports, graph) = Validation.checkKeepingGraph(loaded: file, path: path, options: .init(check: CheckOptions(pointers: false)))
                let diagnostics = reports.flatMap(\.diagnostics)
                // Places in one sweep, lines counted on from the parser's checkpoints: a minified
                // story is one line, and counting each finding's column from the line's start
                // would cost findings × file.
                let places = LineIndex.locate(diagnostics.map(\.range.lowerBound), in: file.bytes)
                side.findings = zip(diagnostics, places).map { diagnostic, place in
                    Finding(code: diagnostic.code.rawValue, severity: diagnostic.severity, message: diagnostic.message, position: place.position)
                }
                guard let syntax = file.story ?? LoadedFile.asReadersRead(version.source, fileName: path).story, syntax.makesModel else {
                    side.problem = .notAStory(side.findings.first { $0.severity == .error })
                    return
                }
                self.syntax = syntax
                // The checks' graph is of the file as the validator read it; a file only
                // readers read has a graph of its own.
                index(syntax, graph: file.story == nil ? StoryGraph(syntax) : graph ?? StoryGraph(syntax))
            }
        }

        /// Each chapter's choices as the chapters they lead to (as readers follow them), and
        /// where reading starts.
        var successors: [[Int]] = []
        /// Each chapter's choices' chapters, choice by choice (-1: no such chapter).
        var targets: [[Int]] = []
        var start: Int?

        /// The graph as a reader moves through it: ids, choices' targets, what is reachable;
        /// from the checks' graph (`graph`, of `syntax`), whose choices are already found.
        mutating func index(_ syntax: StorySyntax, graph: StoryGraph) {
            side.title = syntax.name?.value
            let count = syntax.chapters.count
            side.chapters = count
            index = graph.index
            // A later chapter of an id already seen does not take the first one's place.
            isFirst = Array(repeating: true, count: count)
            for group in graph.duplicateGroups { for member in group.dropFirst() { isFirst[Int(member)] = false } }
            targets = graph.choiceTargets.withUnsafeBufferPointer { found in
                syntax.chapters.map { chapter in
                    let first = Int(chapter.choiceStart)
                    return found[first..<(first + chapter.numberOfChoices)].map { Int($0) }
                }
            }
            // A choice to no chapter leads nowhere for a reader (the validator says so).
            successors = targets.contains { $0.contains(-1) } ? targets.map { $0.filter { $0 >= 0 } } : targets
            start = graph.start.flatMap { graph.index[syntax.chapters[$0].idValue] }
            guard let start else {
                reachable = Array(repeating: false, count: count)
                canFinish = reachable
                return
            }
            (reachable, canFinish) = StoryGraph.readerReachability(successors: successors, start: start)
        }

        /// Which chapters some ending can be reached from, as a reader moves.
        var canFinish: [Bool] = []

        func paths() -> PathAnalysis? { start.map { PathAnalysis(successors: successors, start: $0, reachable: reachable, canFinish: canFinish) } }

        mutating func describe(_ paths: PathAnalysis?) {
            guard let paths else { return }
            side.playthroughs = paths.playthroughs
            side.endings = paths.endings.count
            side.shortest = paths.endings.map(\.fewestChapters).min()
            side.longest = paths.longestPath
        }

        func isEnding(_ position: Int) -> Bool { reachable[position] && syntax!.chapters[position].hasNoChoices }

        /// The chapter at `position`, as a value.
        func chapter(_ position: Int) -> StoryFormat.Chapter { syntax!.chapterModels(position..<(position + 1))![0] }

        /// The chapter at `position` as a change names it.
        func named(_ position: Int) -> Chapter {
            let chapter = syntax!.chapters[position]
            return Chapter(id: chapter.idValue, title: chapter.nameNode.map(syntax!.document.string) ?? "")
        }

        /// The whole story as a value (for what reads every chapter's strings: translations).
        func model() -> Story? { syntax.flatMap(StoryJSON.model) }
    }

    // MARK: Comparing

    private mutating func compare(_ before: Reading, _ after: Reading) {
        let a = before.syntax!, b = after.syntax!
        let oldDocument = a.document, newDocument = b.document
        for (field, old, new) in [("title", a.name?.value, b.name?.value), ("summary", a.summary?.value, b.summary?.value), ("rating", a.rating?.value, b.rating?.value)]
        where old != new {
            story.append(FieldChange(field: field, change: WordDiff(old: old ?? "", new: new ?? "")))
        }
        // Each chapter's place on the other side (-1: none), by id: a chapter at the same place
        // first (an edit seldom moves chapters), else by the other side's index; then renames.
        var newOf = [Int](repeating: -1, count: a.chapters.count)
        var oldOf = [Int](repeating: -1, count: b.chapters.count)
        for position in a.chapters.indices where before.isFirst[position] {
            let id = a.chapters[position].idValue
            let there = position < b.chapters.count && after.isFirst[position] && b.chapters[position].idValue == id ? position : after.index[id] ?? -1
            guard there >= 0 else { continue }
            newOf[position] = there
            oldOf[there] = position
        }
        let gone = a.chapters.indices.filter { before.isFirst[$0] && newOf[$0] < 0 }.map(before.chapter)
        let arrived = b.chapters.indices.filter { after.isFirst[$0] && oldOf[$0] < 0 }.map(after.chapter)
        let pairs = Self.renames(gone, arrived)
        // Renamed chapters: old id → new id (any other id is the same chapter on both sides).
        var map: [String: String] = [:]
        for pair in pairs {
            map[pair.from.id] = pair.to.id
            let from = before.index[pair.from.id]!, to = after.index[pair.to.id]!
            newOf[from] = to
            oldOf[to] = from
        }
        renamed = pairs
        removed = gone.filter { map[$0.id] == nil }.map { Chapter(id: $0.id, title: $0.name) }
        added = arrived.filter { oldOf[after.index[$0.id]!] < 0 }.map { Chapter(id: $0.id, title: $0.name) }

        // Two strings as written in the two files (see JSONDocument.sameText).
        func same(_ old: Int?, _ new: Int?) -> Bool {
            guard let old, let new else { return old == nil && new == nil }
            return oldDocument.sameText(old, as: new, in: newDocument)
        }
        for position in b.chapters.indices where after.isFirst[position] && oldOf[position] >= 0 {
            let oldPosition = oldOf[position]
            let oldChapter = a.chapters[oldPosition], newChapter = b.chapters[position]
            let oldTargets = before.targets[oldPosition], newTargets = after.targets[position]
            // A choice leads to the same chapter when its old chapter is on the new side
            // (renamed or not) at the new choice's chapter; when the old one is gone or was
            // never there, when the ids are the same.
            func sameChoice(_ index: Int) -> Bool {
                let old = a.choices[Int(oldChapter.choiceStart) + index], new = b.choices[Int(newChapter.choiceStart) + index]
                guard same(old.textNode, new.textNode) else { return false }
                let target = oldTargets[index]
                return target >= 0 && newOf[target] >= 0 ? newOf[target] == newTargets[index] : same(Int(old.targetNode), Int(new.targetNode))
            }
            let unchanged = same(oldChapter.nameNode, newChapter.nameNode) && same(oldChapter.textNode, newChapter.textNode)
                && same(oldChapter.picAltNode, newChapter.picAltNode) && oldTargets.count == newTargets.count && oldTargets.indices.allSatisfy(sameChoice)
            if unchanged { continue }
            let old = before.chapter(oldPosition), chapter = after.chapter(position)
            let here = Chapter(id: chapter.id, title: chapter.name)
            var change = TextChange(chapter: here)
            if old.name != chapter.name { change.title = WordDiff(old: old.name, new: chapter.name) }
            if old.text != chapter.text { change.text = WordDiff(old: old.text, new: chapter.text) }
            if old.picAlt != chapter.picAlt { change.pictureAlt = WordDiff(old: old.picAlt ?? "", new: chapter.picAlt ?? "") }
            if change.title != nil || change.text != nil || change.pictureAlt != nil { texts.append(change) }
            choices += Self.choiceChanges(old.choices, chapter.choices, in: here, map: map)
        }

        // Endings and reachability, as a reader finds them.
        for position in b.chapters.indices where after.isFirst[position] {
            let oldPosition = oldOf[position] >= 0 ? oldOf[position] : nil
            let wasEnding = oldPosition.map(before.isEnding) ?? false, isEnding = after.isEnding(position)
            let wasReachable = oldPosition.map { before.reachable[$0] }, isReachable = after.reachable[position]
            guard isEnding != wasEnding || (wasReachable != nil && wasReachable != isReachable) else { continue }
            let here = after.named(position)
            if isEnding, !wasEnding { endingsAdded.append(here) }
            if wasReachable == true, !isReachable { becameUnreachable.append(here) }
            if wasReachable == false, isReachable { becameReachable.append(here) }
        }
        for position in a.chapters.indices where before.isFirst[position] && before.isEnding(position) {
            if newOf[position] >= 0, after.isEnding(newOf[position]) { continue }
            let lost = before.named(position)
            endingsLost.append(Chapter(id: map[lost.id] ?? lost.id, title: lost.title))
        }

        (findingsNew, findingsFixed) = Self.findingChanges(old: before.side.findings, new: after.side.findings)
        if let oldVersion = before.version, let newVersion = after.version {
            pictures = Self.pictureChanges(a, b, old: oldVersion, new: newVersion)
            translations = Self.translationImpact(before.model, after.model, map: map, old: oldVersion, new: newVersion)
        }
    }

    /// Removed and added chapters that are one chapter under a new id: the same content first,
    /// then the most alike by their words, at least `renameThreshold` percent.
    public static func renames(_ gone: [StoryFormat.Chapter], _ arrived: [StoryFormat.Chapter]) -> [Rename] {
        guard !gone.isEmpty, !arrived.isEmpty else { return [] }
        func content(_ chapter: StoryFormat.Chapter) -> String {
            ([chapter.name, chapter.text] + chapter.choices.map { $0.text + "\u{0}" + $0.chapterID }).joined(separator: "\u{1}")
        }
        var pairs: [Rename] = []
        var usedNew = Set<Int>()
        var byContent: [String: [Int]] = [:]
        for (index, chapter) in arrived.enumerated() { byContent[content(chapter), default: []].append(index) }
        var left: [Int] = []
        for (index, chapter) in gone.enumerated() {
            if let match = byContent[content(chapter)]?.first(where: { !usedNew.contains($0) }) {
                usedNew.insert(match)
                pairs.append(Rename(from: Chapter(id: chapter.id, title: chapter.name), to: Chapter(id: arrived[match].id, title: arrived[match].name), similarity: 100))
            } else {
                left.append(index)
            }
        }
        let right = arrived.indices.filter { !usedNew.contains($0) }
        guard !left.isEmpty, !right.isEmpty, left.count * right.count <= renameComparisons else { return pairs }
        func words(_ chapter: StoryFormat.Chapter) -> Set<Substring> {
            Set((chapter.name + " " + chapter.text + " " + chapter.choices.map(\.text).joined(separator: " ")).split(whereSeparator: { !$0.isLetter && !$0.isNumber }))
        }
        let leftWords = left.map { words(gone[$0]) }, rightWords = right.map { words(arrived[$0]) }
        var candidates: [(score: Int, l: Int, r: Int)] = []
        for (li, lw) in leftWords.enumerated() {
            for (ri, rw) in rightWords.enumerated() {
                let union = lw.union(rw).count
                guard union > 0 else { continue }
                let score = lw.intersection(rw).count * 100 / union
                if score >= renameThreshold { candidates.append((score, li, ri)) }
            }
        }
        var takenLeft = Set<Int>(), takenRight = Set<Int>()
        for candidate in candidates.sorted(by: { ($0.score, -$0.l, -$0.r) > ($1.score, -$1.l, -$1.r) }) {
            guard !takenLeft.contains(candidate.l), !takenRight.contains(candidate.r) else { continue }
            takenLeft.insert(candidate.l)
            takenRight.insert(candidate.r)
            let from = gone[left[candidate.l]], to = arrived[right[candidate.r]]
            pairs.append(Rename(from: Chapter(id: from.id, title: from.name), to: Chapter(id: to.id, title: to.name), similarity: candidate.score))
        }
        return pairs
    }

    /// One chapter's choices, old against new (old targets seen through renames): the same words
    /// to another chapter are retargeted, other words to the same chapter reworded.
    static func choiceChanges(_ old: [Choice], _ new: [Choice], in chapter: Chapter, map: [String: String]) -> [ChoiceChange] {
        var oldLeft = old.map { (text: $0.text, target: map[$0.chapterID] ?? $0.chapterID) }
        var newLeft = new.map { (text: $0.text, target: $0.chapterID) }
        // Unchanged.
        var index = 0
        while index < newLeft.count {
            if let match = oldLeft.firstIndex(where: { $0.text == newLeft[index].text && $0.target == newLeft[index].target }) {
                oldLeft.remove(at: match)
                newLeft.remove(at: index)
            } else {
                index += 1
            }
        }
        var changes: [ChoiceChange] = []
        index = 0
        while index < newLeft.count {
            let choice = newLeft[index]
            if let match = oldLeft.firstIndex(where: { $0.text == choice.text }) {
                changes.append(.retargeted(in: chapter, text: choice.text, from: oldLeft[match].target, to: choice.target))
            } else if let match = oldLeft.firstIndex(where: { $0.target == choice.target }) {
                changes.append(.reworded(in: chapter, to: choice.target, WordDiff(old: oldLeft[match].text, new: choice.text)))
            } else {
                index += 1
                continue
            }
            oldLeft.remove(at: oldLeft.firstIndex(where: { $0.text == choice.text }) ?? oldLeft.firstIndex(where: { $0.target == choice.target })!)
            newLeft.remove(at: index)
        }
        changes += oldLeft.map { .removed(in: chapter, text: $0.text, to: $0.target) }
        changes += newLeft.map { .added(in: chapter, text: $0.text, to: $0.target) }
        return changes
    }

    /// Findings by code and message (their places move with any edit): new on the new side,
    /// fixed from the old.
    static func findingChanges(old: [Finding], new: [Finding]) -> (new: [Finding], fixed: [Finding]) {
        // Each finding's key made once (it was joined again at each of five uses, 7,000 findings
        // a side in a flawed story).
        let oldKeys = old.map { $0.code + "\u{0}" + $0.message }, newKeys = new.map { $0.code + "\u{0}" + $0.message }
        var oldCount: [String: Int] = [:]
        for key in oldKeys { oldCount[key, default: 0] += 1 }
        var newCount: [String: Int] = [:]
        for key in newKeys { newCount[key, default: 0] += 1 }
        /// The findings of `side` past the first `counts[key]` of their key: each of those
        /// first ones has its like on the other side.
        func beyond(_ side: [Finding], _ keys: [String], _ counts: consuming [String: Int]) -> [Finding] {
            var left = counts
            var past: [Finding] = []
            for index in side.indices {
                if let count = left[keys[index]], count > 0 { left[keys[index]] = count - 1 } else { past.append(side[index]) }
            }
            return past
        }
        return (beyond(new, newKeys, oldCount), beyond(old, oldKeys, newCount))
    }

    /// Pictures named on either side: added, removed, or the same path with other bytes.
    static func pictureChanges(_ a: StorySyntax, _ b: StorySyntax, old: StoryVersion, new: StoryVersion) -> [PictureChange] {
        func uses(_ story: StorySyntax) -> [String: [String]] {
            var uses: [String: [String]] = [:]
            for media in story.media where media.isPicture {
                uses[media.path.value, default: []].append(media.chapter.map { story.chapters[$0].idValue } ?? "the story's page")
            }
            return uses
        }
        let before = uses(a), after = uses(b)
        var changes: [PictureChange] = []
        for path in Set(before.keys).union(after.keys).sorted() {
            switch (before[path], after[path]) {
            case (nil, let chapters?): changes.append(PictureChange(path: path, kind: .added, chapters: chapters))
            case (let chapters?, nil): changes.append(PictureChange(path: path, kind: .removed, chapters: chapters))
            case (_, let chapters?):
                guard !path.contains("://") else { continue }
                if old.file(path) != new.file(path) { changes.append(PictureChange(path: path, kind: .changed, chapters: chapters)) }
            default: break
            }
        }
        return changes
    }

    /// For each language of the story's translations (the new side's files, else the old
    /// side's): how many translated strings the change makes fuzzy or leaves without a place.
    static func translationImpact(_ a: () -> Story?, _ b: () -> Story?, map: [String: String], old: StoryVersion, new: StoryVersion) -> [TranslationImpact] {
        let listing = new.file(Linguas.folder + "/" + Linguas.fileName) ?? old.file(Linguas.folder + "/" + Linguas.fileName)
        guard let listing, let a = a(), let b = b() else { return [] }
        let oldUnits = TranslationUnits.extract(a)
        var newUnits: [String: TranslationUnit] = [:]
        for unit in TranslationUnits.extract(b) { newUnits[unit.id] = unit }
        // A unit's id begins with its chapter's id: a renamed chapter's strings are under its new id.
        let renamed = map.filter { $0.key != $0.value }
        func newID(_ id: String) -> String {
            for (from, to) in renamed where id.hasPrefix(from + ".") { return to + id.dropFirst(from.count) }
            return id
        }
        var impacts: [TranslationImpact] = []
        for (language, stem) in Linguas.languageFiles(Linguas.languages(listing)) {
            var file: TranslationFile?
            for format in TranslationFile.Format.allCases {
                let path = Linguas.folder + "/" + stem + "." + format.fileExtension
                if let bytes = new.file(path) ?? old.file(path), let read = try? TranslationFile.read(bytes, format: format) {
                    file = read
                    break
                }
            }
            guard let file else { continue }
            let lookup = TranslationLookup(file)
            var impact = TranslationImpact(language: language, becomeFuzzy: 0, lost: 0, examples: [])
            for unit in oldUnits {
                guard let entry = lookup.entry(for: unit), !entry.translation.isEmpty, !entry.isFuzzy, entry.source == unit.source else { continue }
                let id = unit.id  // made from its parts: made once
                guard let now = newUnits[newID(id)] else {
                    impact.lost += 1
                    if impact.examples.count < 5 { impact.examples.append(id) }
                    continue
                }
                if now.source != unit.source {
                    impact.becomeFuzzy += 1
                    if impact.examples.count < 5 { impact.examples.append(now.id) }
                }
            }
            if impact.becomeFuzzy + impact.lost > 0 { impacts.append(impact) }
        }
        return impacts
    }
}
