import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Dispatch
#if canImport(Glibc)
import Glibc
#endif
import LocalFiles
import StoryFormat
import StorySources
import StoryStore
import StorySync
import StoryWeb
import TerminalUI

struct CatalogueCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "catalogue",
        abstract: "Work with the synced catalogue as a catalogue keeper: publish it, sign it, watch its health.",
        subcommands: [Publish.self, Status.self, Keygen.self])

    struct Publish: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Write the synced catalogue as static files for readers to sync from.",
            discussion: """
                Run after `cyd sync`; serve DIR over https (GitHub Pages, any static host). DIR gets \
                catalogue.json (the root: name, version, expiry, and each shard's SHA-256), \
                shards/XX.json (the stories, by the first byte of the SHA-256 of the author's name), \
                index.json (every story in one file, for older readers), report.html (the keeper's \
                health report) and badges/AUTHOR/REPOSITORY.svg. Each entry pins the commit the keeper \
                checked and the SHA-256 of its story.json and pictures: readers get exactly that. A story \
                whose newer commits are broken keeps its last good version, marked broken. With --sign, \
                catalogue.sig is the root with its signify signature embedded and catalogue.pub the \
                public key; readers run `cyd sync --catalogue https://…/catalogue.sig --trust catalogue.pub`. \
                Files are written whole and renamed into place; unchanged shards are left untouched.
                """)

        @Argument(help: "The folder to publish into (made if missing).")
        var folder: String

        @Option(help: ArgumentHelp("Sign with this secret key (from `cyd catalogue keygen`, or `signify -G -n`).", valueName: "key.sec"))
        var sign: String?

        @Option(help: ArgumentHelp(
            "Hand over from this old secret key to the one given with --sign: catalogue.handover (the new public key, signed by the old one) lets readers who trust the old key follow once.",
            valueName: "old.sec"))
        var handoverFrom: String?

        @Option(help: "The catalogue's name, shown to readers and in the report.")
        var name = "catalogue"

        @Option(help: ArgumentHelp("How long readers may use what is published: seconds, or a number with s, m, h or d.", valueName: "age"))
        var expires = "7d"

        @Flag(help: "Print what changed as one JSON object.")
        var json = false

        @OptionGroup var library: LibraryOptions

        func validate() throws {
            guard let seconds = Sync.seconds(expires), seconds >= 60 else { throw ValidationError("--expires takes at least a minute: seconds, or a number with s, m, h or d, like 7d") }
        }

        func run() throws {
            let library = try library.open()
            var options = PublishOptions()
            options.name = name
            options.expiresAfter = Sync.seconds(expires) ?? options.expiresAfter
            func secretKey(_ path: String) throws -> Signify.SecretKey {
                let bytes: [UInt8]
                do { bytes = try LocalFile.read(path, limit: 4096) } catch { throw CLIError("cannot read the secret key \(VisibleText.escape(path)): \(VisibleText.escape(String(describing: error)))") }
                do { return try Signify.secretKey(bytes) } catch {
                    throw CLIError("\(VisibleText.escape(path)) is not a usable secret key: \(VisibleText.escape(SyncWords.trust(.signature(error)))) (make one with `cyd catalogue keygen`, or `signify -G -n`)")
                }
            }
            if let sign { options.key = try secretKey(sign) }
            if let handoverFrom {
                guard options.key != nil else { throw CLIError("--handover-from hands over to the key given with --sign; give both") }
                options.handoverFrom = try secretKey(handoverFrom)
            }
            let result: PublishResult
            do {
                result = try CatalogueRoot.publish(library, to: folder, options: options)
                try writeReport(result, name: name, now: options.now)
            } catch let error as SyncError {
                throw CLIError(VisibleText.escape(error.description))
            }
            if json {
                Terminal.standardOutput.write(Self.json(result).encoded + "\n")
                return
            }
            let out = Terminal.standardOutput
            let root = FileWriter.joined(folder, CatalogueRoot.rootFile)
            out.write("published \(plural(result.stories, "story", "stories")) of \(plural(result.authors, "author")) to \(VisibleText.escape(folder)): ")
            out.write("version \(result.version), \(plural(result.shards, "shard")) (\(result.shardsWritten) changed), root \(result.rootBytes) bytes")
            out.write(result.keyFingerprint.map { ", signed by key \($0)" } ?? ", not signed")
            out.write("; expires \(SyncWords.date(result.expiresAt))\n")
            if let old = result.handedOverFrom, let new = result.keyFingerprint {
                out.write("  handed over from key \(old) to key \(new) (\(CatalogueRoot.handoverFile), signed by the old key): readers who trust \(old) follow once; keep publishing it until they have\n")
            }
            out.write("  " + Self.counts(result) + "\n")
            for item in result.items where item.change == .removed || item.change == .broken || item.change == .unreachable || item.change == .failed {
                TextLayout.write("  \(item.change.rawValue) \(VisibleText.escape(item.id)): \(VisibleText.escape(item.detail ?? ""))", to: out, indent: "      ")
            }
            out.write("  readers: cyd sync --catalogue URL/\(result.keyFingerprint == nil ? CatalogueRoot.rootFile : CatalogueRoot.signedRootFile); report: \(VisibleText.escape(FileWriter.joined(folder, "report.html"))) (\(VisibleText.escape(root)))\n")
        }

        static func counts(_ result: PublishResult) -> String {
            let kinds: [(SyncReport.Change, String)] = [
                (.new, "new"), (.updated, "updated"), (.unchanged, "unchanged"), (.broken, "broken (kept at last good)"),
                (.unreachable, "unreachable (marked, at the version last checked)"), (.removed, "removed"), (.failed, "failed (not published)"),
            ]
            return kinds.map { "\(result.count($0.0)) \($0.1)" }.joined(separator: ", ")
        }

        static func json(_ result: PublishResult) -> JSONValue {
            let kinds: [SyncReport.Change] = [.new, .updated, .unchanged, .broken, .unreachable, .removed, .failed]
            return .object([
                "version": .number(Double(result.version)), "expiresAt": .number(result.expiresAt), "stories": .number(Double(result.stories)),
                "authors": .number(Double(result.authors)), "shards": .number(Double(result.shards)), "shardsWritten": .number(Double(result.shardsWritten)),
                "rootBytes": .number(Double(result.rootBytes)), "indexBytes": .number(Double(result.indexBytes)),
                "key": result.keyFingerprint.map { .string($0) } ?? .null,
                "counts": .object(Dictionary(uniqueKeysWithValues: kinds.map { ($0.rawValue, JSONValue.number(Double(result.count($0)))) })),
                "storiesChanged": .array(result.items.filter { $0.change != .unchanged }.map {
                    .object(["id": .string($0.id), "change": .string($0.change.rawValue), "detail": $0.detail.map { .string($0) } ?? .null])
                }),
            ])
        }

        /// report.html, and a badge per story (StorySync's `CatalogueBadges` writes them).
        func writeReport(_ result: PublishResult, name: String, now: Double) throws {
            let rows = result.status.map(StatusWords.row)
            // What readers verify: the root's version, its expiry and the key that signed it.
            let root = "Root version \(result.version), expires \(SyncWords.date(result.expiresAt)), " + (result.keyFingerprint.map { "signed by key \($0)." } ?? "not signed.")
            let page = CatalogueReport.page(
                name: name, summary: "\(plural(result.stories, "story", "stories")) published; " + Self.counts(result) + ". " + root, generated: SyncWords.date(now), rows: rows)
            try CatalogueRoot.write(Array(page.utf8), to: FileWriter.joined(folder, "report.html"))
            var tones: [String: CatalogueReport.Tone] = [:]
            let badges = zip(result.status, rows).map { status, row in
                let message = StatusWords.badge(status.state)
                tones[message] = row.tone
                return (id: status.id, message: message)
            }
            try CatalogueBadges.write(badges, draw: { Array(CatalogueReport.badge(message: $0, tone: tones[$0] ?? .neutral).utf8) }, into: FileWriter.joined(folder, "badges"))
        }
    }

    struct Status: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Show the health of every story in the synced catalogue.",
            discussion: "Per story: its state (valid, warnings, broken since, unreachable since, failing, not checked), the version readers get (the last good commit), its findings and when it last changed. Exit 1 when any story is broken, unreachable or failing.")

        @Flag(help: "Print one JSON object.")
        var json = false

        @OptionGroup var library: LibraryOptions

        func run() throws {
            let library = try library.open()
            let status = CatalogueStatus.of(try library.catalogue())
            let troubled = status.filter { switch $0.state { case .broken, .unreachable, .failing: true; default: false } }
            if json {
                // The states by the words the text uses, and totals that add up to "stories".
                var totals: [String: JSONValue] = ["stories": .number(Double(status.count)), "good": .number(Double(status.count - troubled.count))]
                for state in ["valid", "warnings", "broken", "unreachable", "failing", "unchecked"] { totals[state] = .number(0) }
                for entry in status {
                    if case .string(let state)? = StatusWords.json(entry)["state"], case .number(let count)? = totals[state] { totals[state] = .number(count + 1) }
                }
                Terminal.standardOutput.write(JSONValue.object(["stories": .array(status.map(StatusWords.json)), "totals": .object(totals)]).encoded + "\n")
            } else if status.isEmpty {
                Terminal.standardOutput.write("the catalogue is empty; `cyd sync` fills it\n")
            } else {
                let out = Terminal.standardOutput
                let rows = status.map { (id: VisibleText.escape($0.id), row: StatusWords.row($0)) }
                // Columns aligned: the id, then the state, each padded to the widest.
                let idWidth = rows.map(\.id.count).max() ?? 0
                let stateWidth = rows.map(\.row.state.count).max() ?? 0
                for (id, row) in rows {
                    var line = id.padding(toLength: idWidth, withPad: " ", startingAt: 0) + "  " + row.state
                    if !row.commit.isEmpty || !row.findings.isEmpty || !row.changed.isEmpty {
                        line += String(repeating: " ", count: stateWidth - row.state.count)
                    }
                    if !row.commit.isEmpty { line += "  at \(row.commit)" }
                    if !row.findings.isEmpty { line += "  \(row.findings)" }
                    if !row.changed.isEmpty { line += "  changed \(row.changed)" }
                    TextLayout.write(line, to: out, indent: "    ")
                    if !row.detail.isEmpty { TextLayout.write("    \(VisibleText.escape(row.detail))", to: out, indent: "      ") }
                }
                out.write("\(plural(status.count, "story", "stories")): \(status.count - troubled.count) good, \(troubled.count) broken, unreachable or failing\n")
            }
            if !troubled.isEmpty { throw Exit.problemsFound }
        }
    }

    struct Keygen: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Make a key pair for signing a published catalogue (Ed25519, in signify's format).",
            discussion: "Writes NAME.sec (the secret key, readable only by you, without a passphrase: keep it in your CI's secrets) and NAME.pub (give it to readers, and publish it beside the catalogue). `signify -V -e -p NAME.pub -x catalogue.sig -m root.json` verifies what `cyd catalogue publish --sign NAME.sec` signs. Never overwrites a key.")

        @Argument(help: "The key files' name, without .sec/.pub.")
        var name: String

        func run() throws {
            let (secretPath, publicPath) = (name + ".sec", name + ".pub")
            for path in [secretPath, publicPath] where FileStatus(path) != nil {
                throw CLIError("\(VisibleText.escape(path)) exists; a key is never overwritten (choose another name)")
            }
            do {
                let key = try Signify.generate()
                let comment = "cyd catalogue key \(key.publicKey.fingerprint)"
                try AtomicFile.write(try Signify.secretKeyFile(key, comment: "\(comment) secret key"), to: secretPath, mode: 0o600)
                try AtomicFile.write(key.publicKey.file(comment: "\(comment) public key"), to: publicPath)
                Terminal.standardOutput.write("wrote \(VisibleText.escape(secretPath)) (secret: keep it out of the repository) and \(VisibleText.escape(publicPath)); key \(key.publicKey.fingerprint)\n")
            } catch let error as Signify.Failure {
                throw CLIError("cannot make a key: \(VisibleText.escape(SyncWords.trust(.signature(error))))")
            } catch {
                throw CLIError("cannot write the key: \(VisibleText.escape(Words.of(error)))")
            }
        }
    }
}

