import StoryFormat

/// Every chapter's choices as the positions of the chapters they lead to, in choice order (a
/// choice to no chapter left out; a repeated id leads to its first chapter, `ChapterIndex`), back
/// to back: chapter c's are `targets[ends[c]..<ends[c + 1]]`. Found once, in chapter order (in two
/// halves on two cores for a large story), for walks that meet the chapters out of order: read
/// where the walk met each chapter, its choices were a cache miss a chapter (Twine's layout and
/// the translations' reading order walk a story breadth-first).
package struct ChoiceTargets: Sendable {
    package private(set) var ends: [Int32] = [0]
    package private(set) var targets: [Int32] = []

    /// - Parameter parallelFrom: chapters from which the choices are resolved in two halves.
    package init(_ chapters: [Chapter], _ index: ChapterIndex, parallelFrom: Int) {
        let count = chapters.count
        guard count >= max(parallelFrom, 2) else {
            self.init(chapters, 0..<count, index)
            return
        }
        let middle = count / 2
        let second = BackgroundWork { ChoiceTargets(chapters, middle..<count, index) }
        self.init(chapters, 0..<middle, index)
        let later = second.wait()
        let base = Int32(targets.count)
        ends.append(contentsOf: later.ends.dropFirst().map { $0 + base })
        targets.append(contentsOf: later.targets)
    }

    /// The chapters in `range` alone (`ends` from 0).
    private init(_ chapters: [Chapter], _ range: Range<Int>, _ index: ChapterIndex) {
        ends.reserveCapacity(range.count + 1)
        targets.reserveCapacity(range.count * 2)
        // Through a buffer: a chapter's choices are read where they are, the chapter not copied.
        chapters.withUnsafeBufferPointer { chapters in
            for chapter in range {
                // A choice copied out is two strings retained and released.
                chapters[chapter].choices.withUnsafeBufferPointer { choices in
                    for choice in choices.indices {
                        if let next = index[choices[choice].chapterID] { targets.append(Int32(next)) }
                    }
                }
                ends.append(Int32(targets.count))
            }
        }
    }
}
