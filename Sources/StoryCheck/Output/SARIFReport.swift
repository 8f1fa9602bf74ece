import StoryFormat

/// SARIF 2.1.0 with rule metadata from the catalogue, for code-scanning upload. Columns count
/// Unicode scalars, declared with `columnKind: unicodeCodePoints`.
enum SARIFReport {
    static let schema = "https://json.schemastore.org/sarif-2.1.0.json"
    static let informationURI = ProjectHome.url

    static func level(_ severity: Severity) -> String { severity.rawValue }

    /// Written as it is made (keys in sorted order, as before), so a log of 200,000 results is
    /// never held whole: the rule metadata first, then one result at a time.
    static func write(_ reports: [ResolvedReport], hints: ReportHints = .none, to sink: @escaping ReportSink) {
        let descriptions = RuleCatalogue.descriptions
        let ruleIndex = Dictionary(uniqueKeysWithValues: descriptions.enumerated().map { ($1.code, $0) })
        var out = JSONWriter(sink: sink)
        func text(_ name: String, _ value: String) {
            out.key(name)
            out.open("{")
            out.field("text", value)
            out.close("}")
        }
        func region(_ startLine: Int, _ startColumn: Int, _ endLine: Int, _ endColumn: Int) {
            out.key("region")
            out.open("{")
            out.field("endColumn", endColumn)
            out.field("endLine", endLine)
            out.field("startColumn", startColumn)
            out.field("startLine", startLine)
            out.close("}")
        }
        func physical(_ uri: String, region write: () -> Void) {
            out.key("physicalLocation")
            out.open("{")
            out.key("artifactLocation")
            out.open("{")
            out.field("uri", uri)
            out.close("}")
            write()
            out.close("}")
        }
        out.open("{")
        out.field("$schema", schema)
        out.key("runs")
        out.open("[")
        out.element()
        out.open("{")
        out.field("columnKind", "unicodeCodePoints")
        out.key("results")
        out.open("[")
        for report in reports {
            let uri = artifactURI(report.report.path)
            for item in report.diagnostics {
                let d = item.diagnostic
                out.element()
                out.open("{")
                out.field("level", level(d.severity))
                out.key("locations")
                out.open("[")
                out.element()
                out.open("{")
                physical(uri) { region(item.start.line, item.start.column, item.end.line, max(item.end.column, item.start.column)) }
                out.close("}")
                out.close("]")
                text("message", d.message + (d.help.map { ". Help: \($0)" } ?? ""))
                if !item.related.isEmpty {
                    out.key("relatedLocations")
                    out.open("[")
                    for (index, related) in item.related.enumerated() {
                        out.element()
                        out.open("{")
                        out.field("id", index + 1)
                        text("message", related.message)
                        physical(uri) { region(related.position.line, related.position.column, related.position.line, related.position.column) }
                        out.close("}")
                    }
                    out.close("]")
                }
                out.field("ruleId", d.code.rawValue)
                out.field("ruleIndex", ruleIndex[d.code])
                out.close("}")
                out.flushIfFull()
            }
        }
        out.close("]")
        out.key("tool")
        out.open("{")
        out.key("driver")
        out.open("{")
        out.field("informationUri", informationURI)
        out.field("name", "cyd")
        out.key("rules")
        out.open("[")
        for rule in descriptions {
            out.element()
            out.open("{")
            out.key("defaultConfiguration")
            out.open("{")
            out.field("level", level(rule.severity))
            out.close("}")
            text("fullDescription", rule.rationale)
            text("help", "\(rule.summary). \(rule.rationale)" + (hints.explainingRule.map { " (\($0(rule.code)))" } ?? ""))
            out.field("id", rule.code.rawValue)
            out.field("name", pascalCase(rule.name))
            out.key("properties")
            out.open("{")
            out.key("tags")
            out.open("[")
            out.element()
            out.string(rule.category.rawValue)
            out.close("]")
            out.close("}")
            text("shortDescription", rule.summary)
            out.close("}")
        }
        out.close("]")
        out.field("semanticVersion", CydVersion.current)
        out.close("}")
        out.close("}")
        out.close("}")
        out.close("]")
        out.field("version", "2.1.0")
        out.close("}")
        out.raw("\n")
        out.finish()
    }

    /// A relative path as a URI reference (forward slashes, percent-encoded); absolute as file://.
    static func artifactURI(_ path: String) -> String {
        let encoded = PercentEncoding.encode(path, keeping: "/")
        return path.hasPrefix("/") ? "file://" + encoded : encoded
    }

    static func pascalCase(_ name: String) -> String {
        name.split(separator: "-").map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
    }
}

/// The version cyd reports.
public enum CydVersion {
    public static let current = "0.1.0"
}

/// Where the project lives: one place for every link and reference to it (SARIF's tool, the
/// language server's rule links, the workflow `cyd init` writes).
public enum ProjectHome {
    /// The GitHub repository, `owner/name`: what `uses:` in a workflow names.
    public static let repository = "ChooseYourDestiny/ChooseYourDestiny"
    /// The branch that always exists; a workflow that names it needs no release.
    public static let branch = "main"
    public static var url: String { "https://github.com/\(repository)" }
    /// The rules' page, one anchor a rule.
    public static var rulesPage: String { "\(url)/blob/\(branch)/docs/rules.md" }
}
