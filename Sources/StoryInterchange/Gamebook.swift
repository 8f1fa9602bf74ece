import InterfaceWords
import StoryFormat
import StoryWeb

/// A story as an EPUB 3 gamebook: the first chapter first, every other chapter a numbered
/// section in a shuffled order (seeded, so the same story and seed give the same book), each
/// choice a link "turn to 37", endings marked, pictures inside the book with their alt text, a
/// cover page, a navigation document, and schema.org accessibility metadata. Text is escaped in
/// one place (`MarkupText`, after control characters are made visible: XML forbids most of them).
public enum Gamebook {
    public struct Options: Sendable {
        /// What [[name]] reads (default: `ReaderName.fallback`).
        public var readerName: String?
        /// The shuffle's seed.
        public var seed: UInt64
        /// The pictures to put in the book, by `pic_path`: bytes the command line read or fetched.
        /// A path missing here has no picture in the book.
        public var pictures: [String: [UInt8]]
        /// `dcterms:modified`, as EPUB asks: `CCYY-MM-DDThh:mm:ssZ`.
        public var modified: String
        /// The book's language (BCP 47).
        public var language: String
        /// cyd's words in the book ("turn to 37", "The end."): the book's language where they are
        /// translated into it, else English.
        public var words: Phrasebook

        public init(readerName: String? = nil, seed: UInt64 = 1, pictures: [String: [UInt8]] = [:], modified: String, language: String = "en") {
            self.words = Phrasebook(preferring: [language])
            self.readerName = readerName
            self.seed = seed
            self.pictures = pictures
            self.modified = modified
            self.language = language
        }
    }

    public enum Problem: Error, Sendable, Equatable {
        /// No chapter to start from.
        case noFirstChapter
        /// Past ZIP's 4 GiB without ZIP64.
        case tooLarge
        /// More sections and pictures than a ZIP without ZIP64 holds (65,535 files).
        case tooManyFiles(Int)
    }

    /// The section numbers: the first chapter is 1, the others follow in a seeded shuffle. Chapters
    /// sharing an id are numbered once (the first holder, as a reader follows).
    public static func numbering(_ story: Story, seed: UInt64) -> [String: Int] {
        guard let first = story.firstChapter else { return [:] }
        var seen: Set<String> = [first.id]
        var others = story.chapters.filter { seen.insert($0.id).inserted }.map(\.id)
        var generator = SplitMix64(state: seed)
        others.shuffle(using: &generator)
        var numbers = [first.id: 1]
        for (index, id) in others.enumerated() { numbers[id] = index + 2 }
        return numbers
    }

    /// The books to write of a story: as written (in `language`) when `original`, then each
    /// translation in its own language. One book goes to `output`; more are named after it,
    /// `book.epub` becoming `book.fr.epub` for each translation.
    public static func books(
        _ story: Story, language: String, translations: [(language: String, story: Story)], original: Bool, output: String
    ) -> [(language: String, story: Story, path: String)] {
        let all = (original ? [(language, story)] : []) + translations
        guard all.count > 1 else { return all.map { ($0.0, $0.1, output) } }
        let stem = output.lowercased().hasSuffix(".epub") ? String(output.dropLast(5)) : output
        return all.enumerated().map { index, book in
            (book.0, book.1, original && index == 0 ? output : stem + "." + book.0 + ".epub")
        }
    }