/// The keeper's states in words (the status command, the report, the badges).
enum StatusWords {
    static func row(_ status: CatalogueStatus) -> CatalogueReport.Row {
        let (state, tone, detail): (String, CatalogueReport.Tone, String) = switch status.state {
        case .ok: ("valid", .good, "")
        case .warnings(let count): (plural(count, "warning"), .warning, "")
        case .broken(let since, let reason): ("broken since \(SyncWords.date(since))", .bad, "the last good version is offered; " + reason)
        case .unreachable(let since, let reason): ("unreachable since \(SyncWords.date(since))", .bad, "the last good version is offered; " + reason)
        case .failing(let since, let reason): ("failing" + (since.map { " since \(SyncWords.date($0))" } ?? ""), .bad, "not offered; " + reason)
        case .unchecked: ("not checked yet", .neutral, "")
        }
        var findings = ""
        if let errors = status.errors, let warnings = status.warnings { findings = "\(plural(errors, "error")), \(plural(warnings, "warning"))" }
        return CatalogueReport.Row(
            id: status.id, url: status.url, title: status.title ?? "", state: state, tone: tone, detail: detail,
            commit: String((status.lastGoodCommit ?? "").prefix(12)), findings: findings, changed: status.changedAt.map(SyncWords.date) ?? "")
    }

