import StoryFormat

/// Which findings to keep and how strictly to read.
extension CheckOptions {
    /// What readers tolerate (`JSONParser.Options.readers`): trailing commas and comments are
    /// warnings. Used wherever a story is read to be shown, stored or published.
    public static let readers = CheckOptions(lenient: true)
}

public struct CheckOptions: Sendable, Hashable {
    /// Trailing commas, comments and raw control characters become warnings.
    public var lenient: Bool
    /// Codes, rule names or categories to keep; nil keeps all.
    public var select: Set<String>?
    /// Codes, rule names or categories to drop.
    public var ignore: Set<String>
    /// Fill in each finding's JSON pointer (only the json format shows them; working them out
    /// is a walk over the tree).
    public var pointers: Bool

    public init(lenient: Bool = false, select: Set<String>? = nil, ignore: Set<String> = [], pointers: Bool = true) {
        self.lenient = lenient
        self.select = select
        self.ignore = ignore
        self.pointers = pointers
    }

    /// The names in lists of codes, rule names or categories as people write them:
    /// comma-separated, spaces ignored (`CYD101, unreachable-chapter`).
    public static func names(in lists: [String]) -> [String] {
        lists.flatMap { $0.split(separator: ",").map { $0.split(separator: " ").joined() }.filter { !$0.isEmpty } }
    }

    /// Whether `name` is a code, a rule's name or a category that `select` and `ignore` match.
    public static func isKnown(_ name: String) -> Bool { RuleCatalogue.find(name) != nil || RuleCategory(rawValue: name) != nil }

    public func keeps(_ code: DiagnosticCode) -> Bool {
        // Nothing selected or ignored (most runs) keeps everything, asked once a finding.
        if select == nil, ignore.isEmpty { return true }
        let description = RuleCatalogue.description(of: code)
        let names: Set<String> = [code.rawValue.uppercased(), description?.name ?? "", description?.category.rawValue ?? ""]
        func matches(_ set: Set<String>) -> Bool { !names.isDisjoint(with: set.map { $0.hasPrefix("CYD") || $0.hasPrefix("cyd") ? $0.uppercased() : $0 }) }
        if let select, !matches(select) { return false }
        return !matches(ignore)
    }
}

/// What validating one file found.
public struct FileReport: Sendable {
    /// As shown in findings (as given on the command line, or relative to it).
    public var path: String
    public var bytes: SourceBytes
    public var kind: DocumentKind?
    public var diagnostics: [Diagnostic]
    public var summary: StorySummary?

    public init(path: String, bytes: [UInt8], kind: DocumentKind?, diagnostics: [Diagnostic], summary: StorySummary? = nil) {
        self.init(path: path, bytes: SourceBytes(bytes), kind: kind, diagnostics: diagnostics, summary: summary)
    }

    public init(path: String, bytes: SourceBytes, kind: DocumentKind?, diagnostics: [Diagnostic], summary: StorySummary? = nil) {
        self.path = path
        self.bytes = bytes
        self.kind = kind
        self.diagnostics = diagnostics
        self.summary = summary
    }

    public func count(_ severity: Severity) -> Int { diagnostics.count { $0.severity == severity } }
}

/// The shape of a story, for the summary line.
public struct StorySummary: Sendable, Hashable, Codable {
    public var title: String?
    public var chapters: Int
    public var start: String?
    /// Endings a reader can reach from the start, in file order.
    public var endings: [String]
    public var unreachable: Int
    public var authors: Int?
}

/// Runs every rule over a file and gathers the findings.
public enum Checker {
    public static func check(
        bytes: [UInt8], path: String, folder: StoryFolder? = nil, options: CheckOptions = .init()
    ) -> [FileReport] {
        check(bytes: SourceBytes(bytes), path: path, folder: folder, options: options)
    }

    public static func check(
        bytes: SourceBytes, path: String, folder: StoryFolder? = nil, options: CheckOptions = .init()
    ) -> [FileReport] {
        check(load(bytes, path: path, options: options), path: path, folder: folder, options: options)
    }

    /// A file read for checking: the file, and the scan of its strings, which starts on another
    /// thread as soon as the tree is parsed (while the story is decoded) when a rule will read it;
    /// that thread then helps with the decode.
    public struct Loaded: Sendable {
        public let file: LoadedFile
        let textScan: BackgroundWork<TextScan>?
    }

    /// The file as the checks read it (with `options`' leniency), for a caller that checks it
    /// (`check(_:path:folder:options:)`) and uses its tree too.
    public static func load(_ bytes: SourceBytes, path: String, options: CheckOptions) -> Loaded {
        var scan: BackgroundWork<TextScan>?
        let file = LoadedFile.load(bytes, fileName: path, options: JSONParser.Options(lenient: options.lenient), resolvingPointers: false) { document, kind, share in
            guard RuleCatalogue.checking(kind).contains(where: { $0.readsTextScan && options.keeps($0.description.code) }) else { return false }
            // The scan takes about half as long as the decode: its thread then decodes chapters
            // from the end, so that both cores finish together.
            scan = BackgroundWork {
                let scan = TextScan(document: document)
                share.help()
                return scan
            }
            return true
        }
        return Loaded(file: file, textScan: scan)
    }

    /// Checks a file read by `load`.
    public static func check(_ loaded: Loaded, path: String, folder: StoryFolder? = nil, options: CheckOptions = .init()) -> [FileReport] {
        check(loaded.file, source: loaded.file.document?.bytes ?? loaded.file.bytes, path: path, folder: folder, options: options, textScan: loaded.textScan)
    }

