#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import StoryAnalysis
import StoryCheck
import StoryFormat
import StoryTranslation
import StoryValidation
import LocalFiles

/// A Language Server Protocol server for story.json and authors.json over stdio: diagnostics
/// (the validator's rules, debounced), definition, references, hover, completion, rename, code
/// actions (the `cyd fix` edits, "create chapter") and document symbols.
///
/// One thread: it waits for input with `poll`, whose timeout is the next pending check, so a
/// burst of changes is checked once, after `debounce` of quiet, against the text as it is then.
/// Diagnostics are therefore never for an older text than the newest the server has seen.
public final class LanguageServer {
    public struct Options: Sendable {
        /// Quiet time after a change before the document is checked.
        public var debounceMilliseconds: Int
        public init(debounceMilliseconds: Int = 50) { self.debounceMilliseconds = debounceMilliseconds }
    }

    /// Where the rules are described; each diagnostic's `codeDescription` links here.
    public static var rulesURL: String { ProjectHome.rulesPage }

    private let connection: Connection
    private let options: Options
    private var documents: [String: TextDocument] = [:]
    /// When each document with unchecked changes is due to be checked (monotonic milliseconds).
    private var due: [String: Int] = [:]
    /// The last navigation built for each document, with the version it was built from; the
    /// last one that parsed is kept for completion while the text does not.
    private var navigation: [String: (version: Int, value: StoryNavigation?)] = [:]
    private var lastGoodNavigation: [String: StoryNavigation] = [:]
    private var initialized = false
    private var shutDown = false

    /// Serves on `input` and answers on `output` (file descriptors the caller owns: the
    /// command line passes standard input and output; a test, a pipe).
    public init(input: Int32, output: Int32, options: Options = .init()) {
        connection = Connection(input: input, output: output)
        self.options = options
    }

    /// Serves until `exit` or the end of input; returns the process exit code (0 after an
    /// orderly shutdown, 1 otherwise, as the protocol asks).
    public func run() -> Int32 {
        while true {
            while let incoming = connection.nextMessage() {
                switch incoming {
                case .malformed:
                    connection.send(["jsonrpc": "2.0", "id": nil, "error": ["code": -32700, "message": "the message is not JSON"]])
                case let .message(message):
                    if let code = handle(message) { return code }
                case .headerTooLong:
                    logMessage(
                        "the language server closes the connection: a message header ran past \(MessageFraming.maximumHeaderBytes) bytes without ending, so the messages after it cannot be found")
                    return 1
                }
            }
            for length in connection.oversized {
                showMessage("the language server skipped a message of \(length) bytes: the largest it reads is \(Connection.maximumMessageBytes) bytes")
            }
            connection.oversized.removeAll()
            // The input ended without `exit`: not an orderly end, even after `shutdown`.
            if connection.reachedEnd { return 1 }
            let now = Self.milliseconds()
            if let next = due.values.min() {
                if next <= now {
                    for (uri, time) in due where time <= now { publishDiagnostics(uri) }
                    continue
                }
                if connection.waitForInput(milliseconds: Int32(next - now)) { connection.readAvailable() }
            } else if connection.waitForInput(milliseconds: -1) {
                connection.readAvailable()
            }
        }
    }

    static func milliseconds() -> Int {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return now.tv_sec * 1000 + now.tv_nsec / 1_000_000
    }

    // MARK: Dispatch

    private enum Failure: Error {
        case error(code: Int, message: String)
        static func invalidParams(_ message: String) -> Failure { .error(code: -32602, message: message) }
    }

    /// Handles one message; returns an exit code when the server must stop.
    private func handle(_ message: JSONValue) -> Int32? {
        let method = message["method"]?.string
        let id = message["id"]
        let params = message["params"] ?? .null
        guard let method else {
            // A response to a request of ours (none are sent), or nonsense: ignored unless it has an id.
            if let id, message["result"] == nil, message["error"] == nil {
                connection.send(["jsonrpc": "2.0", "id": id, "error": ["code": -32600, "message": "a request needs a method"]])
            }
            return nil
        }
        guard let id else { return notification(method, params) }
        do {
            let result = try request(method, params)
            connection.send(["jsonrpc": "2.0", "id": id, "result": result])
        } catch let Failure.error(code, text) {
            connection.send(["jsonrpc": "2.0", "id": id, "error": ["code": JSONValue(code), "message": .string(text)]])
        } catch {
            connection.send(["jsonrpc": "2.0", "id": id, "error": ["code": -32603, "message": .string("internal error: \(error)")]])
        }
        return nil
    }

