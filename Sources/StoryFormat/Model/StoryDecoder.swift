/// Decodes story and authors files from a parsed document, reporting every structural problem
/// instead of stopping at the first.
public enum StoryDecoder {
    static let rootKeys = [KeySpec(name: "story", expected: .object, required: true)]
    static let storyKeys = [
        KeySpec(name: "id", expected: .nonEmptyString, required: true),
        KeySpec(name: "name", expected: .nonEmptyString, required: true),
        KeySpec(name: "rating", expected: .nonEmptyString, required: true),
        KeySpec(name: "summary", expected: .nonEmptyString, required: true),
        KeySpec(name: "pic_path", expected: .nonEmptyString, required: false),
        KeySpec(name: "vid_path", expected: .nonEmptyString, required: false),
        KeySpec(name: "chapters", expected: .array, required: true),
    ]
    static let chapterKeys = [
        KeySpec(name: "id", expected: .nonEmptyString, required: true),
        KeySpec(name: "name", expected: .nonEmptyString, required: true),
        KeySpec(name: "text", expected: .string, required: true),
        KeySpec(name: "is_first_chapter", expected: .boolean, required: false),
        KeySpec(name: "is_ending", expected: .boolean, required: false),
        KeySpec(name: "pic_path", expected: .nonEmptyString, required: false),
        KeySpec(name: "vid_path", expected: .nonEmptyString, required: false),
        KeySpec(name: "choices", expected: .array, required: false),
    ]
    static let choiceKeys = [
        KeySpec(name: "chapter_id", expected: .nonEmptyString, required: true),
        KeySpec(name: "text", expected: .nonEmptyString, required: true),
    ]
    static let authorsRootKeys = [KeySpec(name: "authors", expected: .array, required: true)]
    static let authorKeys = [
        KeySpec(name: "name", expected: .nonEmptyString, required: true),
        KeySpec(name: "repos", expected: .array, required: false),
    ]

    /// The keys each object of a story file may hold, for documentation and suggestions.
    public static var knownStoryKeys: [String: [String]] {
        [
            "root": rootKeys.map(\.name), "story": storyKeys.map(\.name), "chapter": chapterKeys.map(\.name),
            "choice": choiceKeys.map(\.name),
        ]
    }

    public static func decodeStory(_ document: JSONDocument) -> (StorySyntax, [Diagnostic]) {
        var syntax = StorySyntax(document: document)
        var reader = ObjectReader(document: document)
        guard let root = document.root else { return (syntax, []) }
        guard document.kind(root) == .object else {
            return (syntax, [notAnObject(document, root, "the file", example: "{ \"story\": { ... } }")])
        }
        guard let story = reader.read(root, specs: rootKeys, label: "the file").node(0) else { return (syntax, reader.diagnostics) }
        syntax.storyNode = story
        let fields = reader.read(story, specs: storyKeys, label: "the story")
        func string(_ index: Int) -> Located<String>? {
            fields.node(index).map { Located(document.string($0), node: $0) }
        }
        syntax.id = string(0)
        syntax.name = string(1)
        syntax.rating = string(2)
        syntax.summary = string(3)
        syntax.picPath = string(4)
        syntax.vidPath = string(5)
        if let pic = syntax.picPath { syntax.media.append(MediaSyntax(path: pic, chapter: nil, isPicture: true)) }
        if let vid = syntax.vidPath { syntax.media.append(MediaSyntax(path: vid, chapter: nil, isPicture: false)) }
        if let chapters = fields.node(6) {
            syntax.chaptersNode = chapters
            // The exact capacity up front: growing by doubling would copy an array of hundreds
            // of thousands of chapters several times.
            syntax.chapters.reserveCapacity(document.count(of: chapters))
            var index = 0
            for element in document.elements(of: chapters) {
                defer { index += 1 }
                guard document.kind(element) == .object else {
                    reader.diagnostics.append(
                        Diagnostic(
                            code: .wrongType, severity: .error,
                            message: "chapter \(index + 1) must be an object, found \(document.kind(element).noun)",
                            help: "write each chapter as { \"id\": ..., \"name\": ..., \"text\": ... }",
                            range: document.range(element), subject: element))
                    continue
                }
                decodeChapter(element, index: index, into: &syntax, reader: &reader)
            }
            if index == 0 {
                let start = document.range(chapters).lowerBound
                reader.diagnostics.append(
                    Diagnostic(
                        code: .noChapters, severity: .error, message: "the story has no chapters",
                        help: "add at least one chapter marked \"is_first_chapter\": true",
                        range: start..<(start + 1), subject: chapters))
            }
        }
        return (syntax, reader.diagnostics)
    }

