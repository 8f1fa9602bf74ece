#if DEBUG
import StoryFormat
import StoryInterchange
import StoryTranslation

/// The readers of what translators and Twine authors hand in: a Twee file, a Twine archive, a PO
/// file and an XLIFF file. Whatever the bytes, each reader ends with a story, a translation or
/// its finding; a finding's place is in the file; a story that was read writes back as Twee and
/// an archive that read back to the same story (and the same without a map of places); a translation that was read writes back as PO
/// that reads back to the same entries.
enum InterchangeFuzzing {
    static func run(_ bytes: [UInt8]) {
        let lines = bytes.reduce(1) { $0 + ($1 == 10 ? 1 : 0) }
        // The input as it is, and inside a story element (no line added), so the archive's
        // tokenizer meets it where passages, scripts and comments are read.
        let wrapped = Array("<tw-storydata name=\"f\" startnode=\"1\">".utf8) + bytes + Array("</tw-storydata>".utf8)
        // An import keeps no map of places; it reads the same story and findings.
        let bare = [TweeStory.story(from: bytes, placing: false), TwineArchive.story(from: bytes, placing: false), TwineArchive.story(from: wrapped, placing: false)]
        for (number, imported) in [TweeStory.story(from: bytes), TwineArchive.story(from: bytes), TwineArchive.story(from: wrapped)].enumerated() {
            precondition(bare[number].story == imported.story && bare[number].findings == imported.findings, "an import without places reads otherwise")
            for finding in imported.findings {
                precondition(finding.line >= 1 && finding.line <= lines + 1 && finding.column >= 1, "a finding outside the file: \(finding)")
            }
            guard let story = imported.story, let twee = try? TweeStory.twee(story) else { continue }
            let back = TweeStory.story(from: Array(twee.utf8))
            precondition(back.story == story, "a story read from the input does not come back from its own Twee")
            if let html = try? TwineArchive.html(story) {
                precondition(TwineArchive.story(from: Array(html.utf8)).story == story, "a story does not come back from its own archive")
            }
        }
        for format in TranslationFile.Format.allCases {
            do {
                let file = try TranslationFile.read(bytes, format: format)
                _ = TranslationLookup(file)
            } catch {
                precondition(error.line >= 1 && error.column >= 1, "a read error without a place: \(error)")
            }
        }
    }
}
#endif
