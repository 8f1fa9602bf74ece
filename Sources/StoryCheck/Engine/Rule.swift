import StoryFormat

/// The groups rules are filed under; `--select`/`--ignore` accept these names too.
public enum RuleCategory: String, Sendable, CaseIterable, Codable {
    case syntax, structure, references, start, graph, media, text, folder, authors
    /// Twee files and Twine archives, as read by `cyd import` and `cyd validate story.twee`.
    case twee
    /// Translation files (translations/*.po, *.xlf) against the story they translate.
    case translation
}

/// Everything about a rule, declared in one place: the catalogue (`cyd rules`), `cyd explain`,
/// SARIF rule metadata and the generic example test all read it.
public struct RuleDescription: Sendable {
    public let code: DiagnosticCode
    /// kebab-case, e.g. "missing-choice-target".
    public let name: String
    public let category: RuleCategory
    public let severity: Severity
    /// The severity under `--lenient`, for syntax that real stories contain.
    public let lenientSeverity: Severity?
    public let summary: String
    public let rationale: String
    /// Examples that must produce this finding, at each `↓` marker.
    public let triggering: [RuleExample]
    /// Examples that must not produce it.
    public let nonTriggering: [RuleExample]
    /// The mechanical repair of this rule's findings, when there is one (`cyd fix`, the language
    /// server's code actions): what it does, and examples of it that a generic test runs.
    public let repair: Repair?

    public init(
        code: DiagnosticCode, name: String, category: RuleCategory, severity: Severity, lenientSeverity: Severity? = nil,
        summary: String, rationale: String, triggering: [RuleExample], nonTriggering: [RuleExample], repair: Repair? = nil
    ) {
        self.repair = repair
        self.code = code
        self.name = name
        self.category = category
        self.severity = severity
        self.lenientSeverity = lenientSeverity
        self.summary = summary
        self.rationale = rationale
        self.triggering = triggering
        self.nonTriggering = nonTriggering
    }
}

/// A rule's mechanical repair: what it does ("removes the comma"), and examples whose `before`
/// (a whole file, with ↓ markers as in rule examples, which are dropped) must become `after`.
public struct Repair: Sendable {
    public struct Example: Sendable {
        public let before: RuleExample
        public let after: String
        public init(_ before: RuleExample, becomes after: String) {
            self.before = before
            self.after = after
        }
    }

    public let does: String
    public let examples: [Example]
    public init(_ does: String, examples: [Example]) {
        self.does = does
        self.examples = examples
    }
}

/// A rule: its description. A rule found while a file is read (syntax and structure by
/// StoryFormat, Twee by StoryInterchange, translations by StoryTranslation) is only this; a rule
/// with a check of its own is a `CheckedRule`.
public protocol Rule: Sendable {
    static var description: RuleDescription { get }
    /// The rule as a `CheckedRule` when it is one, nil when not. The catalogue asks this
    /// rather than casting: a cast's first use for each type scans every conformance record of
    /// the binary, and the rules' casts were a tenth of a small story's validation.
    static var checkedRule: (any CheckedRule.Type)? { get }
}

extension Rule {
    public static var checkedRule: (any CheckedRule.Type)? { nil }
}

/// A rule the checker runs over every file of one kind. `check` and `checks` have no default:
/// the compiler, not a reviewer, catches a rule that checks nothing or says not what it checks.
public protocol CheckedRule: Rule {
    /// The kind of file it checks: story.json or authors.json.
    static var checks: DocumentKind { get }
    /// Looks at one file and reports findings of this rule's code.
    static func check(_ context: CheckContext, _ findings: inout Findings)
    /// Whether `check` reads `context.text`: such rules run after the others, while the scan
    /// is made on another thread.
    static var readsTextScan: Bool { get }
}

extension CheckedRule {
    public static var readsTextScan: Bool { false }
    public static var checkedRule: (any CheckedRule.Type)? { self }
}

/// Collects the findings of one rule; the engine sets severities from the rule's description.
public struct Findings {
    let code: DiagnosticCode
    let document: JSONDocument?
    var diagnostics: [Diagnostic] = []
    /// Findings about other files of the folder (README.md), by path relative to the folder.
    var otherFiles: [String: [Diagnostic]] = [:]
    /// Findings being made on other threads (`addBeside`).
    private var beside: [BackgroundWork<[Diagnostic]>] = []

    init(code: DiagnosticCode, document: JSONDocument?) {
        self.code = code
        self.document = document
    }

    /// Adds the findings `work` makes on another thread while the rules after this one run: a
    /// rule's costly part that needs nothing from the context (suggestions for thousands of
    /// misspelt targets). They follow the findings added here; the checker waits for them once
    /// every rule has run (`settle`).
    public mutating func addBeside(_ work: @escaping @Sendable (inout Findings) -> Void) {
        let (code, document) = (code, document)
        beside.append(BackgroundWork {
            var found = Findings(code: code, document: document)
            work(&found)
            return found.diagnostics
        })
    }

    /// Every finding, those made beside waited for (handed over, not copied).
    mutating func settle() {
        for work in beside {
            var made = work.take()
            if diagnostics.isEmpty { swap(&diagnostics, &made) } else { diagnostics += made }
        }
        beside = []
    }

    /// The findings, taken out (this is left with none): the caller holds the only copy.
    mutating func takeDiagnostics() -> [Diagnostic] {
        var taken: [Diagnostic] = []
        swap(&taken, &diagnostics)
        return taken
    }

    /// A finding at a node of the story file.
    public mutating func add(_ message: String, help: String? = nil, at node: Int, related: [RelatedLocation] = []) {
        guard let document else { return }
        diagnostics.append(
            Diagnostic(
                code: code, severity: .error, message: message, help: help, range: document.range(node),
                subject: node, related: related))
    }

    /// A finding at a byte range inside a node (a character inside a string).
    public mutating func add(_ message: String, help: String? = nil, range: Range<Int>, node: Int?) {
        diagnostics.append(
            Diagnostic(
                code: code, severity: .error, message: message, help: help, range: range,
                subject: node))
    }

    /// A finding about another file of the story folder (README.md): reported against that file.
    public mutating func add(_ message: String, help: String? = nil, inFile path: String) {
        otherFiles[path, default: []].append(
            Diagnostic(code: code, severity: .error, message: message, help: help, range: 0..<0))
    }
}
