/// Decodes story and authors files from a parsed document, reporting every structural problem
/// instead of stopping at the first.
public enum StoryDecoder {
    struct RootFields: KeyFields { var story: Int32 = -1 }
    struct StoryFields: KeyFields {
        var id: Int32 = -1, name: Int32 = -1, rating: Int32 = -1, summary: Int32 = -1
        var picPath: Int32 = -1, vidPath: Int32 = -1, twine: Int32 = -1, chapters: Int32 = -1
    }
    struct ChoiceFields: KeyFields { var chapterID: Int32 = -1, text: Int32 = -1 }
    struct AuthorsRootFields: KeyFields { var authors: Int32 = -1 }
    struct AuthorFields: KeyFields { var name: Int32 = -1, repos: Int32 = -1 }

    // One table per object of the format: the original reader's keys, plus `is_ending` and
    // `pic_alt` (a chapter's are `ChapterField`'s).
    static let rootKeys = KeyTable<RootFields>([("story", .object, required: true, \.story)])
    static let storyKeys = KeyTable<StoryFields>([
        ("id", .nonEmptyString, required: true, \.id),
        ("name", .nonEmptyString, required: true, \.name),
        ("rating", .nonEmptyString, required: true, \.rating),
        ("summary", .nonEmptyString, required: true, \.summary),
        ("pic_path", .nonEmptyString, required: false, \.picPath),
        ("vid_path", .nonEmptyString, required: false, \.vidPath),
        ("twine", .object, required: false, \.twine),
        ("chapters", .array, required: true, \.chapters),
    ])
    /// A chapter's keys are `ChapterField`'s, each read into its slot of `ChapterNodes`.
    static let chapterKeys: KeyTable<ChapterNodes> = {
        let fields = ChapterField.allCases
        precondition(fields.count <= ChapterNodes.capacity, "ChapterNodes has room for \(ChapterNodes.capacity) keys; raise its capacity")
        return KeyTable(
            specs: fields.map { field in
                let expected: KeySpec.Expected =
                    switch field.kind {
                    case .text: .string
                    case .nonEmptyText: .nonEmptyString
                    case .flag: .boolean
                    case .choices: .array
                    case .object: .object
                    }
                return KeySpec(name: field.key, expected: expected, required: field.isRequired)
            },
            offsets: fields.map(ChapterNodes.offset))
    }()
    static let choiceKeys = KeyTable<ChoiceFields>([
        ("chapter_id", .nonEmptyString, required: true, \.chapterID),
        ("text", .nonEmptyString, required: true, \.text),
    ])
    static let authorsRootKeys = KeyTable<AuthorsRootFields>([("authors", .array, required: true, \.authors)])
    static let authorKeys = KeyTable<AuthorFields>([
        ("name", .nonEmptyString, required: true, \.name),
        ("repos", .array, required: false, \.repos),
    ])

    /// The keys each object of a story file may hold, for documentation and suggestions.
    public static var knownStoryKeys: [String: [String]] {
        ["root": rootKeys.names, "story": storyKeys.names, "chapter": chapterKeys.names, "choice": choiceKeys.names]
    }

    /// How many chapters a story has before a thread is started to help decode them.
    public static let splittingFrom = 2000