    private func notification(_ method: String, _ params: JSONValue) -> Int32? {
        switch method {
        case "exit":
            return shutDown ? 0 : 1
        case "textDocument/didOpen":
            guard initialized, let item = params["textDocument"], let uri = item["uri"]?.string, let text = item["text"]?.string else { return nil }
            documents[uri] = TextDocument(uri: uri, version: item["version"]?.int ?? 0, text: text)
            publishDiagnostics(uri)  // at once: nothing is being typed yet
        case "textDocument/didChange":
            guard initialized, let uri = params["textDocument"]?["uri"]?.string, var document = documents[uri] else { return nil }
            let version = params["textDocument"]?["version"]?.int ?? document.version + 1
            for change in params["contentChanges"]?.array ?? [] {
                guard let text = change["text"]?.string else { continue }
                if let range = change["range"], let start = Position(range["start"]), let end = Position(range["end"]) {
                    document.apply(range: (start, end), text: text, version: version)
                } else {
                    document.apply(range: nil, text: text, version: version)
                }
            }
            documents[uri] = document
            due[uri] = Self.milliseconds() + options.debounceMilliseconds
        case "textDocument/didClose":
            guard let uri = params["textDocument"]?["uri"]?.string else { return nil }
            documents[uri] = nil
            due[uri] = nil
            navigation[uri] = nil
            lastGoodNavigation[uri] = nil
            connection.send(["jsonrpc": "2.0", "method": "textDocument/publishDiagnostics", "params": ["uri": .string(uri), "diagnostics": []]])
        default:
            break  // initialized, didSave, $/cancelRequest, configuration: nothing to do
        }
        return nil
    }

    private func request(_ method: String, _ params: JSONValue) throws -> JSONValue {
        if method == "initialize" {
            initialized = true
            return Self.capabilities
        }
        guard initialized else { throw Failure.error(code: -32002, message: "the server is not initialized yet") }
        if shutDown { throw Failure.error(code: -32600, message: "the server is shutting down") }
        switch method {
        case "shutdown":
            shutDown = true
            return .null
        case "textDocument/definition": return try definition(params)
        case "textDocument/references": return try references(params)
        case "textDocument/hover": return try hover(params)
        case "textDocument/completion": return try completion(params)
        case "textDocument/prepareRename": return try prepareRename(params)
        case "textDocument/rename": return try rename(params)
        case "textDocument/codeAction": return try codeActions(params)
        case "textDocument/documentSymbol": return try documentSymbols(params)
        case "textDocument/codeLens": return try codeLenses(params)
        case "workspace/executeCommand": return try executeCommand(params)
        default:
            throw Failure.error(code: -32601, message: "this language server does not answer \(method)")
        }
    }

    static let capabilities: JSONValue = [
        "capabilities": [
            "positionEncoding": "utf-16",
            "textDocumentSync": ["openClose": true, "change": 2],
            "definitionProvider": true,
            "referencesProvider": true,
            "hoverProvider": true,
            "completionProvider": ["triggerCharacters": ["\""]],
            "renameProvider": ["prepareProvider": true],
            "codeActionProvider": ["codeActionKinds": ["quickfix", "source.fixAll"]],
            "documentSymbolProvider": true,
            "codeLensProvider": ["resolveProvider": false],
            "executeCommandProvider": ["commands": [.string(LanguageServer.previewCommand)]],
        ],
        "serverInfo": ["name": "ChooseYourDestiny"],
    ]

    // MARK: Diagnostics

    private func publishDiagnostics(_ uri: String) {
        due[uri] = nil
        guard let document = documents[uri] else { return }
        let location = Self.location(of: uri)
        let reports: [FileReport]
        let options = Validation.Options(check: CheckOptions(pointers: false))
        if case .translation = Validation.Kind(fileName: location.fileName) {
            // Against the story two folders up: the open story.json's text when the editor has
            // it, else the file on disk; and the folder's LINGUAS.
            var story: [UInt8]?
            var listed: Set<String>?
            if let translations = location.folder?.root {
                let storyFile = translations.deletingLastPathComponent().appendingPathComponent("story.json")
                story = documents[storyFile.absoluteString]?.bytes ?? documents["file://" + storyFile.path]?.bytes
                    ?? (try? LocalFile.read(storyFile.path, limit: 256 << 20))
                listed = TranslationFolder(storyFolder: translations.deletingLastPathComponent().path).listed
            }
            reports = Validation.check(bytes: document.bytes, path: location.fileName, story: story, listed: listed, options: options)
        } else {
            reports = Validation.check(bytes: document.bytes, path: location.fileName, folder: location.folder, options: options)
        }
        let diagnostics = (reports.first?.diagnostics ?? []).map { lsp($0, in: document) }
        connection.send([
            "jsonrpc": "2.0", "method": "textDocument/publishDiagnostics",
            "params": ["uri": .string(uri), "version": JSONValue(document.version), "diagnostics": .array(diagnostics)],
        ])
    }

