import Foundation
import StoryFormat
import TestSupport
import Testing

@testable import StoryCheck

/// Every rule's own examples are its specification: each triggering example must produce the
/// rule's finding at every `↓` marker, with the rule's severity, and each non-triggering example
/// must not produce it. The same examples are checked again with a multi-byte prefix on the
/// marker's line, so column arithmetic on non-ASCII text is exercised by every rule.
@Suite("Rule examples")
struct RuleExampleTests {
    static let rules = RuleCatalogue.descriptions
    /// The rules whose examples are story.json or authors.json files. Twee rules' examples are
    /// Twee files, which only StoryInterchange reads: its tests run them the same way.
    static let jsonRules = rules.filter { $0.category != .twee && $0.category != .translation }

    @Test("every triggering example is reported at its markers", arguments: jsonRules)
    func triggering(rule: RuleDescription) throws {
        for example in rule.triggering {
            let (bytes, markers) = example.bytesAndMarkers
            let reports = try check(example, bytes: bytes)
            let found = reports.flatMap(\.diagnostics).filter { $0.code == rule.code }
            #expect(!found.isEmpty, "\(rule.code) not reported for:\n\(example.displayText)")
            for marker in markers {
                let atMarker = found.filter { $0.range.lowerBound == marker }
                #expect(!atMarker.isEmpty, "\(rule.code) not at byte \(marker); found at \(found.map(\.range.lowerBound))")
            }
            let expected = example.lenient ? (rule.lenientSeverity ?? rule.severity) : rule.severity
            #expect(found.allSatisfy { $0.severity == expected }, "\(rule.code) severity should be \(expected)")
            // Worded as a rule: lowercase (a file name such as README.md may lead), no period.
            #expect(found.allSatisfy { !($0.message.first?.isUppercase ?? true) || $0.message.split(separator: " ")[0].contains(".") })
            #expect(found.allSatisfy { !$0.message.hasSuffix(".") }, "messages are worded as rules, without a period")
        }
    }

    @Test("no non-triggering example is reported", arguments: jsonRules)
    func nonTriggering(rule: RuleDescription) throws {
        for example in rule.nonTriggering {
            let reports = try check(example, bytes: example.bytesAndMarkers.bytes)
            let found = reports.flatMap(\.diagnostics).filter { $0.code == rule.code }
            #expect(found.isEmpty, "\(rule.code) reported for:\n\(example.displayText)\n\(found.map(\.message))")
        }
    }

    /// A comment holding "é🦊" before the marker's line moves the finding right by 7 columns
    /// but by 11 bytes; a column counted in bytes would be off.
    @Test("findings keep their line and column when the line starts with multi-byte text", arguments: jsonRules.filter(Self.canShift))
    func shiftedByMultiByteText(rule: RuleDescription) throws {
        for example in rule.triggering where example.source.contains("↓") {
            let shifted = Self.shift(example)
            let expected = Self.markerPositions(shifted.source)
            let reports = try check(shifted, bytes: shifted.bytesAndMarkers.bytes)
            let resolved = reports.map(ResolvedReport.init).flatMap(\.diagnostics).filter { $0.diagnostic.code == rule.code }
            for position in expected {
                #expect(resolved.contains { $0.start == position }, "\(rule.code) expected at \(position), found \(resolved.map(\.start))")
            }
        }
    }

    /// The shift test above checks only examples with a marker, so a rule whose examples carry
    /// none would pass it unchecked. Only findings that point into another file (the story
    /// folder's README) have no place in the example to mark.
    @Test("every rule's failing examples mark where the finding points, unless it is in another file", arguments: jsonRules.filter { !$0.triggering.isEmpty })
    func examplesCarryMarkers(rule: RuleDescription) throws {
        guard !rule.triggering.contains(where: { $0.source.contains("↓") }) else { return }
        for example in rule.triggering {
            let reports = try check(example, bytes: example.bytesAndMarkers.bytes)
            let here = reports.filter { $0.path.hasSuffix(example.fileName) }.flatMap(\.diagnostics).filter { $0.code == rule.code }
            #expect(here.isEmpty, "\(rule.code) reports into \(example.fileName), so its examples need a ↓ where the finding points")
        }
    }