    public static func epub(_ story: Story, options: Options) throws(Problem) -> [UInt8] {
        guard let first = story.firstChapter else { throw .noFirstChapter }
        let numbers = numbering(story, seed: options.seed)
        var byNumber: [(Int, Chapter)] = []
        var placed = Set<String>()
        for chapter in [first] + story.chapters where placed.insert(chapter.id).inserted {
            byNumber.append((numbers[chapter.id]!, chapter))
        }
        byNumber.sort { $0.0 < $1.0 }
        // A book's title and description must hold text (EPUB's package rules): a blank one is
        // left out, or named plainly.
        let words = options.words
        let title = isBlank(story.name) ? words[.pageUntitledStory] : story.name
        let digits = String(byNumber.count).count

        // Pictures, each once, named by their order of first use.
        var pictureFiles: [String: (file: String, type: String)] = [:]
        var pictureOrder: [(String, [UInt8], String)] = []
        func picture(_ path: String?) -> (file: String, type: String)? {
            guard let path, let bytes = options.pictures[path], let type = PictureFormat.mediaType(Array(bytes.prefix(12))) else { return nil }
            if let known = pictureFiles[path] { return known }
            let ext = type == "image/jpeg" ? "jpg" : String(type.dropFirst("image/".count))
            let file = "images/p\(pictureOrder.count + 1).\(ext)"
            pictureFiles[path] = (file, type)
            pictureOrder.append((file, bytes, type))
            return (file, type)
        }
        func sectionFile(_ number: Int) -> String { "s" + String(repeating: "0", count: digits - String(number).count) + String(number) + ".xhtml" }

        var zip = StoredZip()
        do throws(StoredZip.Failure) {
            try zip.add("mimetype", Array("application/epub+zip".utf8))
            try zip.add("META-INF/container.xml", Array(container.utf8))
            try zip.add("OEBPS/style.css", Array(stylesheet.utf8))
            let cover = picture(story.picPath) ?? picture(first.picPath)
            try zip.add("OEBPS/cover.xhtml", Array(coverPage(title: title, summary: story.summary, picture: cover?.file, language: options.language, words: words).utf8))
            var sections: [String] = []
            for (number, chapter) in byNumber {
                let file = sectionFile(number)
                sections.append(file)
                let page = section(
                    number: number, chapter: chapter, title: title, picture: picture(chapter.picPath)?.file, numbers: numbers, file: sectionFile,
                    readerName: options.readerName ?? ReaderName.fallback, language: options.language, words: words)
                try zip.add("OEBPS/" + file, Array(page.utf8))
            }
            try zip.add("OEBPS/nav.xhtml", Array(navigation(title: title, first: sectionFile(1), count: byNumber.count, language: options.language, words: words).utf8))
            for (file, bytes, _) in pictureOrder { try zip.add("OEBPS/" + file, bytes) }
            let package = packageDocument(
                story: story, title: title, sections: sections, pictures: pictureOrder.map { ($0.0, $0.2) }, cover: cover?.file, options: options)
            try zip.add("OEBPS/package.opf", Array(package.utf8))
        } catch {
            switch error {
            case .tooLarge: throw .tooLarge
            case .tooManyEntries: throw .tooManyFiles(byNumber.count + pictureOrder.count + 5)
            }
        }
        return zip.finished()
    }

    /// Text for XHTML: StoryWeb's one escaping (control characters shown as the reader shows
    /// them, then the five specials).
    static func text(_ value: String) -> String { HTML.text(value) }

    static func isBlank(_ value: String) -> Bool { value.allSatisfy(\.isWhitespace) }

    static let container = """
        <?xml version="1.0" encoding="UTF-8"?>
        <container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container">
          <rootfiles>
            <rootfile full-path="OEBPS/package.opf" media-type="application/oebps-package+xml"/>
          </rootfiles>
        </container>

        """

    static let stylesheet = """
        body { font-family: serif; line-height: 1.5; margin: 0 5%; }
        h1 { font-size: 1.4em; text-align: center; margin: 2em 0 1em; }
        .number { display: block; font-size: 2em; }
        .choices { list-style: none; padding: 0; margin: 1.5em 0; }
        .choices li { margin: 0.5em 0; }
        .the-end { text-align: center; font-weight: bold; margin: 2em 0; }
        img { display: block; max-width: 100%; height: auto; margin: 1em auto; }
        .cover { text-align: center; }

        """

    /// A section or the cover, on the one layout of our pages (StoryWeb's `PageLayout`) in XHTML.
    static func page(title: String, language: String, body: String) -> String {
        PageLayout(style: .linked("style.css"), skipLink: nil, language: language, xhtml: true).document(title: title, header: nil, main: body)
    }

    static func coverPage(title: String, summary: String, picture: String?, language: String, words: Phrasebook) -> String {
        let image = picture.map { "<img src=\"\(text($0))\" alt=\"\"/>" } ?? ""
        return page(
            title: title, language: language,
            body: """
                <section class="cover" epub:type="cover">
                <h1>\(text(title))</h1>
                \(image)\(isBlank(summary) ? "" : "\n<p>\(text(summary))</p>")
                <p>\(text(words[.bookHowToRead]))</p>
                </section>
                """)
    }