    private func lsp(_ diagnostic: Diagnostic, in document: TextDocument) -> JSONValue {
        let severity = switch diagnostic.severity {
        case .error: 1
        case .warning: 2
        case .note: 3
        }
        let clamp = { (offset: Int) in max(0, min(offset, document.bytes.count)) }
        let range = clamp(diagnostic.range.lowerBound)..<max(clamp(diagnostic.range.lowerBound), clamp(diagnostic.range.upperBound))
        var message = diagnostic.message
        if let help = diagnostic.help { message += "\nhelp: " + help }
        var value: [(String, JSONValue)] = [
            ("range", document.range(range)),
            ("severity", JSONValue(severity)),
            ("code", .string(diagnostic.code.rawValue)),
            ("codeDescription", ["href": .string(Self.rulesURL)]),
            ("source", "cyd"),
            ("message", .string(message)),
        ]
        if !diagnostic.related.isEmpty {
            value.append(("relatedInformation", .array(diagnostic.related.map { related in
                ["location": ["uri": .string(document.uri), "range": document.range(clamp(related.range.lowerBound)..<max(clamp(related.range.lowerBound), clamp(related.range.upperBound)))],
                 "message": .string(related.message)]
            })))
        }
        return .object(value)
    }

    /// The file name a URI ends in (it decides story or authors) and, for a file on disk, its
    /// folder (pictures are looked for there).
    static func location(of uri: String) -> (fileName: String, folder: StoryFolder?) {
        guard let url = URL(string: uri), url.isFileURL else {
            let last = uri.split(separator: "/").last.map(String.init) ?? "story.json"
            return (last.hasSuffix(".json") ? last : "story.json", nil)
        }
        let folder = url.deletingLastPathComponent()
        let isFolder = FileStatus(folder.path)?.isDirectory ?? false
        return (url.lastPathComponent, isFolder ? StoryFolder(root: folder) : nil)
    }

    // MARK: Navigation

    private func document(_ params: JSONValue) throws -> TextDocument {
        guard let uri = params["textDocument"]?["uri"]?.string else { throw Failure.invalidParams("textDocument.uri is missing") }
        guard let document = documents[uri] else { throw Failure.invalidParams("\(uri) is not open") }
        return document
    }

    private func navigation(for document: TextDocument) -> StoryNavigation? {
        if let cached = navigation[document.uri], cached.version == document.version { return cached.value }
        let value = StoryNavigation(bytes: document.bytes, fileName: Self.location(of: document.uri).fileName)
        navigation[document.uri] = (document.version, value)
        if let value { lastGoodNavigation[document.uri] = value }
        return value
    }

    /// The document, its navigation and the chapter id under the request's position.
    private func site(_ params: JSONValue) throws -> (TextDocument, StoryNavigation, StoryNavigation.Site)? {
        let document = try document(params)
        guard let position = Position(params["position"]) else { throw Failure.invalidParams("position is missing") }
        guard let navigation = navigation(for: document) else { return nil }
        guard let site = navigation.site(at: document.offset(of: position)) else { return nil }
        return (document, navigation, site)
    }

    private func location(_ node: Int, _ navigation: StoryNavigation, _ document: TextDocument) -> JSONValue {
        ["uri": .string(document.uri), "range": document.range(navigation.document.range(node))]
    }

    private func definition(_ params: JSONValue) throws -> JSONValue {
        guard let (document, navigation, site) = try site(params) else { return .null }
        let targets = navigation.declarations(of: site.id)
        return targets.isEmpty ? .null : .array(targets.map { location($0, navigation, document) })
    }

    private func references(_ params: JSONValue) throws -> JSONValue {
        guard let (document, navigation, site) = try site(params) else { return .null }
        var nodes = navigation.uses(of: site.id)
        if params["context"]?["includeDeclaration"]?.bool ?? false { nodes = navigation.declarations(of: site.id) + nodes }
        return .array(nodes.map { location($0, navigation, document) })
    }