    /// A rule that is written but left out of the catalogue never runs; the compiler cannot see
    /// it, so this reads the declarations.
    @Test("every type declared as a Rule is in the RuleCatalogue")
    func everyRuleIsCatalogued() throws {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Sources/StoryCheck")
        var declared = Set<String>()
        for case let file as String in try #require(FileManager.default.enumerator(atPath: folder.path)) where file.hasSuffix(".swift") {
            let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
            for match in text.matches(of: /(?m)^\s*(?:public\s+)?(?:enum|struct|final class|class)\s+(\w+)\s*:\s*(?:[\w, ]*,\s*)?(?:Checked)?Rule\b/) {
                declared.insert(String(match.1))
            }
        }
        #expect(declared.count >= 40, "the declarations were not found: \(folder.path)")
        let catalogued = Set(RuleCatalogue.rules.map { String(describing: $0) })
        #expect(declared.subtracting(catalogued).isEmpty, "declared but not in RuleCatalogue.rules: \(declared.subtracting(catalogued).sorted())")
        #expect(catalogued.subtracting(declared).isEmpty, "catalogued but not found as declarations: \(catalogued.subtracting(declared).sorted())")
    }

    /// Where a rule's findings come from is declared, not inferred: a `CheckedRule` says which
    /// kind of file it checks and must have a check (the compiler holds it to both); the others
    /// are found while a file is read. Category and kind agree.
    @Test("every rule is found while reading or checked by the checker, as its category says, over the kind of file it names")
    func everyRuleRuns() {
        for rule in RuleCatalogue.rules {
            let category = rule.description.category
            let foundWhileReading: Set<RuleCategory> = [.syntax, .structure, .twee, .translation]
            // The catalogue asks `checkedRule` instead of casting: the two agree for every rule.
            #expect((rule.checkedRule != nil) == (rule is any CheckedRule.Type), "\(rule.description.code): checkedRule disagrees with its conformance")
            if let checked = rule as? any CheckedRule.Type {
                #expect(!foundWhileReading.contains(category), "\(rule.description.code) is checked but its category says it is found while reading")
                #expect((checked.checks == .authors) == (category == .authors), "\(rule.description.code) checks \(checked.checks), its category is \(category)")
            } else {
                #expect(foundWhileReading.contains(category), "\(rule.description.code) (\(category)) has no check and is not found while reading: it would never run")
            }
        }
    }

    @Test("codes, names and descriptions are complete and unique")
    func catalogueIsWellFormed() {
        let rules = Self.rules
        #expect(Set(rules.map(\.code)).count == rules.count)
        #expect(Set(rules.map(\.name)).count == rules.count)
        for rule in rules {
            #expect(rule.code.rawValue.wholeMatch(of: /CYD[1-9][0-9][0-9]/) != nil, "\(rule.code)")
            #expect(rule.name.wholeMatch(of: /[a-z0-9]+(-[a-z0-9]+)*/) != nil, "\(rule.name)")
            #expect(!rule.summary.hasSuffix("."), "\(rule.code) summary")
            #expect(rule.rationale.count > 40, "\(rule.code) rationale")
            #expect(!rule.nonTriggering.isEmpty, "\(rule.code) needs an example that passes")
            // Only the 1 GiB limit cannot be shown by an example; a unit test covers it.
            #expect(!rule.triggering.isEmpty || rule.code == .fileTooLarge, "\(rule.code) needs an example that fails")
        }
    }

    // MARK: Helpers

    /// Comments and empty files cannot take a comment before their marker line unchanged.
    static func canShift(_ rule: RuleDescription) -> Bool { rule.code != .comment && rule.code != .emptyFile }

    static func shift(_ example: RuleExample) -> RuleExample {
        let lines = example.source.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            line.contains("↓") ? "/*é🦊*/ " + line : String(line)
        }
        return RuleExample(lines.joined(separator: "\n"), fileName: example.fileName, folderFiles: example.folderFiles, lenient: true)
    }

    /// Line and column of each marker, counted independently of LineIndex: Unicode scalars.
    static func markerPositions(_ source: String) -> [SourcePosition] {
        var positions: [SourcePosition] = []
        for (number, line) in source.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            var column = 1
            for scalar in line.unicodeScalars {
                if scalar == "↓" {
                    positions.append(SourcePosition(line: number + 1, column: column))
                } else {
                    column += 1
                }
            }
        }
        return positions
    }

    func check(_ example: RuleExample, bytes: [UInt8]) throws -> [FileReport] {
        let options = CheckOptions(lenient: example.lenient)
        guard let files = example.folderFiles else {
            return Checker.check(bytes: bytes, path: example.fileName, options: options)
        }
        let folder = try TemporaryFolder()
        try folder.write(example.fileName, bytes)
        for (path, content) in files {
            if content.hasPrefix(RuleExample.linkPrefix) {
                try folder.link(path, to: String(content.dropFirst(RuleExample.linkPrefix.count)))
            } else {
                try folder.write(path, RuleExample.decode(content).bytes)
            }
        }
        return Checker.check(bytes: bytes, path: example.fileName, folder: StoryFolder(root: folder.url), options: options)
    }
}

extension RuleDescription: CustomTestStringConvertible {
    public var testDescription: String { "\(code) \(name)" }
}