    static func section(
        number: Int, chapter: Chapter, title: String, picture: String?, numbers: [String: Int], file: (Int) -> String, readerName: String, language: String,
        words: Phrasebook
    ) -> String {
        let heading = chapter.name.isEmpty ? "Untitled" : chapter.name
        var body = "<section id=\"s\(number)\" epub:type=\"chapter\">\n<h1><span class=\"number\">\(number)</span> \(text(heading))</h1>\n"
        if let picture { body += "<img src=\"\(text(picture))\" alt=\"\(text(chapter.picAlt ?? heading))\"/>\n" }
        for paragraph in Chapter(id: chapter.id, name: chapter.name, text: chapter.text.replacingBytes("[[name]]", with: readerName)).paragraphs {
            body += "<p>" + text(paragraph).replacingBytes("\n", with: "<br/>\n") + "</p>\n"
        }
        if chapter.choices.isEmpty {
            body += "<p class=\"the-end\">\(text(words[.bookTheEnd]))</p>\n"
        } else {
            body += "<ol class=\"choices\">\n"
            for choice in chapter.choices {
                if let target = numbers[choice.chapterID] {
                    body += "<li>\(text(choice.text)): <a href=\"\(file(target))#s\(target)\">\(text(words(.bookTurnTo, ["number": String(target)])))</a></li>\n"
                } else {
                    body += "<li>\(text(choice.text)) \(text(words[.pageNotWrittenYet]))</li>\n"
                }
            }
            body += "</ol>\n"
        }
        body += "</section>"
        return page(title: "\(number). \(heading)", language: language, body: body)
    }

    static func navigation(title: String, first: String, count: Int, language: String, words: Phrasebook) -> String {
        page(
            title: title, language: language,
            body: """
                <nav epub:type="toc" id="toc">
                <h1>\(text(title))</h1>
                <ol>
                <li><a href="cover.xhtml">\(text(words[.bookCover]))</a></li>
                <li><a href="\(first)">\(text(words(.bookBegin, ["count": String(count)])))</a></li>
                </ol>
                </nav>
                """)
    }

    static func packageDocument(
        story: Story, title: String, sections: [String], pictures: [(String, String)], cover: String?, options: Options
    ) -> String {
        let ifid = TweeStory.ifid(for: story)
        var manifest = """
            <item id="nav" href="nav.xhtml" media-type="application/xhtml+xml" properties="nav"/>
            <item id="css" href="style.css" media-type="text/css"/>
            <item id="cover" href="cover.xhtml" media-type="application/xhtml+xml"/>

            """
        for (index, file) in sections.enumerated() { manifest += "<item id=\"s\(index + 1)\" href=\"\(file)\" media-type=\"application/xhtml+xml\"/>\n" }
        for (index, (file, type)) in pictures.enumerated() {
            let property = file == cover ? " properties=\"cover-image\"" : ""
            manifest += "<item id=\"p\(index + 1)\" href=\"\(file)\" media-type=\"\(type)\"\(property)/>\n"
        }
        let spine = (["cover"] + sections.indices.map { "s\($0 + 1)" }).map { "<itemref idref=\"\($0)\"/>" }.joined(separator: "\n")
        let description = isBlank(story.summary) ? "" : "\n<dc:description>\(text(story.summary))</dc:description>"
        let visual = pictures.isEmpty ? "" : "\n<meta property=\"schema:accessMode\">visual</meta>\n<meta property=\"schema:accessibilityFeature\">alternativeText</meta>"
        return """
            <?xml version="1.0" encoding="UTF-8"?>
            <package xmlns="http://www.idpf.org/2007/opf" version="3.0" unique-identifier="book-id" xml:lang="\(text(options.language))">
            <metadata xmlns:dc="http://purl.org/dc/elements/1.1/">
            <dc:identifier id="book-id">urn:uuid:\(ifid)</dc:identifier>
            <dc:title>\(text(title))</dc:title>
            <dc:language>\(text(options.language))</dc:language>\(description)
            <meta property="dcterms:modified">\(text(options.modified))</meta>
            <meta property="schema:accessMode">textual</meta>\(visual)
            <meta property="schema:accessModeSufficient">textual</meta>
            <meta property="schema:accessibilityFeature">structuralNavigation</meta>
            <meta property="schema:accessibilityFeature">readingOrder</meta>
            <meta property="schema:accessibilityHazard">none</meta>
            <meta property="schema:accessibilitySummary">A branching story: each section ends with its choices as links to the numbered section each leads to; pictures carry a description.</meta>
            </metadata>
            <manifest>
            \(manifest)</manifest>
            <spine>
            \(spine)
            </spine>
            </package>

            """
    }
}