    /// - Parameter share: the chapters are decoded here from the front while a helper takes them
    ///   from the back (`ChapterShare.help()`): with `helped`, the caller's thread helps once its
    ///   own work is done; otherwise, from `splitting` chapters on, a thread is started to help.
    ///   The result is the same whoever decodes what.
    public static func decodeStory(
        _ document: JSONDocument, share: ChapterShare = ChapterShare(), helped: Bool = false, splittingFrom splitting: Int = splittingFrom
    ) -> (StorySyntax, [Diagnostic]) {
        // Whatever happens here, a helper waiting for the decode to begin is let go.
        defer { share.close() }
        var syntax = StorySyntax(document: document)
        var reader = ObjectReader(document: document)
        guard let root = document.root else { return (syntax, []) }
        guard document.kind(root) == .object else {
            return (syntax, [notAnObject(document, root, "the file", example: "{ \"story\": { ... } }")])
        }
        guard let story = reader.read(root, rootKeys, label: "the file").story.node else { return (syntax, reader.diagnostics) }
        syntax.storyNode = story
        let fields = reader.read(story, storyKeys, label: "the story")
        func string(_ node: Int32) -> Located<String>? {
            node.node.map { Located(document.string($0), node: $0) }
        }
        syntax.id = string(fields.id)
        syntax.name = string(fields.name)
        syntax.rating = string(fields.rating)
        syntax.summary = string(fields.summary)
        syntax.picPath = string(fields.picPath)
        syntax.vidPath = string(fields.vidPath)
        syntax.twineNode = fields.twine.node
        if let pic = syntax.picPath { syntax.media.append(MediaSyntax(path: pic, chapter: nil, isPicture: true)) }
        if let vid = syntax.vidPath { syntax.media.append(MediaSyntax(path: vid, chapter: nil, isPicture: false)) }
        if let chapters = fields.chapters.node {
            syntax.chaptersNode = chapters
            // The exact capacity up front: growing by doubling would copy an array of hundreds
            // of thousands of chapters several times.
            let count = document.count(of: chapters)
            syntax.chapters.reserveCapacity(count)
            let elements = Array(document.elements(of: chapters))
            document.bytes.beginPass()
            share.open(document, elements: elements)
            let helper = !helped && count >= max(splitting, 2) ? BackgroundWork { share.help() } : nil
            decodeShared(share, elements: elements, into: &syntax, reader: &reader)
            _ = helper?.wait()
            document.bytes.endPass()
            if count == 0 {
                let start = document.range(chapters).lowerBound
                reader.diagnostics.append(
                    Diagnostic(
                        code: .noChapters, severity: .error, message: "the story has no chapters",
                        help: "add at least one chapter marked \"is_first_chapter\": true",
                        range: start..<(start + 1), subject: chapters))
            }
        }
        TwineFacts.check(syntax, into: &reader.diagnostics)
        return (syntax, reader.diagnostics)
    }

    /// Decodes the chapters `elements` of an open share from the front until none is left, then
    /// appends the stretches a helper decoded from the back, in file order, their findings after
    /// the front's likewise.
    static func decodeShared(_ share: ChapterShare, elements: [Int], into syntax: inout StorySyntax, reader: inout ObjectReader) {
        let document = reader.document
        while let taken = share.takeFront() {
            decodeChapters(elements[taken], from: taken.lowerBound, into: &syntax, reader: &reader) { document.bytes.release(upTo: $0) }
        }
        for part in share.finish() {
            syntax.append(part.syntax)
            reader.diagnostics += part.diagnostics
        }
    }

    /// The chapters `elements` of the file's `chapters` array, the first of them its element
    /// `first`, each element's start passed to `passing` as it is reached.
    static func decodeChapters(
        _ elements: ArraySlice<Int>, from first: Int, into syntax: inout StorySyntax, reader: inout ObjectReader, passing: (Int) -> Void
    ) {
        let document = reader.document
        reader.holdingNodes { reader in
            let nodes = reader.heldNodes!
            for (offset, element) in elements.enumerated() {
                let index = first + offset
                passing(Int(nodes[element].start))
                guard nodes[element].kind == .object else {
                    reader.diagnostics.append(
                        elementNotAnObject(document, element, "chapter \(index + 1)", help: "write each chapter as { \"id\": ..., \"name\": ..., \"text\": ... }"))
                    continue
                }
                // Its position in `syntax.chapters`, which skips elements that are not objects;
                // `index` (its place in the file) names it in messages.
                decodeChapter(element, index: syntax.chapters.count, ordinal: index, into: &syntax, reader: &reader, document: document, nodes: nodes)
            }
        }
    }

