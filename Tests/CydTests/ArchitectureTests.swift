import Foundation
import Testing

/// The module graph as Package.swift declares it is the graph the code imports, and it flows
/// one way: storage below checking, sources above both, the CLI on top. The list of what no
/// module ever does (docs/architecture.md) is checked here, over every folder in Sources, on
/// the code as Swift reads it (`SwiftSourceScan`: comments and strings apart, every import found
/// wherever it stands, multi-line and raw strings read). Each check is also run on planted
/// violations, so a gap in it fails here rather than letting code through.
@Suite("Architecture")
struct ArchitectureTests {
    /// Every dependency each non-test target may have: ours, the C targets and other packages'
    /// products. `swift package dump-package` must declare exactly these, docs/architecture.md
    /// must list exactly these, and each module must import exactly its Swift modules of ours.
    static let allowed: [String: Set<String>] = [
        // the format: bytes -> JSON tree -> model; nothing at all
        // the format's one module of ours: the byte scans in C, no library behind them
        "StoryFormat": ["CByteScan"],
        "LocalFiles": [],
        "StoryCheck": ["StoryFormat", "LocalFiles"],
        "StoryAnalysis": ["StoryFormat", "StoryCheck"],
        "StoryInterchange": ["StoryFormat", "StoryCheck", "StoryWeb", "InterfaceWords"],
        "StoryTranslation": ["StoryFormat", "StoryCheck", "LocalFiles"],
        // cyd's words for readers, translated by the translations' own machinery
        "InterfaceWords": ["StoryTranslation"],
        // the one way to validate anything
        "StoryValidation": ["StoryFormat", "StoryCheck", "StoryInterchange", "StoryTranslation", "LocalFiles"],
        // a story change as a story change, its versions from folders, files and git revisions
        "StoryDiff": ["StoryFormat", "StoryCheck", "StoryAnalysis", "StoryTranslation", "StoryValidation", "Transport", "LocalFiles"],
        "StoryWeb": ["StoryFormat", "LocalFiles", "InterfaceWords"],
        // storage knows the format only
        "StoryStore": ["StoryFormat", "GRDB", "GRDBSQLite"],
        "StoryReader": ["StoryStore", "StoryFormat"],
        // the C libraries, each behind one module
        "CCurl": [], "CCrypto": [], "CLineEditor": [], "CPictures": [], "CGit2": [], "CGit2Stream": ["CGit2"], "CByteScan": [],
        "Transport": ["CCurl", "CGit2", "CGit2Stream", "CCrypto"],
        "TerminalPictures": ["CPictures"],
        "StorySources": ["StoryFormat", "StoryCheck", "StoryStore", "StoryReader", "StoryTranslation", "StoryValidation", "Transport", "LocalFiles"],
        "StorySync": ["StorySources", "StoryStore", "StoryCheck", "StoryFormat", "StoryTranslation", "StoryValidation", "Transport", "LocalFiles"],
        "StoryLanguageServer": ["StoryFormat", "StoryCheck", "StoryAnalysis", "StoryTranslation", "StoryValidation", "LocalFiles"],
        "StoryServer": [
            "StoryWeb", "StoryReader", "StoryStore", "StorySources", "StoryFormat", "StoryTranslation", "LocalFiles", "Transport",
            "StoryCheck", "StoryAnalysis", "StoryValidation", "StoryDiff", "InterfaceWords",
            "Hummingbird", "HummingbirdCore", "NIOCore", "NIOPosix", "NIOHTTPTypes", "NIOHTTPTypesHTTP1", "NIOHTTP1", "Logging", "HTTPTypes",
        ],
        "TerminalUI": [
            "StoryFormat", "StoryCheck", "StoryAnalysis", "StoryStore", "StoryReader", "StorySources", "StorySync", "LocalFiles", "CLineEditor", "TerminalPictures",
            "InterfaceWords",
        ],
        // the command line's words, below cyd
        "CydWords": [
            "StoryFormat", "StoryCheck", "StoryAnalysis", "StoryStore", "StorySources", "StorySync", "StoryTranslation", "StoryValidation", "StoryWeb", "StoryInterchange",
            "StoryDiff", "LocalFiles", "TerminalUI", "InterfaceWords",
        ],
        "cyd": [
            "CydWords", "StoryFormat", "StoryCheck", "StoryAnalysis", "StoryStore", "StoryReader", "StorySources", "StorySync", "LocalFiles", "Transport",
            "StoryLanguageServer", "StoryWeb", "StoryInterchange", "StoryTranslation", "StoryValidation", "StoryDiff", "TerminalUI", "TerminalPictures",
            "ArgumentParser", "StoryServer", "InterfaceWords",
        ],
        // beside the tests
        "CydFuzz": [
            "StorySync", "StorySources", "StoryStore", "StoryFormat", "StoryInterchange", "StoryTranslation", "StoryServer", "Hummingbird", "NIOCore", "NIOEmbedded", "NIOHTTP1",
            "NIOHTTPTypes", "NIOHTTPTypesHTTP1", "Logging", "HTTPTypes",
        ],
        "TestSupport": ["StoryFormat"],
        "LibraryTestSupport": ["StorySources", "StoryStore", "TestSupport"],
        // glibc's heap as the tests see it (mallinfo2, which Swift's Glibc module leaves out)
        "CHeapProbe": [],
    ]

