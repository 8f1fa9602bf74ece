import StoryFormat

/// SARIF 2.1.0 with rule metadata from the catalogue, for code-scanning upload. Columns count
/// Unicode scalars, declared with `columnKind: unicodeCodePoints`.
enum SARIFReport {
    static let schema = "https://json.schemastore.org/sarif-2.1.0.json"
    static let informationURI = ProjectHome.url

    struct Log: Encodable {
        var schema = SARIFReport.schema
        var version = "2.1.0"
        var runs: [Run]
        enum CodingKeys: String, CodingKey {
            case schema = "$schema"
            case version, runs
        }
    }
    struct Run: Encodable {
        var tool: Tool
        var columnKind = "unicodeCodePoints"
        var results: [Result]
    }
    struct Tool: Encodable { var driver: Driver }
    struct Driver: Encodable {
        var name = "cyd"
        var informationUri = SARIFReport.informationURI
        var semanticVersion = CydVersion.current
        var rules: [RuleMetadata]
    }
    struct Text: Encodable { var text: String }
    struct Configuration: Encodable { var level: String }
    struct Properties: Encodable { var tags: [String] }
    struct RuleMetadata: Encodable {
        var id: String
        var name: String
        var shortDescription: Text
        var fullDescription: Text
        var help: Text
        var defaultConfiguration: Configuration
        var properties: Properties
    }
    struct Result: Encodable {
        var ruleId: String
        var ruleIndex: Int?
        var level: String
        var message: Text
        var locations: [Location]
        var relatedLocations: [Location]?
    }
    struct Location: Encodable {
        var id: Int?
        var physicalLocation: Physical
        var message: Text?
    }
    struct Physical: Encodable {
        var artifactLocation: Artifact
        var region: Region
    }
    struct Artifact: Encodable { var uri: String }
    struct Region: Encodable {
        var startLine: Int
        var startColumn: Int
        var endLine: Int
        var endColumn: Int
    }

    static func level(_ severity: Severity) -> String { severity.rawValue }

    static func render(_ reports: [ResolvedReport], hints: ReportHints = .none) -> String {
        let descriptions = RuleCatalogue.descriptions
        let ruleIndex = Dictionary(uniqueKeysWithValues: descriptions.enumerated().map { ($1.code, $0) })
        let rules = descriptions.map { rule in
            RuleMetadata(
                id: rule.code.rawValue, name: pascalCase(rule.name), shortDescription: Text(text: rule.summary),
                fullDescription: Text(text: rule.rationale), help: Text(text: "\(rule.summary). \(rule.rationale)" + (hints.explainingRule.map { " (\($0(rule.code)))" } ?? "")),
                defaultConfiguration: Configuration(level: level(rule.severity)), properties: Properties(tags: [rule.category.rawValue]))
        }
        var results: [Result] = []
        for report in reports {
            let uri = artifactURI(report.report.path)
            for item in report.diagnostics {
                let d = item.diagnostic
                let region = Region(startLine: item.start.line, startColumn: item.start.column, endLine: item.end.line, endColumn: max(item.end.column, item.start.column))
                let related = item.related.enumerated().map { index, related in
                    Location(
                        id: index + 1,
                        physicalLocation: Physical(
                            artifactLocation: Artifact(uri: uri),
                            region: Region(startLine: related.position.line, startColumn: related.position.column, endLine: related.position.line, endColumn: related.position.column)),
                        message: Text(text: related.message))
                }
                results.append(
                    Result(
                        ruleId: d.code.rawValue, ruleIndex: ruleIndex[d.code], level: level(d.severity),
                        message: Text(text: d.message + (d.help.map { ". Help: \($0)" } ?? "")),
                        locations: [Location(physicalLocation: Physical(artifactLocation: Artifact(uri: uri), region: region))],
                        relatedLocations: related.isEmpty ? nil : related))
            }
        }
        return JSONReport.encode(Log(runs: [Run(tool: Tool(driver: Driver(rules: rules)), results: results)]))
    }

    /// A relative path as a URI reference (forward slashes, percent-encoded); absolute as file://.
    static func artifactURI(_ path: String) -> String {
        var encoded = ""
        for byte in path.utf8 {
            let unreserved = (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || "-._~/".utf8.contains(byte)
            if unreserved {
                encoded.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                let hex = Array("0123456789ABCDEF".unicodeScalars)
                for piece in ["%", hex[Int(byte >> 4)], hex[Int(byte & 0xF)]] { encoded.unicodeScalars.append(piece) }
            }
        }
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