    /// Checks a file already read (with the same leniency as `options`), so a caller that needs
    /// the tree too reads it once.
    public static func check(
        _ file: LoadedFile, bytes: [UInt8], path: String, folder: StoryFolder? = nil, options: CheckOptions = .init()
    ) -> [FileReport] {
        check(file, source: file.document?.bytes ?? SourceBytes(bytes), path: path, folder: folder, options: options)
    }

    /// Checks a loaded file whose document holds its bytes (a file that could not be parsed
    /// has no document: pass its bytes with `check(_:bytes:path:)`).
    public static func check(_ file: LoadedFile, path: String, folder: StoryFolder? = nil, options: CheckOptions = .init()) -> [FileReport] {
        check(file, source: file.document?.bytes ?? file.bytes, path: path, folder: folder, options: options)
    }

    /// Checks a file already read, as `check(_:path:folder:options:)` does (its bytes those the
    /// file was read from), and gives back the chapter graph the rules built (nil when the file
    /// holds no story), for a caller that goes on to follow the story's choices.
    public static func checkKeepingGraph(
        _ file: LoadedFile, path: String, folder: StoryFolder? = nil, options: CheckOptions = .init()
    ) -> (reports: [FileReport], graph: StoryGraph?) {
        let context = CheckContext(path: path, file: file, folder: folder)
        let reports = check(file, source: file.document?.bytes ?? file.bytes, path: path, folder: folder, options: options, context: context)
        return (reports, context.graph)
    }

    static func check(
        _ file: LoadedFile, source bytes: SourceBytes, path: String, folder: StoryFolder?, options: CheckOptions,
        textScan: BackgroundWork<TextScan>? = nil, context given: CheckContext? = nil
    ) -> [FileReport] {
        let context = given ?? CheckContext(path: path, file: file, folder: folder)
        context.textScan = textScan
        var diagnostics = file.diagnostics
        var otherFiles: [String: [Diagnostic]] = [:]
        let structureIsUsable = file.document != nil
        if structureIsUsable {
            let rules = RuleCatalogue.checking(file.kind).filter { options.keeps($0.description.code) }
            context.suggestsIDs = rules.contains { $0.description.code == MissingChoiceTarget.description.code }
            // The scan of every string is made on another thread while the rules that do not
            // read it run; those that do run last. Findings keep the catalogue's order.
            if rules.contains(where: { $0.readsTextScan }) { context.startTextScan() }
            let order = rules.indices.filter { !rules[$0].readsTextScan } + rules.indices.filter { rules[$0].readsTextScan }
            var found = [Findings?](repeating: nil, count: rules.count)
            for index in order {
                var findings = Findings(code: rules[index].description.code, document: file.document)
                context.mayReadText = rules[index].readsTextScan
                rules[index].check(context, &findings)
                found[index] = findings
            }
            context.mayReadText = true
            // Each rule's findings moved into the file's list, not copied (7,000 findings copied
            // and freed twice were a few milliseconds at the end of a flawed check).
            for index in rules.indices {
                guard var findings = found[index].take() else { continue }
                findings.settle()
                let severity = rules[index].description.severity
                var own = findings.takeDiagnostics()
                for position in own.indices { own[position].severity = severity }
                diagnostics.appendMoving(&own, leaving: .movedOut)
                for (other, found) in findings.otherFiles {
                    otherFiles[other, default: []] += found.map { with($0, severity: severity) }
                }
            }
        }
        if options.pointers {
            file.document?.resolvePointers(&diagnostics)
        } else {
            for index in diagnostics.indices { diagnostics[index].subject = nil }
        }
        var kept: [DiagnosticCode: Bool] = [:]
        diagnostics.removeAll { diagnostic in
            if let decision = kept[diagnostic.code] { return !decision }
            let decision = options.keeps(diagnostic.code)
            kept[diagnostic.code] = decision
            return !decision
        }
        diagnostics.sortBySeverityThenPosition()
        var reports = [FileReport(path: path, bytes: bytes, kind: file.kind, diagnostics: diagnostics, summary: summary(context))]
        for (other, found) in otherFiles.sorted(by: { $0.key < $1.key }) {
            let directory = path.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
            let otherPath = directory.isEmpty ? other : directory + "/" + other
            let otherBytes = folder.flatMap { try? $0.read(other) } ?? []
            reports.append(FileReport(path: otherPath, bytes: otherBytes, kind: nil, diagnostics: found))
        }
        return reports
    }

    private static func with(_ diagnostic: Diagnostic, severity: Severity) -> Diagnostic {
        var copy = diagnostic
        copy.severity = severity
        return copy
    }

    static func summary(_ context: CheckContext) -> StorySummary? {
        if let authors = context.authors {
            return StorySummary(title: nil, chapters: 0, start: nil, endings: [], unreachable: 0, authors: authors.authors.count)
        }
        guard let story = context.story, let graph = context.graph else { return nil }
        return StorySummary(
            title: story.name?.value,
            chapters: story.chapters.count,
            start: graph.start.flatMap { story.chapters[$0].id?.value },
            endings: graph.reachableEndings.compactMap { story.chapters[$0].id?.value },
            unreachable: graph.start == nil ? 0 : graph.reachable.count { !$0 },
            authors: nil)
    }
}