    /// Our Swift library modules: everything in Sources but cyd and the C targets.
    static let ours: Set<String> = [
        "StoryFormat", "LocalFiles", "StoryCheck", "StoryAnalysis", "Transport", "StoryStore", "StoryReader", "StorySources", "StorySync",
        "TerminalPictures", "StoryLanguageServer", "TerminalUI", "StoryWeb", "StoryServer", "StoryInterchange",
        "StoryTranslation", "StoryValidation", "StoryDiff", "CydWords", "InterfaceWords",
    ]
    /// The command line's modules: they alone name cyd's flags and commands (CydWords makes the
    /// words, cyd parses the flags and writes the words out).
    static let commandLine: Set<String> = ["cyd", "CydWords"]
    static let cTargets: Set<String> = ["CCurl", "CCrypto", "CGit2", "CGit2Stream", "CLineEditor", "CPictures", "CByteScan"]
    static let sources = Command.packageRoot.appendingPathComponent("Sources")

    /// Every Swift file of a target, with its path and its scan; a folder that is missing or
    /// empty fails rather than checking nothing. CydFuzz lives under Tests/Fuzz.
    static func files(of target: String) throws -> [(path: String, text: String, scan: SwiftSourceScan)] {
        let relative = target == "CydFuzz" ? "Tests/Fuzz/CydFuzz" : "Sources/\(target)"
        let folder = Command.packageRoot.appendingPathComponent(relative)
        let enumerator = try #require(FileManager.default.enumerator(atPath: folder.path), "\(relative) is not a folder")
        var files: [(String, String, SwiftSourceScan)] = []
        for case let file as String in enumerator where file.hasSuffix(".swift") {
            let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
            files.append(("\(relative)/\(file)", text, SwiftSourceScan(text)))
        }
        #expect(!files.isEmpty, "\(relative) has no Swift file")
        return files
    }

    /// The lines of a file that are code: comments and string contents blanked.
    static func codeLines(_ text: String) -> [(number: Int, line: Substring)] { SwiftSourceScan(text).codeLines }

    static func importedModules(_ text: String) -> Set<String> { Set(SwiftSourceScan(text).imports.map(\.module)) }

    /// Each non-test target's dependencies (ours, C targets, products), from
    /// `swift package dump-package`, conditional ones included.
    static func declared() throws -> [String: Set<String>] {
        // Its own scratch folder: `swift test` holds the lock on .build while this runs.
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("cyd-dump-package-\(getpid())").path
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let result = try Command.run(URL(fileURLWithPath: "/usr/bin/env"), ["swift", "package", "--scratch-path", scratch, "dump-package"])
        return try dependencies(fromDump: result.standardOutput)
    }

    static func dependencies(fromDump json: String) throws -> [String: Set<String>] {
        let package = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        var graph: [String: Set<String>] = [:]
        for target in package["targets"] as? [[String: Any]] ?? [] where target["type"] as? String != "test" {
            let name = target["name"] as? String ?? ""
            // {"byName": [name, condition]}, {"target": [name, condition]}, {"product": [name, package, ...]}
            let names = (target["dependencies"] as? [[String: Any]] ?? []).compactMap { ($0.values.first as? [Any])?.first as? String }
            graph[name] = Set(names)
        }
        return graph
    }