    /// Decodes one chapter; `document` is the reader's and `nodes` are its nodes (held by the
    /// caller: see `ObjectReader.holdingNodes`).
    static func decodeChapter(
        _ node: Int, index: Int, ordinal: Int, into syntax: inout StorySyntax, reader: inout ObjectReader, document: JSONDocument,
        nodes: UnsafeBufferPointer<JSONNode>
    ) {
        var chapter = ChapterSyntax(node: node, index: index, ordinal: ordinal)
        // Findings about its keys name the chapter by its id, looked up only for a finding.
        let fields = reader.read(node, chapterKeys, label: label(ofChapter: node, ordinal: ordinal, in: document))
        // The id is the last "id" key's value when that is a string (as `JSONDocument.member`
        // finds it): what the key table gives when the value is usable.
        if let id = fields[.id].node {
            chapter.nodes[.id] = Int32(id)
            chapter.idValue = document.string(id)
        } else {
            chapter.nodes[.id] = -1
        }
        for field in ChapterField.all where field != .id {
            let node = max(-1, fields[field])
            chapter.nodes[field] = node
            guard node >= 0 else { continue }
            switch field.kind {
            case .flag where nodes[Int(node)].kind == .true: chapter.trueFlags |= 1 << field.ordinal
            case .text, .nonEmptyText:
                if field == .text { chapter.textIsBlank = reader.isBlank(Int(node)) }
                if let media = field.media {
                    syntax.media.append(MediaSyntax(path: Located(document.string(Int(node)), node: Int(node)), chapter: index, isPicture: media == .picture))
                }
            case .flag, .choices, .object: break
            }
        }
        chapter.choiceStart = Int32(syntax.choices.count)
        if let choices = fields[.choices].node {
            var choiceIndex = 0
            var element = choices + 1
            let end = Int(nodes[choices].next)
            while element < end {
                defer {
                    choiceIndex += 1
                    element = Int(nodes[element].next)
                }
                guard nodes[element].kind == .object else {
                    reader.diagnostics.append(
                        elementNotAnObject(
                            document, element, "choice \(choiceIndex + 1) of \(chapter.label)", help: "write each choice as { \"chapter_id\": \"...\", \"text\": \"...\" }"))
                    continue
                }
                let choiceFields = reader.read(element, choiceKeys, label: "choice \(choiceIndex + 1) of \(chapter.label)")
                var choice = ChoiceSyntax(storedNode: Int32(element), storedIndex: Int32(choiceIndex), storedChapter: Int32(index))
                if let target = choiceFields.chapterID.node {
                    choice.targetNode = Int32(target)
                }
                choice.storedTextNode = max(-1, choiceFields.text)
                syntax.choices.append(choice)
            }
        }
        chapter.choiceCount = Int32(syntax.choices.count) - chapter.choiceStart
        syntax.chapters.append(chapter)
    }

    /// How findings name the chapter at `node`: by its id when it has a usable one.
    static func label(ofChapter node: Int, ordinal: Int, in document: JSONDocument) -> String {
        var chapter = ChapterSyntax(node: node, index: 0, ordinal: ordinal)
        if let id = document.member(node, "id"), document.kind(id) == .string {
            chapter.nodes[.id] = Int32(id)
            chapter.idValue = document.string(id)
        }
        return chapter.label
    }

    public static func decodeAuthors(_ document: JSONDocument) -> (AuthorsSyntax, [Diagnostic]) {
        var syntax = AuthorsSyntax(document: document)
        var reader = ObjectReader(document: document)
        guard let root = document.root else { return (syntax, []) }
        guard document.kind(root) == .object else {
            return (syntax, [notAnObject(document, root, "the file", example: "{ \"authors\": [ { \"name\": \"...\" } ] }")])
        }
        guard let authors = reader.read(root, authorsRootKeys, label: "the catalogue").authors.node else {
            return (syntax, reader.diagnostics)
        }
        syntax.authorsNode = authors
        for (index, element) in document.elements(of: authors).enumerated() {
            guard document.kind(element) == .object else {
                reader.diagnostics.append(
                    elementNotAnObject(
                        document, element, "author \(index + 1)",
                        help: document.kind(element) == .string ? "write { \"name\": \(document.sourceText(element)) }" : "write { \"name\": \"...\" }"))
                continue
            }
            let fields = reader.read(element, authorKeys, label: "author \(index + 1)")
            var author = AuthorSyntax(node: element, index: index)
            author.name = fields.name.node.map { Located(document.string($0), node: $0) }
            if let repos = fields.repos.node {
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

    /// "LABEL must be an object, found …", at an element of an array that must hold objects.
    static func elementNotAnObject(_ document: JSONDocument, _ element: Int, _ label: String, help: String) -> Diagnostic {
        Diagnostic(
            code: .wrongType, severity: .error, message: "\(label) must be an object, found \(document.kind(element).noun)",
            help: help, range: document.range(element), subject: element)
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