    private func hover(_ params: JSONValue) throws -> JSONValue {
        guard let (document, navigation, site) = try site(params) else { return .null }
        var text: String
        if let chapter = navigation.chapter(withID: site.id) {
            text = "**\(Self.markdownEscaped(navigation.name(of: chapter) ?? site.id))** (chapter `\(Self.codeSpan(site.id))`)"
            if let line = navigation.firstLine(of: chapter) { text += "\n\n" + Self.markdownEscaped(line) }
            let uses = navigation.uses(of: site.id).count
            text += "\n\n\(uses == 1 ? "1 choice leads" : "\(uses) choices lead") here"
        } else {
            text = "No chapter has the id `\(Self.codeSpan(site.id))`."
        }
        return ["contents": ["kind": "markdown", "value": .string(text)], "range": document.range(navigation.document.range(site.node))]
    }

    static func markdownEscaped(_ text: String) -> String { MarkdownText.escaped(text) }

    static func codeSpan(_ text: String) -> String { String(VisibleText.escape(text).map { $0 == "`" ? "'" : $0 }) }

    private func completion(_ params: JSONValue) throws -> JSONValue {
        let document = try document(params)
        guard let position = Position(params["position"]) else { throw Failure.invalidParams("position is missing") }
        let offset = document.offset(of: position)
        guard let valueStart = chapterIDValueStart(in: document.bytes, at: offset) else { return ["isIncomplete": false, "items": []] }
        _ = navigation(for: document)
        guard let navigation = lastGoodNavigation[document.uri] else { return ["isIncomplete": false, "items": []] }
        let replaced = document.range(valueStart..<offset)
        var seen = Set<String>()
        var items: [JSONValue] = []
        for chapter in navigation.syntax.chapters {
            guard let id = chapter.id?.value, !id.isEmpty, seen.insert(id).inserted else { continue }
            // The id as it must be written inside the quotes.
            let written = String(JSONQuoting.quoted(id).dropFirst().dropLast())
            var item: [(String, JSONValue)] = [
                ("label", .string(id)), ("kind", 18), ("filterText", .string(written)),
                ("textEdit", ["range": replaced, "newText": .string(written)]),
            ]
            if let name = navigation.name(of: chapter) { item.append(("detail", .string(name))) }
            items.append(.object(item))
        }
        return ["isIncomplete": false, "items": .array(items)]
    }

    private func prepareRename(_ params: JSONValue) throws -> JSONValue {
        guard let (document, navigation, site) = try site(params) else { return .null }
        return ["range": document.range(navigation.document.contentRange(site.node)), "placeholder": .string(site.id)]
    }

    private func rename(_ params: JSONValue) throws -> JSONValue {
        guard let newName = params["newName"]?.string else { throw Failure.invalidParams("newName is missing") }
        guard let (document, navigation, site) = try site(params) else {
            throw Failure.error(code: -32803, message: "rename works on a chapter's id or a choice's chapter_id")
        }
        if newName.isEmpty || newName.unicodeScalars.contains(where: { VisibleText.isUnsafe($0) }) {
            throw Failure.error(code: -32803, message: "a chapter id cannot be empty or hold control characters")
        }
        if newName != site.id, navigation.chapter(withID: newName) != nil {
            throw Failure.error(code: -32803, message: "a chapter with the id '\(VisibleText.escape(newName))' already exists")
        }
        let quoted = JSONQuoting.quoted(newName)
        let edits = (navigation.declarations(of: site.id) + navigation.uses(of: site.id)).map { node -> JSONValue in
            ["range": document.range(navigation.document.range(node)), "newText": .string(quoted)]
        }
        return ["changes": .object([(document.uri, .array(edits))])]
    }