    static func decodeChapter(_ node: Int, index: Int, into syntax: inout StorySyntax, reader: inout ObjectReader) {
        let document = reader.document
        var chapter = ChapterSyntax(node: node, index: index)
        // The id first, so that findings about other keys can name the chapter.
        if let idNode = document.member(node, "id"), document.kind(idNode) == .string {
            chapter.idNode = Int32(idNode)
            chapter.idValue = document.string(idNode)
        }
        let fields = reader.read(node, specs: chapterKeys, label: chapter.label)
        if fields[0] < 0 {
            chapter.idNode = -1
            chapter.idValue = ""
        }
        chapter.storedNameNode = max(-1, fields[1])
        chapter.storedTextNode = max(-1, fields[2])
        if let first = fields.node(3) {
            chapter.firstNode = Int32(first)
            if document.kind(first) == .true { chapter.flags |= ChapterSyntax.isFirst }
        }
        if let ending = fields.node(4) {
            chapter.endingNode = Int32(ending)
            if document.kind(ending) == .true { chapter.flags |= ChapterSyntax.isEnding }
        }
        if let pic = fields.node(5) {
            syntax.media.append(MediaSyntax(path: Located(document.string(pic), node: pic), chapter: index, isPicture: true))
        }
        if let vid = fields.node(6) {
            syntax.media.append(MediaSyntax(path: Located(document.string(vid), node: vid), chapter: index, isPicture: false))
        }
        chapter.choiceStart = Int32(syntax.choices.count)
        if let choices = fields.node(7) {
            chapter.storedChoicesNode = Int32(choices)
            var choiceIndex = 0
            for element in document.elements(of: choices) {
                defer { choiceIndex += 1 }
                guard document.kind(element) == .object else {
                    reader.diagnostics.append(
                        Diagnostic(
                            code: .wrongType, severity: .error,
                            message: "choice \(choiceIndex + 1) of \(chapter.label) must be an object, found \(document.kind(element).noun)",
                            help: "write each choice as { \"chapter_id\": \"...\", \"text\": \"...\" }",
                            range: document.range(element), subject: element))
                    continue
                }
                let choiceFields = reader.read(element, specs: choiceKeys, label: "choice \(choiceIndex + 1) of \(chapter.label)")
                var choice = ChoiceSyntax(storedNode: Int32(element), storedIndex: Int32(choiceIndex), storedChapter: Int32(index))
                if let target = choiceFields.node(0) {
                    choice.targetNode = Int32(target)
                }
                choice.storedTextNode = max(-1, choiceFields[1])
                syntax.choices.append(choice)
            }
        }
        chapter.choiceCount = Int32(syntax.choices.count) - chapter.choiceStart
        syntax.chapters.append(chapter)
    }

    public static func decodeAuthors(_ document: JSONDocument) -> (AuthorsSyntax, [Diagnostic]) {
        var syntax = AuthorsSyntax(document: document)
        var reader = ObjectReader(document: document)
        guard let root = document.root else { return (syntax, []) }
        guard document.kind(root) == .object else {
            return (syntax, [notAnObject(document, root, "the file", example: "{ \"authors\": [ { \"name\": \"...\" } ] }")])
        }
        guard let authors = reader.read(root, specs: authorsRootKeys, label: "the catalogue").node(0) else {
            return (syntax, reader.diagnostics)
        }
        syntax.authorsNode = authors
        for (index, element) in document.elements(of: authors).enumerated() {
            guard document.kind(element) == .object else {
                reader.diagnostics.append(
                    Diagnostic(
                        code: .wrongType, severity: .error,
                        message: "author \(index + 1) must be an object, found \(document.kind(element).noun)",
                        help: document.kind(element) == .string ? "write { \"name\": \(document.sourceText(element)) }" : "write { \"name\": \"...\" }",
                        range: document.range(element), subject: element))
                continue
            }
            let fields = reader.read(element, specs: authorKeys, label: "author \(index + 1)")
            var author = AuthorSyntax(node: element, index: index)
            author.name = fields.node(0).map { Located(document.string($0), node: $0) }
            if let repos = fields.node(1) {
                for repo in document.elements(of: repos) {
                    if document.kind(repo) == .string {
                        author.repos.append(Located(document.string(repo), node: repo))
                    } else {
                        reader.diagnostics.append(
                            Diagnostic(
                                code: .wrongType, severity: .error,
                                message: "each repository of author \(index + 1) must be a string, found \(document.kind(repo).noun)",
                                help: "write the repository's git URL in double quotes", range: document.range(repo),
                                subject: repo))
                    }
                }
            }
            syntax.authors.append(author)
        }
        return (syntax, reader.diagnostics)
    }

    static func notAnObject(_ document: JSONDocument, _ node: Int, _ label: String, example: String) -> Diagnostic {
        Diagnostic(
            code: .wrongType, severity: .error, message: "\(label) must hold an object, found \(document.kind(node).noun)",
            help: "the file should look like \(example)", range: document.range(node), pointer: "")
    }
}

/// What a JSON file is, judged by its content (and its name when the content does not say).
public enum DocumentKind: Sendable, Hashable {
    case story, authors

    public static func detect(_ document: JSONDocument?, fileName: String) -> DocumentKind {
        if let document, let root = document.root, document.kind(root) == .object {
            if document.member(root, "story") != nil { return .story }
            if document.member(root, "authors") != nil { return .authors }
        }
        return fileName.lowercased().hasSuffix("authors.json") ? .authors : .story
    }
}
