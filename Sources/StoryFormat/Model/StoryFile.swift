/// One story or authors file read from bytes: the parse, the decode and their findings together.
public struct LoadedFile: Sendable {
    public var kind: DocumentKind
    public var document: JSONDocument?
    public var story: StorySyntax?
    public var authors: AuthorsSyntax?
    /// Syntax and structure findings, in file order.
    public var diagnostics: [Diagnostic]
    /// The bytes read (also `document.bytes` when they parsed).
    public var bytes: SourceBytes

    /// Reads `bytes` as readers do (the original reader and every tool that shows a story):
    /// leniently, so a published story with a trailing comma or a comment still loads; its
    /// findings are warnings there. The one place that choice is made.
    public static func asReadersRead(_ bytes: SourceBytes, fileName: String = "story.json") -> LoadedFile {
        load(bytes, fileName: fileName, options: .readers, resolvingPointers: false)
    }

    public static func asReadersRead(_ bytes: [UInt8], fileName: String = "story.json") -> LoadedFile {
        asReadersRead(SourceBytes(bytes), fileName: fileName)
    }

    /// Reads `bytes` as the file named `fileName` (the name only helps guess the kind of an
    /// unparseable file).
    public static func load(_ bytes: [UInt8], fileName: String = "story.json", options: JSONParser.Options = .init()) -> LoadedFile {
        load(SourceBytes(bytes), fileName: fileName, options: options)
    }

    /// - Parameter resolvingPointers: fill in each finding's JSON pointer (one walk over the
    ///   tree); a caller that adds findings of its own resolves them all at once instead.
    /// - Parameter parsed: called with the tree as soon as it is parsed, before it is decoded,
    ///   so that a caller can start work on it (on another thread) meanwhile; it says whether it
    ///   did and whether that thread, its work done, will help decode the story's chapters
    ///   (`ChapterShare.help()`, which returns once they are all taken: the share is closed
    ///   whatever the file holds). With no such help, a large story's chapters are decoded on two
    ///   threads of the decoder's own.
    public static func load(
        _ bytes: SourceBytes, fileName: String = "story.json", options: JSONParser.Options = .init(), resolvingPointers: Bool = true,
        parsed whenParsed: (JSONDocument, DocumentKind, ChapterShare) -> Bool = { _, _, _ in false }
    ) -> LoadedFile {
        let parsed = JSONParser(options: options).parse(bytes)
        let kind = DocumentKind.detect(parsed.document, fileName: fileName)
        var file = LoadedFile(kind: kind, document: parsed.document, diagnostics: parsed.diagnostics, bytes: bytes)
        guard let document = parsed.document else { return file }
        let share = ChapterShare()
        defer { share.close() }
        let helped = whenParsed(document, kind, share)
        switch kind {
        case .story:
            let (syntax, findings) = StoryDecoder.decodeStory(document, share: share, helped: helped)
            file.story = syntax
            file.diagnostics += findings
        case .authors:
            let (syntax, findings) = StoryDecoder.decodeAuthors(document)
            file.authors = syntax
            file.diagnostics += findings
        }
        if resolvingPointers { document.resolvePointers(&file.diagnostics) }
        return file
    }
}

extension JSONParser.Options {
    /// How readers parse: leniently (`LoadedFile.asReadersRead`).
    public static let readers = JSONParser.Options(lenient: true)
}
