import Foundation
import Testing

/// The module graph as Package.swift declares it is the graph the code imports, and it flows
/// one way: storage below checking, sources above both, the CLI on top. The list of what no
/// module ever does (docs/architecture.md) is checked here, over every folder in Sources.
@Suite("Architecture")
struct ArchitectureTests {
    /// Our Swift library modules: everything in Sources but cyd and the C targets.
    static let ours: Set<String> = [
        "StoryFormat", "LocalFiles", "StoryCheck", "StoryAnalysis", "Transport", "StoryStore", "StoryReader", "StorySources", "StorySync",
        "TerminalPictures", "StoryLanguageServer", "TerminalUI", "StoryWeb", "StoryServer", "StoryInterchange",
        "StoryTranslation",
    ]
    static let cTargets: Set<String> = ["CCurl", "CCrypto", "CGit2", "CGit2Stream", "CLineEditor", "CPictures"]
    static let sources = Command.packageRoot.appendingPathComponent("Sources")

    /// Every Swift file of a target, with its path; a folder that is missing or empty fails
    /// rather than checking nothing.
    static func files(of target: String) throws -> [(path: String, text: String)] {
        let folder = sources.appendingPathComponent(target)
        let enumerator = try #require(FileManager.default.enumerator(atPath: folder.path), "Sources/\(target) is not a folder")
        var files: [(String, String)] = []
        for case let file as String in enumerator where file.hasSuffix(".swift") {
            files.append(("Sources/\(target)/\(file)", try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)))
        }
        #expect(!files.isEmpty, "Sources/\(target) has no Swift file")
        return files
    }

    /// The lines of a file that are code: comments (`//`, `///`) left out.
    static func codeLines(_ text: String) -> [(number: Int, line: Substring)] {
        text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
            .map { ($0.offset + 1, $0.element) }
            .filter { !$0.1.trimmingCharacters(in: .whitespaces).hasPrefix("//") }
    }

    static func importedModules(_ text: String) -> Set<String> {
        Set(text.split(separator: "\n").filter { $0.hasPrefix("import ") || $0.hasPrefix("@testable import ") }
            .map { String($0.split(separator: " ").last!).trimmingCharacters(in: .whitespaces) })
    }

    /// Each target's dependencies on our own modules, from `swift package dump-package`.
    static func declared() throws -> [String: Set<String>] {
        // Its own scratch folder: `swift test` holds the lock on .build while this runs.
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("cyd-dump-package-\(getpid())").path
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let result = try Command.run(URL(fileURLWithPath: "/usr/bin/env"), ["swift", "package", "--scratch-path", scratch, "dump-package"])
        let package = try #require(try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
        var graph: [String: Set<String>] = [:]
        for target in package["targets"] as? [[String: Any]] ?? [] where target["type"] as? String == "regular" || target["type"] as? String == "executable" {
            let name = target["name"] as? String ?? ""
            let names = (target["dependencies"] as? [[String: Any]] ?? []).compactMap { ($0.values.first as? [Any])?.first as? String }
            graph[name] = Set(names).intersection(ours)
        }
        return graph
    }

    /// Each target's imports of our own modules, from its sources.
    static func imported(_ target: String) throws -> Set<String> {
        try files(of: target).reduce(into: Set<String>()) { $0.formUnion(importedModules($1.text).intersection(ours)) }
    }

    @Test("every folder in Sources is a target these tests know: a library, a C target, or cyd")
    func everyFolderIsKnown() throws {
        let folders = try FileManager.default.contentsOfDirectory(atPath: Self.sources.path).filter { !$0.hasPrefix(".") }
        #expect(Set(folders) == Self.ours.union(Self.cTargets).union(["cyd"]), "add a new module to ArchitectureTests (and to docs/architecture.md)")
    }

    @Test("tests live beside the module they test: every file in Tests/XTests imports X, and every library module has its folder")
    func testsLiveWithTheirModule() throws {
        let tests = Command.packageRoot.appendingPathComponent("Tests")
        let folders = try FileManager.default.contentsOfDirectory(atPath: tests.path).filter { $0.hasSuffix("Tests") }
        for folder in folders where folder != "CydTests" {
            let module = String(folder.dropLast("Tests".count))
            #expect(Self.ours.contains(module), "Tests/\(folder) names no module of ours")
            let names = try FileManager.default.contentsOfDirectory(atPath: tests.appendingPathComponent(folder).path).filter { $0.hasSuffix(".swift") }
            #expect(!names.isEmpty, "Tests/\(folder) has no Swift file")
            for name in names {
                let text = try String(contentsOf: tests.appendingPathComponent("\(folder)/\(name)"), encoding: .utf8)
                #expect(Self.importedModules(text).contains(module), "Tests/\(folder)/\(name) does not import \(module): it belongs with the module it tests")
            }
        }
        // cyd's tests run the built command; the modules below it have tests of their own.
        let untested = Self.ours.subtracting(folders.map { String($0.dropLast("Tests".count)) })
        #expect(untested == [], "modules with no test folder: \(untested.sorted())")
    }

    @Test("tests start programs one way: TestSupport's ChildProcess (signals reset, pipes close-on-exec, SIGPIPE ignored)")
    func oneWayToStartAProgram() throws {
        let tests = Command.packageRoot.appendingPathComponent("Tests")
        let enumerator = try #require(FileManager.default.enumerator(atPath: tests.path))
        // Spelt in parts so this file does not find itself.
        let handMade = ["Process" + "()", "posix" + "_spawn", "Pipe" + "()"]
        var seen = 0
        for case let file as String in enumerator where file.hasSuffix(".swift") && file != "TestSupport/ChildProcess.swift" {
            seen += 1
            let text = try String(contentsOf: tests.appendingPathComponent(file), encoding: .utf8)
            for (number, line) in Self.codeLines(text) where handMade.contains(where: { line.contains($0) }) {
                Issue.record("Tests/\(file):\(number) starts a program by hand: use ChildProcess")
            }
        }
        #expect(seen > 50, "the walk found the test files")
    }

    @Test("Package.swift declares exactly the modules each target imports")
    func declaredAsImported() throws {
        let graph = try Self.declared()
        #expect(Set(graph.keys).isSuperset(of: Self.ours.union(["cyd"])), "every module is a target: \(graph.keys.sorted())")
        for target in Self.ours.union(["cyd"]) {
            #expect(try Self.imported(target) == graph[target] ?? [], "\(target)")
        }
    }

    @Test("no library module imports ArgumentParser, and none but the terminal's prints or ends the process")
    func librariesNeitherPrintNorExit() throws {
        for target in Self.ours {
            for file in try Self.files(of: target) {
                #expect(!Self.importedModules(file.text).contains("ArgumentParser"), "\(file.path) imports ArgumentParser")
                // TerminalUI is the terminal: it writes to it, and its signal handlers end the
                // process with the words made beforehand.
                guard target != "TerminalUI" else { continue }
                for (number, line) in Self.codeLines(file.text) where line.contains(/(^|[^\w.])(print|exit|_exit|fputs|abort)\(/) {
                    Issue.record("\(file.path):\(number) prints or ends the process: \(line.trimmingCharacters(in: .whitespaces))")
                }
            }
        }
    }

    /// cyd's flags and commands, as its `--help` lists them.
    static func cydWords() throws -> (flags: [String], commands: [String]) {
        let help = try Command.cyd(["--help"]).standardOutput
        let commands = help.split(separator: "\n").drop { !$0.hasPrefix("SUBCOMMANDS:") }.dropFirst()
            .compactMap { $0.split(separator: " ").first.map(String.init) }.filter { $0.first?.isLetter == true && $0.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" } }
        var flags = Set<String>()
        for command in commands {
            let text = try Command.cyd([command, "--help"]).standardOutput
            for match in text.matches(of: /--[a-z][a-z-]+/) { flags.insert(String(match.0)) }
        }
        flags.subtract(["--help", "--version"])
        return (flags.sorted(), commands)
    }

    @Test("no library string names a flag or a command of cyd's: the command line words those")
    func librariesNameNoFlag() throws {
        let (flags, commands) = try Self.cydWords()
        #expect(flags.contains("--lenient") && flags.contains("--library") && commands.contains("validate"), "flags: \(flags), commands: \(commands)")
        for target in Self.ours {
            for file in try Self.files(of: target) {
                for (number, line) in Self.codeLines(file.text) where line.contains("\"") || line.hasSuffix("\\") {
                    for flag in flags where line.contains(flag) {
                        Issue.record("\(file.path):\(number) names \(flag): \(line.trimmingCharacters(in: .whitespaces))")
                    }
                    for command in commands where line.contains("`cyd \(command)") || line.contains("cyd \(command) ") || line.contains("(cyd \(command)") {
                        Issue.record("\(file.path):\(number) names `cyd \(command)`: \(line.trimmingCharacters(in: .whitespaces))")
                    }
                }
            }
        }
    }

    @Test("only Transport touches libcurl and libgit2, only StoryStore opens SQLite")
    func theCLibrariesHaveOneHomeEach() throws {
        for target in Self.ours.union(["cyd"]) {
            let imports = try Self.files(of: target).reduce(into: Set<String>()) { $0.formUnion(Self.importedModules($1.text)) }
            if target != "Transport" { #expect(imports.isDisjoint(with: ["CCurl", "CCrypto", "CGit", "CGit2", "CGit2Stream"]), "\(target) imports \(imports.sorted())") }
            if target != "StoryStore" { #expect(imports.isDisjoint(with: ["GRDB", "GRDBSQLite", "SQLite3"]), "\(target) imports \(imports.sorted())") }
        }
    }

    @Test("StoryFormat imports nothing but the C library; TerminalPictures nothing of ours but CPictures")
    func theLeavesStayLeaves() throws {
        let format = try Self.files(of: "StoryFormat").reduce(into: Set<String>()) { $0.formUnion(Self.importedModules($1.text)) }
        #expect(format.isSubset(of: ["Glibc", "Darwin"]), "\(format.sorted())")
        let pictures = try Self.files(of: "TerminalPictures").reduce(into: Set<String>()) { $0.formUnion(Self.importedModules($1.text)) }
        #expect(pictures.intersection(Self.ours).isEmpty && pictures.isSubset(of: ["CPictures", "Glibc", "Darwin"]), "\(pictures.sorted())")
    }

    @Test("Glibc and Darwin are imported only behind #if canImport")
    func platformModulesAreGuarded() throws {
        for target in Self.ours.union(["cyd"]) {
            for file in try Self.files(of: target) {
                let lines = file.text.split(separator: "\n", omittingEmptySubsequences: false)
                for (index, line) in lines.enumerated() where line == "import Glibc" || line == "import Darwin" {
                    let module = line.dropFirst("import ".count)
                    let guardLine = index > 0 ? lines[index - 1].trimmingCharacters(in: .whitespaces) : ""
                    #expect(guardLine.hasSuffix("canImport(\(module))"), "\(file.path):\(index + 1) imports \(module) unguarded")
                }
                for (number, line) in Self.codeLines(file.text) where line.contains("Glibc.") || line.contains("Darwin.") {
                    // A qualified call must sit inside a guard of its own kind: look back for it.
                    let before = lines[..<(number - 1)].reversed().first { $0.contains("#if") || $0.contains("#else") || $0.contains("#endif") }
                    let module = line.contains("Glibc.") ? "Glibc" : "Darwin"
                    #expect(before?.contains("canImport(\(module))") == true, "\(file.path):\(number) calls \(module) outside #if canImport(\(module))")
                }
            }
        }
    }

    @Test("dependencies flow one way: storage and reading know nothing of checking, sources or the network")
    func oneWay() throws {
        let graph = try Self.declared()
        #expect(graph["StoryFormat"] == [])
        #expect(graph["StoryStore"] == ["StoryFormat"])
        #expect(graph["StoryReader"] == ["StoryStore", "StoryFormat"])
        #expect(graph["StoryCheck"] == ["StoryFormat", "LocalFiles"])
        #expect(graph["StorySync"]?.contains("StorySources") == true)
        // Drawing pictures knows pixels and terminals' protocols, nothing of stories.
        #expect(graph["TerminalPictures"] == [])
    }
}
