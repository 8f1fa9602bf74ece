import StoryFormat

/// What a rule can look at: one file, its tree, and what is derived from it once for all rules.
public final class CheckContext {
    /// The file's name as shown in findings.
    public let path: String
    public let file: LoadedFile
    /// Set when a whole story folder is checked (pictures, README).
    public let folder: StoryFolder?

    public init(path: String, file: LoadedFile, folder: StoryFolder?) {
        self.path = path
        self.file = file
        self.folder = folder
    }

    public var document: JSONDocument? { file.document }
    public var story: StorySyntax? { file.story }
    public var authors: AuthorsSyntax? { file.authors }

    /// The chapter graph, built on first use. As soon as it knows that some choice names no
    /// chapter, the index of chapter ids for "did you mean" starts on another thread, when the
    /// rule that suggests (CYD302) is among those run (`suggestsIDs`).
    public private(set) lazy var graph: StoryGraph? = story.map { story in
        StoryGraph(story, parallelFrom: StoryGraph.parallelFrom) { someMissing in
            if someMissing, suggestsIDs { _ = idSuggestions() }
        }
    }

    /// Set by the checker when the rule that suggests ids runs: a check whose options leave
    /// CYD302 out does not sort every id for suggestions nobody reads.
    var suggestsIDs = false
    /// Whether the index of ids for suggestions was started (for the tests).
    var startedIDSuggestions: Bool { startedSuggestions != nil }

    /// The index of every chapter id for suggesting the nearest (CYD302), made on another thread
    /// from the first call (the graph's, as soon as it has found a choice naming no chapter).
    func idSuggestions() -> BackgroundWork<SuggestionIndex>? {
        if let startedSuggestions { return startedSuggestions }
        guard let story else { return nil }
        startedSuggestions = BackgroundWork { SuggestionIndex(story.chapters.compactMap { $0.id?.value }) }
        return startedSuggestions
    }
    private var startedSuggestions: BackgroundWork<SuggestionIndex>?

    /// The shared scan of every string: started on another thread by `startTextScan()`, or
    /// made on first use.
    public var text: TextScan? {
        assert(mayReadText, "a rule read the text scan without declaring `readsTextScan`")
        if let settledScan { return settledScan }
        if textScan == nil { startTextScan() }
        // The scan looked for placeholders in every string; those of chapter texts are kept.
        settledScan = textScan?.wait().keepingPlaceholders(in: story?.chapters.compactMap(\.textNode) ?? [])
        return settledScan
    }
    /// Set by the checker when the scan was started as soon as the file was parsed.
    var textScan: BackgroundWork<TextScan>?
    private var settledScan: TextScan?
    /// Cleared by the checker while a rule that did not declare `readsTextScan` runs.
    var mayReadText = true

    /// Starts the scan of every string on another thread, so that the rules which do not read
    /// it run meanwhile. The scan only reads the document (and gives its pages back through a
    /// sweep of its own).
    func startTextScan() {
        guard textScan == nil, let document else { return }
        textScan = BackgroundWork { TextScan(document: document) }
    }

    /// Whether a string node is a chapter id or a choice target (CYD305 judges control
    /// characters there; the text rules judge them everywhere else). Built on first use, which
    /// only happens when some string holds a control character.
    public func isIdentifier(_ node: Int) -> Bool { identifierNodes.contains(node) }

    private lazy var identifierNodes: Set<Int> = {
        guard let story else { return [] }
        var nodes = Set(story.chapters.compactMap { $0.id?.node })
        for choice in story.choices where choice.targetNode >= 0 { nodes.insert(Int(choice.targetNode)) }
        return nodes
    }()

    /// Every picture and video reference of the story, with what it belongs to.
    public private(set) lazy var media: [MediaUse] = {
        guard let story else { return [] }
        return story.media.map { use in
            MediaUse(path: use.path, owner: use.chapter.map { story.chapters[$0].label } ?? "the story", isPicture: use.isPicture)
        }
    }()
}

/// A `pic_path` or `vid_path` value and whose it is.
public struct MediaUse: Sendable {
    public var path: Located<String>
    /// "the story" or "chapter 'x'".
    public var owner: String
    public var isPicture: Bool

    public var key: String { isPicture ? "pic_path" : "vid_path" }
    public var reference: MediaReference { MediaReference(path.value) }
}