    /// The differences between a declared graph and the allowed one, in words; empty when equal.
    static func differences(declared: [String: Set<String>], allowed: [String: Set<String>]) -> [String] {
        var found: [String] = []
        for target in Set(declared.keys).union(allowed.keys).sorted() {
            guard let have = declared[target] else { found.append("\(target) is allowed but not a target"); continue }
            guard let may = allowed[target] else { found.append("\(target) is a target the table does not know"); continue }
            for extra in have.subtracting(may).sorted() { found.append("\(target) depends on \(extra), which the table does not allow") }
            for missing in may.subtracting(have).sorted() { found.append("\(target) is allowed \(missing) but does not declare it") }
        }
        return found
    }

    /// Each target's imports of our own modules, from its sources.
    static func imported(_ target: String) throws -> Set<String> {
        try files(of: target).reduce(into: Set<String>()) { $0.formUnion($1.scan.imports.map(\.module)) }.intersection(ours)
    }

    @Test("the command line stays thin: cyd is under 1,500 lines, logic living in the libraries and words in CydWords")
    func theCommandLineIsThin() throws {
        let lines = try Self.files(of: "cyd").reduce(0) { $0 + $1.text.split(separator: "\n", omittingEmptySubsequences: false).count - ($1.text.hasSuffix("\n") ? 1 : 0) }
        #expect(lines < 1500, "Sources/cyd holds \(lines) lines: move what is not flags, calls and their wording into the library that owns it")
    }

    /// ArgumentParser names a command without a `commandName` by `String(describing:)` of its
    /// type, and it does so for every command of the tree on every start: each such name asks
    /// the Swift runtime whether the type conforms to the description protocols, a scan of all
    /// of the binary's ~9,000 conformance records. Twenty commands without a name cost every
    /// `cyd` start about 4 ms (perf, `cyd serve`'s start-up).
    @Test("every command of cyd names itself, so that no start asks the runtime for a type's name")
    func everyCommandNamesItself() throws {
        var unnamed: [String] = []
        for file in try Self.files(of: "cyd") {
            let code = Array(file.scan.code.utf8)
            let opener = Array("CommandConfiguration(".utf8)
            var index = 0
            while index + opener.count <= code.count {
                guard code[index..<(index + opener.count)].elementsEqual(opener) else { index += 1; continue }
                // The call's arguments, to its closing parenthesis (strings are blanked in `code`).
                var depth = 0, end = index + opener.count - 1
                repeat {
                    if code[end] == UInt8(ascii: "(") { depth += 1 } else if code[end] == UInt8(ascii: ")") { depth -= 1 }
                    end += 1
                } while depth > 0 && end < code.count
                let arguments = String(decoding: code[index..<end], as: UTF8.self)
                if !arguments.contains("commandName:") {
                    let line = code[..<index].count { $0 == UInt8(ascii: "\n") } + 1
                    unnamed.append("\(file.path):\(line)")
                }
                index = end
            }
        }
        #expect(unnamed.isEmpty, "give these CommandConfigurations a commandName: \(unnamed.joined(separator: ", "))")
    }