    private func codeActions(_ params: JSONValue) throws -> JSONValue {
        let document = try document(params)
        guard let start = Position(params["range"]?["start"]), let end = Position(params["range"]?["end"]) else {
            throw Failure.invalidParams("range is missing")
        }
        let requested = document.offset(of: start)...max(document.offset(of: start), document.offset(of: end))
        let fileName = Self.location(of: document.uri).fileName
        let contextDiagnostics = params["context"]?["diagnostics"]?.array ?? []
        func diagnostics(_ code: String, near range: Range<Int>) -> JSONValue {
            .array(contextDiagnostics.filter { diagnostic in
                guard diagnostic["code"]?.string == code, let s = Position(diagnostic["range"]?["start"]), let e = Position(diagnostic["range"]?["end"]) else { return false }
                return document.offset(of: s) <= range.upperBound && range.lowerBound <= document.offset(of: e)
            })
        }
        func edit(_ edits: [(Range<Int>, String)]) -> JSONValue {
            ["changes": .object([(document.uri, .array(edits.map { ["range": document.range($0.0), "newText": .string($0.1)] }))])]
        }
        var actions: [JSONValue] = []
        let fixes = Fixes.edits(for: SourceBytes(document.bytes), path: fileName).edits
        for fix in fixes where fix.range.lowerBound <= requested.upperBound && requested.lowerBound <= fix.range.upperBound {
            let what = Fixes.descriptions[fix.code] ?? "repairs it"
            actions.append([
                "title": .string("\(fix.code.rawValue): \(what)"), "kind": "quickfix",
                "diagnostics": diagnostics(fix.code.rawValue, near: fix.range),
                "edit": edit([(fix.range, String(decoding: fix.replacement, as: UTF8.self))]),
            ])
        }
        if let navigation = navigation(for: document), let site = navigation.site(at: requested.lowerBound),
            site.declaration == nil, navigation.chapter(withID: site.id) == nil,
            let insertion = navigation.newChapterInsertion(id: site.id)
        {
            actions.append([
                "title": .string("Create chapter '\(VisibleText.escape(site.id))'"), "kind": "quickfix",
                "diagnostics": diagnostics(DiagnosticCode("CYD302").rawValue, near: navigation.document.range(site.node)),
                "edit": edit([(insertion.offset..<insertion.offset, insertion.text)]),
            ])
        }
        if fixes.count > 1 {
            actions.append([
                "title": .string("Fix all \(fixes.count) mechanical problems"), "kind": "source.fixAll",
                "edit": edit(fixes.map { ($0.range, String(decoding: $0.replacement, as: UTF8.self)) }),
            ])
        }
        return .array(actions)
    }

    private func documentSymbols(_ params: JSONValue) throws -> JSONValue {
        let document = try document(params)
        guard let navigation = navigation(for: document) else { return [] }
        return .array(navigation.syntax.chapters.map { chapter in
            let name = navigation.name(of: chapter).flatMap { $0.allSatisfy(\.isWhitespace) ? nil : $0 }
            let id = chapter.id?.value
            var symbol: [(String, JSONValue)] = [
                ("name", .string(VisibleText.escape(name ?? id ?? "chapter \(chapter.ordinal + 1)"))),
                ("kind", 19),
                ("range", document.range(navigation.document.range(chapter.node))),
                ("selectionRange", document.range(navigation.document.range(chapter.id?.node ?? chapter.node))),
            ]
            if let id { symbol.append(("detail", .string(VisibleText.escape(id)))) }
            return .object(symbol)
        })
    }

    // MARK: The live preview

    /// The command a "Preview this chapter" lens runs: (story folder, chapter id).
    static let previewCommand = "cyd.previewChapter"

    /// Above each chapter of a story.json in a folder: "Preview this chapter", which moves a
    /// running preview of that folder to the chapter.
    private func codeLenses(_ params: JSONValue) throws -> JSONValue {
        let document = try document(params)
        guard let folder = Self.location(of: document.uri).folder?.root.path, let navigation = navigation(for: document) else { return [] }
        return .array(navigation.syntax.chapters.compactMap { chapter -> JSONValue? in
            guard let id = chapter.id else { return nil }
            return [
                "range": document.range(navigation.document.range(id.node)),
                "command": ["title": "Preview this chapter", "command": .string(Self.previewCommand), "arguments": [.string(folder), .string(id.value)]],
            ]
        })
    }

    /// Runs "Preview this chapter": leaves the request where the folder's preview looks for it
    /// (`PreviewRendezvous`); says so when no preview of that folder runs.
    private func executeCommand(_ params: JSONValue) throws -> JSONValue {
        guard params["command"]?.string == Self.previewCommand, case .array(let arguments)? = params["arguments"], arguments.count == 2,
            let folder = arguments[0].string, let chapter = arguments[1].string
        else { throw Failure.invalidParams("unknown command, or not (folder, chapter id)") }
        guard let rendezvous = PreviewRendezvous(storyFolder: folder, environment: ProcessInfo.processInfo.environment) else {
            throw Failure.invalidParams("no folder \(folder)")
        }
        if rendezvous.port() == nil { showMessage("No live preview of this story is running: start one in its folder, then ask again.") }
        do { try rendezvous.ask(chapter: chapter) } catch { throw Failure.error(code: -32603, message: "cannot reach the preview: \(error)") }
        return .null
    }

    private func logMessage(_ text: String) {
        connection.send(["jsonrpc": "2.0", "method": "window/logMessage", "params": ["type": 1, "message": .string(text)]])
    }

    private func showMessage(_ text: String) {
        connection.send(["jsonrpc": "2.0", "method": "window/showMessage", "params": ["type": 1, "message": .string(text)]])
    }
}
