import StoryFormat

/// What the language server knows of one version of a story: its tree read leniently (so a
/// trailing comma does not blind navigation) and the chapters by id.
struct StoryNavigation {
    let syntax: StorySyntax
    let document: JSONDocument
    /// Chapter positions by id, the first of duplicates first.
    let chaptersByID: [String: [Int]]

    init?(bytes: [UInt8], fileName: String) {
        let file = LoadedFile.asReadersRead(bytes, fileName: fileName)
        guard let syntax = file.story, let document = file.document else { return nil }
        self.syntax = syntax
        self.document = document
        var byID: [String: [Int]] = [:]
        for chapter in syntax.chapters {
            if let id = chapter.id { byID[id.value, default: []].append(chapter.index) }
        }
        chaptersByID = byID
    }

    /// A chapter id under the cursor: a chapter's own `id`, or a choice's `chapter_id`.
    struct Site {
        var id: String
        var node: Int
        /// The chapter whose `id` this is, when it is one.
        var declaration: Int?
    }

    func site(at offset: Int) -> Site? {
        for chapter in syntax.chapters {
            if let id = chapter.id, contains(id.node, offset) { return Site(id: id.value, node: id.node, declaration: chapter.index) }
        }
        for choice in syntax.choices where choice.targetNode >= 0 {
            let node = Int(choice.targetNode)
            if contains(node, offset) { return Site(id: document.string(node), node: node, declaration: nil) }
        }
        return nil
    }

    /// The string node's span, its closing quote included, so a cursor just after it counts.
    private func contains(_ node: Int, _ offset: Int) -> Bool {
        guard document.kind(node) == .string else { return false }
        let range = document.range(node)
        return range.lowerBound <= offset && offset <= range.upperBound
    }

    /// The `id` nodes of the chapters with this id.
    func declarations(of id: String) -> [Int] {
        (chaptersByID[id] ?? []).compactMap { syntax.chapters[$0].id?.node }
    }

    /// Every choice target naming this id.
    func uses(of id: String) -> [Int] {
        syntax.choices.compactMap { choice in
            guard choice.targetNode >= 0 else { return nil }
            let node = Int(choice.targetNode)
            return document.string(node) == id ? node : nil
        }
    }

    func chapter(withID id: String) -> ChapterSyntax? {
        chaptersByID[id]?.first.map { syntax.chapters[$0] }
    }

    func name(of chapter: ChapterSyntax) -> String? {
        chapter.nameNode.flatMap { document.kind($0) == .string ? document.string($0) : nil }
    }

    /// The first non-blank line of a chapter's text, cut at 200 characters.
    func firstLine(of chapter: ChapterSyntax) -> String? {
        guard let node = chapter.textNode, document.kind(node) == .string else { return nil }
        let text = document.string(node)
        guard let line = text.split(whereSeparator: \.isNewline).first(where: { !$0.allSatisfy(\.isWhitespace) }) else { return nil }
        return line.count > 200 ? String(line.prefix(200)) + "…" : String(line)
    }

    /// Where a new chapter goes: just after the last chapter, in the `chapters` array, with the
    /// indentation of the chapters already there. Nil without a `chapters` array.
    func newChapterInsertion(id: String) -> (offset: Int, text: String)? {
        guard let chaptersNode = syntax.chaptersNode, document.kind(chaptersNode) == .array else { return nil }
        let quoted = JSONQuoting.quoted(id)
        let chapters = Array(document.elements(of: chaptersNode))
        let bytes = document.bytes
        if let last = chapters.last {
            let start = document.range(last).lowerBound
            var lineStart = start
            while lineStart > 0, bytes[lineStart - 1] != UInt8(ascii: "\n") { lineStart -= 1 }
            let indentation = String(decoding: bytes[lineStart..<start].prefix { $0 == 0x20 || $0 == 0x09 }, as: UTF8.self)
            let inner = indentation + (indentation.contains("\t") ? "\t" : "  ")
            let text = ",\n\(indentation){\n\(inner)\"id\": \(quoted),\n\(inner)\"name\": \(quoted),\n\(inner)\"text\": \"(to be written)\",\n\(inner)\"choices\": []\n\(indentation)}"
            return (document.range(last).upperBound, text)
        }
        let open = document.range(chaptersNode).lowerBound + 1
        return (open, "\n  {\"id\": \(quoted), \"name\": \(quoted), \"text\": \"(to be written)\", \"choices\": []}\n")
    }
}

/// Whether the cursor sits inside the string value of a `"chapter_id"` key, read from the raw
/// text (while typing, the file often does not parse). Returns the offset just after the
/// value's opening quote.
func chapterIDValueStart(in bytes: [UInt8], at offset: Int) -> Int? {
    guard offset <= bytes.count else { return nil }
    // Back to the opening quote on this line, stopping at an unescaped quote.
    var index = offset - 1
    while index >= 0 {
        let byte = bytes[index]
        if byte == UInt8(ascii: "\n") { return nil }
        if byte == UInt8(ascii: "\"") {
            var backslashes = 0
            var before = index - 1
            while before >= 0, bytes[before] == UInt8(ascii: "\\") {
                backslashes += 1
                before -= 1
            }
            if backslashes % 2 == 0 { break }
        }
        index -= 1
    }
    guard index >= 0 else { return nil }
    let valueStart = index + 1
    // Before the quote: white space, a colon, white space, then "chapter_id".
    var cursor = index - 1
    func skipSpace() { while cursor >= 0, bytes[cursor] == 0x20 || bytes[cursor] == 0x09 || bytes[cursor] == 0x0A || bytes[cursor] == 0x0D { cursor -= 1 } }
    skipSpace()
    guard cursor >= 0, bytes[cursor] == UInt8(ascii: ":") else { return nil }
    cursor -= 1
    skipSpace()
    let key = Array("\"chapter_id\"".utf8)
    guard cursor + 1 >= key.count, Array(bytes[(cursor + 1 - key.count)...cursor]) == key else { return nil }
    return valueStart
}