    static func badge(_ state: CatalogueStatus.State) -> String {
        switch state {
        case .ok: "valid"
        case .warnings(let count): plural(count, "warning")
        case .broken, .failing: "broken"
        case .unreachable: "unreachable"
        case .unchecked: "not checked"
        }
    }

    static func json(_ status: CatalogueStatus) -> JSONValue {
        var state: String
        var since: Double?
        var reason: String?
        switch status.state {
        case .ok: state = "valid"
        case .warnings: state = "warnings"
        case .broken(let at, let why): (state, since, reason) = ("broken", at, why)
        case .unreachable(let at, let why): (state, since, reason) = ("unreachable", at, why)
        case .failing(let at, let why): (state, since, reason) = ("failing", at, why)
        case .unchecked: state = "unchecked"
        }
        return .object([
            "id": .string(status.id), "url": .string(status.url), "title": status.title.map { .string($0) } ?? .null, "state": .string(state),
            "since": since.map { .number($0.rounded()) } ?? .null, "reason": reason.map { .string($0) } ?? .null,
            "lastGoodCommit": status.lastGoodCommit.map { .string($0) } ?? .null,
            "errors": status.errors.map { .number(Double($0)) } ?? .null, "warnings": status.warnings.map { .number(Double($0)) } ?? .null,
            "changedAt": status.changedAt.map { .number($0.rounded()) } ?? .null, "checkedAt": status.checkedAt.map { .number($0.rounded()) } ?? .null,
        ])
    }
}
