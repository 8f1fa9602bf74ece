import StoryFormat
@testable import StoryTranslation
import Testing

/// A string's id kept as its parts (`UnitKey`) is the id `TranslationUnits` makes, in every way
/// it is read: as text, as bytes, compared with a file's ids.
@Suite("Ids kept as their parts")
struct UnitKeyTests {
    static let chapters = ["c", "chapter000042", "Caf\u{E9}", "Cafe\u{301}", "\u{212A}iln", "漢字", "a.b", String(repeating: "long-", count: 30)]
    static let targets = ["c2", "Caf\u{E9}", "Kiln", "", String(repeating: "far-", count: 30)]

    /// Every form, with the id `TranslationUnits` makes for it.
    static func cases() -> [(UnitKey, String, String)] {
        var made: [(UnitKey, String, String)] = []
        for chapter in chapters {
            made.append((.title, chapter, TranslationUnits.title(chapter)))
            made.append((.pictureAlt, chapter, TranslationUnits.pictureAlt(chapter)))
            for number in [1, 2, 9, 10, 99, 100, 123_456, Int(Int32.max)] {
                made.append((.paragraph(number), chapter, TranslationUnits.paragraph(chapter, number)))
            }
            for target in targets {
                for ordinal in [0, 1, 2, 10, 1_000_000] {
                    made.append((.choice(target: target, ordinal: ordinal), chapter, TranslationUnits.choice(chapter, target: target, ordinal: ordinal)))
                }
            }
        }
        return made
    }

    @Test("a chapter's string's id, kept as its parts, reads as the id made whole: as text, as bytes, and in comparisons as Swift compares strings")
    func partsAreTheID() {
        for (key, chapter, id) in Self.cases() {
            let unit = TranslationUnit(key: key, source: "Text", context: "Title", chapter: chapter)
            #expect(unit.id == id)
            #expect(unit.id.utf8.elementsEqual(id.utf8), "the same bytes, not only the same text: \(id.debugDescription)")
            var bytes: [UInt8] = [0x2A]
            [unit].withUnsafeBufferPointer { $0.appendID(at: 0, to: &bytes) }
            #expect(bytes == [0x2A] + Array(id.utf8), "\(id.debugDescription)")
            #expect(unit.hasID(id))
            // Written another way that Swift holds equal: composed, decomposed, the Kelvin sign.
            for other in [id.decomposedForm, id.replacingKelvin] where other == id {
                #expect(unit.hasID(other), "\(other.debugDescription) for \(id.debugDescription)")
            }
            for other in [id + "x", String(id.dropLast()), "x" + id, id.uppercased(), "", id + ".2"] where other != id {
                #expect(!unit.hasID(other), "\(other.debugDescription) is not \(id.debugDescription)")
            }
            #expect(!unit.hasID(nil))
            #expect(unit == TranslationUnit(id: id, source: "Text", context: "Title", chapter: chapter), "equal to the unit made with its id whole")
            #expect(unit.hashValue == TranslationUnit(id: id, source: "Text", context: "Title", chapter: chapter).hashValue)
        }
    }

    @Test("a unit's id stays what it was when its chapter is set, and becomes what it is set to")
    func idSurvivesChapter() {
        var unit = TranslationUnit(key: .paragraph(3), source: "Text", context: "Title", chapter: "one")
        unit.chapter = "two"
        #expect(unit.id == "one.text.3" && unit.chapter == "two" && unit.hasID("one.text.3") && !unit.hasID("two.text.3"))
        unit.id = "story.name"
        #expect(unit.id == "story.name" && unit.hasID("story.name"))
    }
}

extension String {
    /// The text with every character decomposed (NFD), as Foundation is not asked to.
    fileprivate var decomposedForm: String {
        String(String.UnicodeScalarView(unicodeScalars.flatMap { scalar -> [Unicode.Scalar] in
            switch scalar {
            case "\u{E9}": ["e", "\u{301}"]
            default: [scalar]
            }
        }))
    }

    /// The text with K written as the Kelvin sign, which Swift holds equal to it.
    fileprivate var replacingKelvin: String {
        String(String.UnicodeScalarView(unicodeScalars.map { $0 == "K" ? "\u{212A}" : $0 }))
    }
}
