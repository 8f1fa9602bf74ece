import StoryFormat
import StoryTranslation
import Testing

/// An update's merge of the story's strings with an old translation.
@Suite("Merging a translation")
struct TranslationMergeTests {
    static func unit(_ id: String, _ source: String, _ context: String) -> TranslationUnit {
        TranslationUnit(id: id, source: source, context: context, chapter: String(id.split(separator: ".")[0]))
    }

    @Test("a translation whose ids a tool dropped is found by context and text, the first entry of the two alike")
    func foundByText() {
        let units = [Self.unit("a.title", "Hello", "A"), Self.unit("b.title", "World", "B"), Self.unit("c.title", "Other", "C")]
        let old = TranslationFile(format: .po, entries: [
            TranslationEntry(ids: [], context: "A", source: "Hello", translation: "Bonjour"),
            TranslationEntry(ids: [], context: "B", source: "World", translation: "Monde"),
            TranslationEntry(ids: [], context: "A", source: "Hello", translation: "Salut"),
        ])
        let merge = TranslationMerge(units: units, existing: old, grouped: true)
        #expect(merge.entries.map(\.translation) == ["Bonjour", "Monde", ""])
        #expect(merge.entries.map { $0.units.map(\.id) } == [["a.title"], ["b.title"], ["c.title"]])
        #expect(merge.counts.kept == 2 && merge.counts.added == 1)
    }

    @Test("strings of one context and text are one entry of a PO file, in the order their first comes, whatever lies between")
    func grouped() {
        let units = [
            Self.unit("a.title", "Go", "A"), Self.unit("a.choice.b", "Back", "A"), Self.unit("b.title", "Go", "B"),
            Self.unit("a.choice.c", "Back", "A"), Self.unit("a.choice.d", "Caf\u{E9}", "A"), Self.unit("a.choice.e", "Cafe\u{301}", "A"),
        ]
        let old = TranslationFile(format: .po, entries: [TranslationEntry(ids: ["a.choice.c"], context: "A", source: "Back", translation: "Retour")])
        let merge = TranslationMerge(units: units, existing: old, grouped: true)
        #expect(merge.entries.map { $0.units.map(\.id) } == [["a.title"], ["a.choice.b", "a.choice.c"], ["b.title"], ["a.choice.d", "a.choice.e"]])
        // The entry's translation is its first string's: none here, the second's not taken.
        #expect(merge.entries[1].translation == "")
        #expect(TranslationMerge(units: units, existing: nil, grouped: false).entries.count == units.count)
    }
}