    @Test("every folder in Sources is a target these tests know: a library, a C target, or cyd")
    func everyFolderIsKnown() throws {
        let folders = try FileManager.default.contentsOfDirectory(atPath: Self.sources.path).filter { !$0.hasPrefix(".") }
        #expect(Set(folders) == Self.ours.union(Self.cTargets).union(["cyd"]), "add a new module to ArchitectureTests (and to docs/architecture.md)")
        #expect(Set(Self.allowed.keys) == Self.ours.union(Self.cTargets).union(["cyd", "CydFuzz", "TestSupport", "LibraryTestSupport", "CHeapProbe"]))
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

    @Test("Package.swift declares exactly the allowed dependencies, and each module imports exactly its modules of ours")
    func declaredAsAllowedAndImported() throws {
        let graph = try Self.declared()
        for difference in Self.differences(declared: graph, allowed: Self.allowed) { Issue.record("\(difference)") }
        for target in Self.ours.union(["cyd"]) {
            #expect(try Self.imported(target) == (graph[target] ?? []).intersection(Self.ours), "\(target)")
        }
    }

    @Test("dependencies flow one way: the allowed graph has no cycle, and storage and reading know nothing of checking, sources or the network")
    func oneWay() throws {
        // A topological order exists: repeatedly take the targets whose dependencies are taken.
        var placed = Set<String>()
        var remaining = Set(Self.allowed.keys)
        while !remaining.isEmpty {
            let ready = remaining.filter { (Self.allowed[$0] ?? []).intersection(Self.allowed.keys).isSubset(of: placed) }
            #expect(!ready.isEmpty, "a cycle among \(remaining.sorted())")
            if ready.isEmpty { break }
            placed.formUnion(ready)
            remaining.subtract(ready)
        }
        // The format and local files are leaves: the format's one module besides is its byte
        // scans, a C target that itself depends on nothing.
        #expect(Self.allowed["LocalFiles"] == [])
        #expect(Self.allowed["StoryFormat"] == ["CByteScan"] && Self.allowed["CByteScan"] == [])
        #expect(Self.allowed["StoryStore"]?.intersection(Self.ours) == ["StoryFormat"])
        #expect(Self.allowed["StoryReader"]?.intersection(Self.ours) == ["StoryStore", "StoryFormat"])
        #expect(Self.allowed["TerminalPictures"]?.intersection(Self.ours) == [])
        // The command line's words are the command line's: no library is built on them.
        for (target, dependencies) in Self.allowed where target != "cyd" {
            #expect(!dependencies.contains("CydWords"), "\(target) depends on CydWords, the command line's words")
        }
    }

    @Test("docs/architecture.md lists each module with exactly the dependencies allowed here")
    func theDocumentSaysTheTable() throws {
        let text = try String(contentsOf: Command.packageRoot.appendingPathComponent("docs/architecture.md"), encoding: .utf8)
        let documented = Self.documentedDependencies(text)
        for difference in Self.differences(declared: documented, allowed: Self.allowed) { Issue.record("docs/architecture.md: \(difference)") }
        // Read top to bottom, the table is an order the modules can be built in.
        var listed = Set<String>()
        for line in text.split(separator: "\n") where line.hasPrefix("| `") {
            let name = String(line.dropFirst(3).prefix { $0 != "`" })
            for dependency in (Self.allowed[name] ?? []).intersection(Self.allowed.keys) where !listed.contains(dependency) {
                Issue.record("docs/architecture.md lists \(name) before \(dependency), which it depends on")
            }
            listed.insert(name)
        }
    }

    /// The rows of the dependency table in docs/architecture.md: `| `Module` | `A`, `B` |`.
    static func documentedDependencies(_ text: String) -> [String: Set<String>] {
        var table: [String: Set<String>] = [:]
        for line in text.split(separator: "\n") where line.hasPrefix("| `") {
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count >= 4 else { continue }
            let name = cells[1].trimmingCharacters(in: CharacterSet(charactersIn: "`"))
            let dependencies = cells[2].matches(of: /`([A-Za-z0-9]+)`/).map { String($0.output.1) }
            table[name] = Set(dependencies)
        }
        return table
    }

    /// Where a library module's code prints, ends the process, or writes to standard output or
    /// error itself: bare and module-qualified calls, raw `write` to descriptors 1 and 2, and
    /// descriptors that default to them.
    static let printWords = ["print", "exit", "abort", "puts", "perror", "write", "STDOUT", "STDERR", "stdout", "stderr", "FileHandle", "Int32", "CInt"]

    static func printsOrExits(_ scan: SwiftSourceScan) -> [(number: Int, line: String)] {
        scan.codeLines.filter { _, line in
            // Swift's regexes are slow in a debug build: only lines with a word they look for.
            guard Self.printWords.contains(where: { line.contains($0) }) else { return false }
            return line.contains(/(^|[^\w.])(print|debugPrint|exit|_exit|fputs|puts|putchar|abort|perror)\(/)
                || line.contains(/\b(Glibc|Darwin|Foundation|Musl|FoundationEssentials)\s*\.\s*(exit|_exit|abort|print|fputs|puts)\(/)
                || line.contains(/\bwrite\(\s*(1|2|STDOUT_FILENO|STDERR_FILENO)\s*,/)
                || line.contains(/\b(STDOUT_FILENO|STDERR_FILENO|stdout|stderr)\b/)
                || line.contains(/FileHandle\.standard(Output|Error)/)
                || line.contains(/:\s*(Int32|CInt)\s*=\s*[12]\b/)
        }.map { ($0.number, $0.line.trimmingCharacters(in: .whitespaces)) }
    }

    @Test("no library module imports ArgumentParser, and none but the terminal's prints, ends the process or writes to standard output")
    func librariesNeitherPrintNorExit() throws {
        for target in Self.ours {
            for file in try Self.files(of: target) {
                #expect(!file.scan.imports.contains { $0.module == "ArgumentParser" }, "\(file.path) imports ArgumentParser")
                // TerminalUI is the terminal: it writes to it, and its signal handlers end the
                // process with the words made beforehand.
                guard target != "TerminalUI" else { continue }
                for (number, line) in Self.printsOrExits(file.scan) {
                    Issue.record("\(file.path):\(number) prints or ends the process: \(line)")
                }
            }
        }
    }

    /// Every long flag of cyd and of each of its subcommands, nested ones included, and its
    /// top-level commands, from ArgumentParser's own description of the command tree.
    static func cydWords() throws -> (flags: [String], commands: [String]) {
        let dump = try Command.cyd(["--experimental-dump-help"]).standardOutput
        let root = try #require(try JSONSerialization.jsonObject(with: Data(dump.utf8)) as? [String: Any])
        let tool = try #require(root["command"] as? [String: Any])
        var flags = Set<String>()
        func walk(_ command: [String: Any]) {
            for argument in command["arguments"] as? [[String: Any]] ?? [] {
                for name in argument["names"] as? [[String: Any]] ?? [] where name["kind"] as? String == "long" {
                    if let flag = name["name"] as? String { flags.insert("--" + flag) }
                }
            }
            for sub in command["subcommands"] as? [[String: Any]] ?? [] { walk(sub) }
        }
        walk(tool)
        flags.subtract(["--help", "--version"])
        let commands = (tool["subcommands"] as? [[String: Any]] ?? []).compactMap { $0["commandName"] as? String }.filter { $0 != "help" }
        return (flags.sorted(), commands)
    }

    /// Programs whose own flags a library may name, right after the program's name.
    static let otherPrograms = ["msgfmt", "msgmerge", "git", "tweego", "swift", "dot"]

    /// The flags and `cyd COMMAND` phrases a file's strings name, with their lines.
    static func namedWords(_ scan: SwiftSourceScan, flags: [String], commands: [String]) -> [(number: Int, word: String)] {
        var found: [(Int, String)] = []
        for literal in scan.literals {
            for flag in flags where literal.text.contains(Regex<Substring>(verbatim: flag)) {
                // A whole flag, not the start of a longer one (--json in --json-lines), and not
                // another program's flag of the same name (`msgfmt --check`).
                let pattern = try! Regex(NSRegularExpression.escapedPattern(for: flag) + "(?![a-z-])")
                let ours = literal.text.matches(of: pattern).contains { match in
                    let before = literal.text[..<match.range.lowerBound]
                    return !otherPrograms.contains { before.hasSuffix(" \($0) ") || before == "\($0) " || before.hasSuffix("`\($0) ") }
                }
                if ours { found.append((literal.line, flag)) }
            }
            for command in commands where literal.text.contains("cyd \(command)") {
                let pattern = try! Regex("(^|[^a-z-])cyd " + NSRegularExpression.escapedPattern(for: command) + "(?![a-z-])")
                if literal.text.contains(pattern) { found.append((literal.line, "cyd \(command)")) }
            }
        }
        return found
    }

    @Test("no library string names a flag or a command of cyd's: the command line words those")
    func librariesNameNoFlag() throws {
        let (flags, commands) = try Self.cydWords()
        // Nested subcommands' flags are collected too (catalogue publish --sign).
        #expect(flags.contains("--lenient") && flags.contains("--library") && flags.contains("--sign") && flags.contains("--handover-from")
            && commands.contains("validate"), "flags: \(flags), commands: \(commands)")
        for target in Self.ours.subtracting(Self.commandLine) {
            for file in try Self.files(of: target) {
                for (number, word) in Self.namedWords(file.scan, flags: flags, commands: commands) {
                    Issue.record("\(file.path):\(number) names \(word)")
                }
            }
        }
    }

    @Test("only Transport touches libcurl, libgit2 and libcrypto, only StoryStore opens SQLite")
    func theCLibrariesHaveOneHomeEach() throws {
        for target in Self.ours.union(["cyd"]) {
            let imports = try Self.files(of: target).reduce(into: Set<String>()) { $0.formUnion($1.scan.imports.map(\.module)) }
            if target != "Transport" { #expect(imports.isDisjoint(with: ["CCurl", "CCrypto", "CGit", "CGit2", "CGit2Stream"]), "\(target) imports \(imports.sorted())") }
            if target != "StoryStore" { #expect(imports.isDisjoint(with: ["GRDB", "GRDBSQLite", "SQLite3"]), "\(target) imports \(imports.sorted())") }
        }
    }

    @Test("StoryFormat imports nothing but the C library and its byte scans; TerminalPictures nothing of ours but CPictures")
    func theLeavesStayLeaves() throws {
        let format = try Self.files(of: "StoryFormat").reduce(into: Set<String>()) { $0.formUnion($1.scan.imports.map(\.module)) }
        #expect(format.isSubset(of: ["Glibc", "Darwin", "CByteScan"]), "\(format.sorted())")
        let pictures = try Self.files(of: "TerminalPictures").reduce(into: Set<String>()) { $0.formUnion($1.scan.imports.map(\.module)) }
        #expect(pictures.intersection(Self.ours).isEmpty && pictures.isSubset(of: ["CPictures", "Glibc", "Darwin"]), "\(pictures.sorted())")
    }

    /// Where a platform module is imported or called outside a `#if canImport` of its own.
    static func unguardedPlatformUse(_ scan: SwiftSourceScan) -> [(number: Int, module: String)] {
        let lines = scan.codeLines
        /// The innermost condition in force at a line: the nearest #if/#elseif above it that is
        /// still open (an #else turns it into its opposite, which guards nothing).
        func condition(before number: Int) -> String? {
            var depth = 0
            for (_, line) in lines[..<(number - 1)].reversed() {
                let directive = line.trimmingCharacters(in: .whitespaces)
                if directive.hasPrefix("#endif") { depth += 1 }
                else if directive.hasPrefix("#if") || directive.hasPrefix("#elseif") || directive.hasPrefix("#else") {
                    if depth == 0 { return directive.hasPrefix("#else") && !directive.hasPrefix("#elseif") ? "#else" : directive }
                    if directive.hasPrefix("#if") { depth -= 1 }
                }
            }
            return nil
        }
        var found: [(Int, String)] = []
        for (number, module) in scan.imports where module == "Glibc" || module == "Darwin" || module == "Musl" {
            if condition(before: number)?.contains("canImport(\(module))") != true { found.append((number, module)) }
        }
        for (number, line) in lines {
            for module in ["Glibc", "Darwin", "Musl"] where line.contains(Regex<Substring>(verbatim: module + ".")) {
                if condition(before: number)?.contains("canImport(\(module))") != true { found.append((number, module)) }
            }
        }
        return found
    }

    @Test("Glibc and Darwin are imported and called only behind #if canImport")
    func platformModulesAreGuarded() throws {
        for target in Self.ours.union(["cyd"]) {
            for file in try Self.files(of: target) {
                for (number, module) in Self.unguardedPlatformUse(file.scan) {
                    Issue.record("\(file.path):\(number) uses \(module) outside #if canImport(\(module))")
                }
            }
        }
    }

    // MARK: - The checks catch what they exist to catch

    @Test("an import is found wherever it stands: indented under #if, with attributes, an access level or a kind")
    func plantedImports() {
        let planted = """
            #if canImport(FoundationEssentials)
                import FoundationEssentials
            #endif
            @preconcurrency import ArgumentParser
            @_exported public import StoryStore
            import struct StorySync.CatalogueRoot
            internal import GRDB
            // import NotThis
            let text = "import NorThis"
            """
        #expect(Self.importedModules(planted) == ["FoundationEssentials", "ArgumentParser", "StoryStore", "StorySync", "GRDB"])
    }

    @Test("a library that prints, exits or writes to descriptor 1 is caught, qualified or not")
    func plantedPrintsAndExits() {
        let caught = [
            "Glibc.exit(1)", "Darwin.exit(2)", "Foundation.exit(0)", "    _ = write(1, bytes, count)", "write(STDOUT_FILENO, p, n)",
            "fwrite(p, 1, n, stdout)", "FileHandle.standardError.write(data)", "public init(input: Int32 = 0, output: Int32 = 1) {}",
            "print(\"hello\")", "let x = f(); exit(3)",
        ]
        for line in caught { #expect(Self.printsOrExits(SwiftSourceScan(line)).count == 1, "\(line)") }
        let allowed = ["try file.write(data)", "handle.exit(code)", "// print(x)", "let s = \"exit(1)\"", "write(descriptor, p, n)", "var limit: Int32 = 16"]
        for line in allowed { #expect(Self.printsOrExits(SwiftSourceScan(line)).isEmpty, "\(line)") }
    }

    @Test("a flag named in any kind of string is caught: plain, multi-line, raw, interpolated")
    func plantedFlagNames() {
        let flags = ["--trust", "--sign", "--json", "--check"]
        let commands = ["validate", "catalogue"]
        let planted = """
            let sql = \"""
                CREATE TABLE t (
                  -- the key given with --trust
                  k TEXT)
                \"""
            let raw = #"publish with --sign "KEY""#
            let nested = "\\(x ? "a" : "see cyd validate") and more"
            /* "--json" in a comment is not a string */
            let fine = "--json-lines is another word, cyd validation no command, msgfmt --check not ours"
            let wrapped = "publish this catalogue with `cyd catalogue publish`"
            let ours = "extract --check fails when stale"
            """
        let found = Self.namedWords(SwiftSourceScan(planted), flags: flags, commands: commands)
        #expect(found.map(\.word) == ["--trust", "--sign", "cyd validate", "cyd catalogue", "--check"], "\(found)")
        #expect(found.map(\.number) == [1, 6, 7, 10, 11], "\(found)")
    }

    @Test("a platform module used outside its own #if canImport is caught, #else and nesting included")
    func plantedPlatformUse() {
        let planted = """
            import Glibc
            #if canImport(Glibc)
            import Glibc
            #else
            let a = Glibc.exit
            #endif
            #if canImport(Darwin)
            #if DEBUG
            #endif
            let b = Darwin.sqrt(2.0)
            #endif
            """
        let found = Self.unguardedPlatformUse(SwiftSourceScan(planted))
        #expect(found.map(\.number).sorted() == [1, 5], "\(found)")
    }

    @Test("a dependency the table does not allow, or one it allows and the package lacks, is caught; so is a document that differs")
    func plantedDependencies() throws {
        var declared = Self.allowed
        declared["StoryStore"]?.insert("Transport")
        declared["StoryReader"]?.remove("StoryFormat")
        #expect(Self.differences(declared: declared, allowed: Self.allowed) == [
            "StoryReader is allowed StoryFormat but does not declare it", "StoryStore depends on Transport, which the table does not allow",
        ])
        let document = """
            | module | depends on | |
            |---|---|---|
            | `StoryFormat` | nothing | the format |
            | `StoryStore` | `StoryFormat`, `GRDB` | storage |
            """
        let read = Self.documentedDependencies(document)
        #expect(read == ["StoryFormat": [], "StoryStore": ["StoryFormat", "GRDB"]])
        let dump = #"{"targets": [{"name": "A", "type": "regular", "dependencies": [{"byName": ["B", null]}, {"product": ["P", "pkg", null, null]}, {"target": ["C", {"traits": ["T"]}]}]}, {"name": "ATests", "type": "test", "dependencies": []}]}"#
        #expect(try Self.dependencies(fromDump: dump) == ["A": ["B", "P", "C"]])
    }
}
