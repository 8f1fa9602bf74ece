#if canImport(FoundationEssentials)
import FoundationEssentials
#endif
import Foundation
import LocalFiles
import StoryFormat
import StorySync
import StoryWeb

/// The catalogue's words: what `cyd sync` and `cyd catalogue publish` say, in text and JSON.
public enum CatalogueWords {
    /// What `cyd catalogue keygen` says of the pair it wrote, or why it wrote none.
    public static func keyPair(_ outcome: Result<Signify.PublicKey, Signify.KeyPairFailure>, name: String) -> String {
        switch outcome {
        case .success(let key):
            "wrote \(VisibleText.escape(name)).sec (secret: keep it out of the repository) and \(VisibleText.escape(name)).pub; key \(key.fingerprint)"
        case .failure(.exists(let path)): "\(VisibleText.escape(path)) exists; a key is never overwritten (choose another name)"
        case .failure(.signify(let error)): "cannot make a key: \(VisibleText.escape(SyncWords.trust(.signature(error))))"
        case .failure(.cannotWrite(let path, let error)): "cannot write the key: \(VisibleText.escape(path)): \(VisibleText.escape(String(describing: error)))"
        }
    }

    /// A signify key named on the command line (`secret`: a secret key file; else a public key
    /// file or its base64 line) that cannot be read.
    public static func unreadableKey(_ given: String, secret: Bool, _ error: any Error) -> String {
        "cannot read the \(secret ? "secret key" : "key") \(VisibleText.escape(given)): \(VisibleText.escape(String(describing: error)))"
    }

    /// A signify key named on the command line that is not one, and where to get one.
    public static func unusableKey(_ given: String, secret: Bool, _ error: Signify.Failure) -> String {
        let why = VisibleText.escape(SyncWords.trust(.signature(error)))
        return secret
            ? "\(VisibleText.escape(given)) is not a usable secret key: \(why) (make one with `cyd catalogue keygen`, or `signify -G -n`)"
            : "\(VisibleText.escape(given)) is not a public key: \(why) (give a .pub file from `cyd catalogue keygen` or signify)"
    }

    /// Why a sync could not start, a line at a time (`cyd: ` first), and whether it is the
    /// catalogue's own problems (exit 1) rather than a failure to read or trust it (exit 2).
    public static func syncFailure(_ error: SyncError) -> (lines: [String], problems: Bool) {
        switch error {
        case .invalidCatalogue(let file, let findings), .invalidIndex(let file, let findings):
            // One line for the file, one for each finding: each escaped on its own, so the
            // line breaks are ours and none comes from the file.
            let isIndex = if case .invalidIndex = error { true } else { false }
            let what = isIndex
                ? "is not a usable catalogue index (write it with `cyd catalogue publish`)"
                : "is not a usable authors.json (it should look like { \"authors\": [ { \"name\": \"alice\" } ] })"
            return (["cyd: \(VisibleText.escape(file)) \(what)"] + findings.map { "  \(VisibleText.escape($0.description))" }, true)
        case .untrusted(_, let failure):
            let hint = switch failure {
            case .noKey: " (pass --trust with the keeper's public key, a .pub file)"
            case .keyChanged: "; if the keeper really changed keys, run again with --trust NEW.pub --replace-key"
            case .signature(.wrongKey):
                "; if the keeper changed keys, their catalogue carries a handover signed by the old key (`cyd catalogue publish --sign NEW.sec --handover-from OLD.sec`) and cyd follows it; without one, get the new key from the keeper and run again with --trust NEW.pub --replace-key"
            case .notSigned: "; name the catalogue's catalogue.sig"
            default: ""
            }
            return (["cyd: \(VisibleText.escape(error.description))\(hint)"], false)
        case .missing(let path):
            return ([
                "cyd: cannot read the catalogue \(VisibleText.escape(path)): no such file (give --catalogue a path to authors.json or index.json, "
                    + "a folder holding one, an https URL of one, or a git repository)"
            ], false)
        default:
            return (["cyd: \(VisibleText.escape(error.description))"], false)
        }
    }

    /// What a sync says of the keys it now trusts: a handover followed, a key trusted on first use.
    public static func trustNotes(_ report: SyncReport) -> [String] {
        var lines: [String] = []
        if let handover = report.handedOver {
            lines.append("cyd: the keeper handed over from key \(handover.from) to key \(handover.to) (a handover signed by \(handover.from)); trusting \(handover.to) from now on")
        }
        if let key = report.trustedOnFirstUse {
            lines.append("cyd: trusting the catalogue's key \(key) from now on (first use); compare it with the one its keeper publishes, or pass --trust")
        }
        return lines
    }

    /// What `cyd catalogue publish` says it published into `folder` (`root` the root file's path).
    public static func published(_ result: PublishResult, folder: String, root: String, report: String) -> [PrintedLine] {
        var head = "published \(plural(result.stories, "story", "stories")) of \(plural(result.authors, "author")) to \(VisibleText.escape(folder)): "
        head += "version \(result.version), \(plural(result.shards, "shard")) (\(result.shardsWritten) changed), root \(result.rootBytes) bytes"
        head += result.keyFingerprint.map { ", signed by key \($0)" } ?? ", not signed"
        head += "; expires \(SyncWords.date(result.expiresAt))"
        var lines = [PrintedLine(head, indent: nil)]
        if let old = result.handedOverFrom, let new = result.keyFingerprint {
            lines.append(PrintedLine("  handed over from key \(old) to key \(new) (\(CatalogueRoot.handoverFile), signed by the old key): readers who trust \(old) follow once; keep publishing it until they have", indent: nil))
        }
        lines.append(PrintedLine("  " + counts(result), indent: nil))
        for item in result.items where item.change == .removed || item.change == .broken || item.change == .unreachable || item.change == .failed {
            lines.append(PrintedLine("  \(item.change.rawValue) \(VisibleText.escape(item.id)): \(VisibleText.escape(item.detail ?? ""))", indent: "      "))
        }
        lines.append(PrintedLine("  readers: cyd sync --catalogue URL/\(result.keyFingerprint == nil ? CatalogueRoot.rootFile : CatalogueRoot.signedRootFile); report: \(VisibleText.escape(report)) (\(VisibleText.escape(root)))", indent: nil))
        return lines
    }

    /// The keeper's report page (report.html) of what was published; `rows` are its stories'
    /// (`StatusWords.row` of each status, made once for the page and the badges).
    public static func reportPage(_ result: PublishResult, rows: [CatalogueReport.Row], name: String, now: Double) -> String {
        // What readers verify: the root's version, its expiry and the key that signed it.
        let root = "Root version \(result.version), expires \(SyncWords.date(result.expiresAt)), " + (result.keyFingerprint.map { "signed by key \($0)." } ?? "not signed.")
        return CatalogueReport.page(
            name: name, summary: "\(plural(result.stories, "story", "stories")) published; " + counts(result) + ". " + root, generated: SyncWords.date(now),
            rows: rows)
    }

    /// Each story's badge: its id, its words, and the badge drawn for those words in the tone of
    /// its row.
    public static func badges(_ result: PublishResult, rows: [CatalogueReport.Row]) -> (badges: [(id: String, message: String)], draw: @Sendable (String) -> [UInt8]) {
        var tones: [String: CatalogueReport.Tone] = [:]
        let badges = zip(result.status, rows).map { status, row in
            let message = StatusWords.badge(status.state)
            tones[message] = row.tone
            return (id: status.id, message: message)
        }
        let drawn = tones
        return (badges, { Array(CatalogueReport.badge(message: $0, tone: drawn[$0] ?? .neutral).utf8) })
    }

    /// The text of a sync's report, a line at a time with the indent its continuations take when
    /// wrapped: warnings, the summary, what was verified, what is kept, unreachable and failed,
    /// and a rate limit met.
    public static func lines(_ report: SyncReport, seconds: Double, now: Double, hasToken: Bool) -> [PrintedLine] {
        var lines: [PrintedLine] = []
        func say(_ text: String, indent: String = "    ") { lines.append(PrintedLine(text, indent: indent)) }
        for warning in report.catalogueWarnings { say("warning: \(VisibleText.escape(warning.description))") }
        for item in report.items where item.warning != nil {
            say("warning: \(VisibleText.escape(item.id)): \(VisibleText.escape(item.detail ?? ""))")
        }
        say(summary(report, seconds: seconds))
        if let verification = report.verification { say(verified(verification)) }
        let broken = report.items.filter { $0.change == .broken }
        if !broken.isEmpty {
            say("Kept at their last good version:")
            for item in broken { say("  \(VisibleText.escape(item.id)): \(VisibleText.escape(item.detail ?? ""))", indent: "      ") }
        }
        let unreachable = report.items.filter { $0.change == .unreachable }
        if !unreachable.isEmpty {
            say("Unreachable (the keeper's last checks failed):")
            for item in unreachable { say("  \(VisibleText.escape(item.id)): \(VisibleText.escape(item.detail ?? ""))", indent: "      ") }
        }
        let failures = report.items.filter { $0.change == .failed }
        if !failures.isEmpty || !report.authorFailures.isEmpty {
            say("Failed:")
            for failure in report.authorFailures {
                say("  author \(VisibleText.escape(failure.author)): \(VisibleText.escape(SyncWords.author(failure.failure, name: failure.author)))", indent: "      ")
            }
            for failure in failures {
                say("  \(VisibleText.escape(failure.id))\(failure.url.isEmpty ? "" : " (\(VisibleText.escape(failure.url)))"): \(VisibleText.escape(Words.detail(failure) ?? "failed"))", indent: "      ")
            }
        }
        if let limit = report.rateLimited {
            var when = "later"
            if let reset = limit.reset {
                let minutes = max(1, Int((reset - now + 59) / 60))
                when = "in \(plural(minutes, "minute")) (\(clock(reset)) UTC)"
            }
            say("\(VisibleText.escape(limit.message))\nDiscovery stopped there; stories already known were still checked. Try again \(when)\(!hasToken ? ", or set GITHUB_TOKEN for a larger allowance" : "").", indent: "")
        }
        return lines
    }

    /// "Synced 12 repositories of 3 authors in 1.2 s: 2 new, 1 updated, 8 unchanged, 1 not a story, 0 failed; 1 author failed."
    public static func summary(_ report: SyncReport, seconds: Double) -> String {
        var parts = ["\(report.count(.new)) new", "\(report.count(.updated)) updated", "\(report.count(.unchanged)) unchanged"]
        if report.count(.recent) > 0 { parts.append("\(report.count(.recent)) checked recently (skipped)") }
        let notStories = report.count(.notStory)
        if notStories > 0 { parts.append(notStories == 1 ? "1 not a story" : "\(notStories) not stories") }
        // Removed and broken are said when there are any, each removal named.
        let removed = report.items.filter { $0.change == .removed }
        if !removed.isEmpty {
            parts.append("\(removed.count) removed (\(removed.prefix(5).map { VisibleText.escape($0.id) }.joined(separator: ", "))\(removed.count > 5 ? ", …" : ""))")
        }
        if report.count(.broken) > 0 { parts.append("\(report.count(.broken)) broken (kept at their last good version)") }
        if report.count(.unreachable) > 0 { parts.append("\(report.count(.unreachable)) unreachable (offered at the version last checked)") }
        parts.append("\(report.count(.failed)) failed")
        let authors = report.authors + report.authorFailures.count
        var line = "Synced \(plural(report.items.count - removed.count, "repository", "repositories")) of \(plural(authors, "author"))"
        if report.fromIndex { line += " from the index" }
        line += " in \(String(format: "%.1f", seconds)) s: \(parts.joined(separator: ", "))"
        if !report.authorFailures.isEmpty { line += "; \(plural(report.authorFailures.count, "author")) failed" }
        return line + "."
    }

    /// What was verified, in one sentence: "Signed by key 5e0c…, version 7, expires …".
    public static func verified(_ verification: SyncReport.Verification) -> String {
        switch verification {
        case .signed(let key, let version, let expiresAt):
            "Signed by key \(key), version \(version), expires \(SyncWords.date(expiresAt))."
        case .unsigned:
            "Unsigned: no key is trusted for this catalogue, so its content is taken as served (pass --trust KEEPER.pub where its keeper publishes one)."
        }
    }

    public static func json(_ report: SyncReport) -> JSONValue {
        let counts = [SyncReport.Change.new, .updated, .unchanged, .recent, .notStory, .failed, .broken, .removed, .unreachable].map { ($0.rawValue, JSONValue.number(Double(report.count($0)))) }
        return .object([
            "repositories": .array(report.items.map { item in
                .object([
                    "id": .string(item.id), "url": .string(item.url), "change": .string(item.change.rawValue),
                    "title": item.title.map { .string($0) } ?? .null, "detail": item.detail.map { .string($0) } ?? .null,
                    "warning": item.warning.map { .string(SyncWords.warning($0)) } ?? .null,
                ])
            }),
            "authorFailures": .array(report.authorFailures.map {
                .object(["author": .string($0.author), "reason": .string(SyncWords.author($0.failure, name: $0.author))])
            }),
            "warnings": .array(report.catalogueWarnings.map { .string($0.description) }),
            "rateLimited": report.rateLimited.map { limit in
                .object(["message": .string(limit.message), "reset": limit.reset.map { .number($0.rounded()) } ?? .null])
            } ?? .null,
            "counts": .object(Dictionary(uniqueKeysWithValues: counts)),
            "authors": .number(Double(report.authors + report.authorFailures.count)),
            "authorsFailed": .number(Double(report.authorFailures.count)),
            "fromIndex": .bool(report.fromIndex),
            "verification": report.verification.map { verification -> JSONValue in
                switch verification {
                case .signed(let key, let version, let expiresAt):
                    .object(["signed": .bool(true), "key": .string(key), "version": .number(Double(version)), "expiresAt": .number(expiresAt.rounded())])
                case .unsigned: .object(["signed": .bool(false)])
                }
            } ?? .null,
        ])
    }

    public static func clock(_ time: Double) -> String { UTCTime(time).clock }

    public static func counts(_ result: PublishResult) -> String {
        let kinds: [(SyncReport.Change, String)] = [
            (.new, "new"), (.updated, "updated"), (.unchanged, "unchanged"), (.broken, "broken (kept at last good)"),
            (.unreachable, "unreachable (marked, at the version last checked)"), (.removed, "removed"), (.failed, "failed (not published)"),
        ]
        return kinds.map { "\(result.count($0.0)) \($0.1)" }.joined(separator: ", ")
    }

    public static func json(_ result: PublishResult) -> JSONValue {
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
}

/// The keeper's states in words (the status command, the report, the badges).
public enum StatusWords {
    /// Whether a story's state is trouble: broken, unreachable or failing.
    public static func isTroubled(_ status: CatalogueStatus) -> Bool {
        switch status.state { case .broken, .unreachable, .failing: true; default: false }
    }

    /// `cyd catalogue status --json`: each story, and totals by the words the text uses that
    /// add up to "stories".
    public static func json(_ status: [CatalogueStatus]) -> JSONValue {
        var totals: [String: JSONValue] = ["stories": .number(Double(status.count)), "good": .number(Double(status.count - status.filter(isTroubled).count))]
        for state in ["valid", "warnings", "broken", "unreachable", "failing", "unchecked"] { totals[state] = .number(0) }
        for entry in status {
            if case .string(let state)? = json(entry)["state"], case .number(let count)? = totals[state] { totals[state] = .number(count + 1) }
        }
        return .object(["stories": .array(status.map(json)), "totals": .object(totals)])
    }

    /// `cyd catalogue status` as text: a row per story, columns aligned, and the totals
    /// (`troubled` stories broken, unreachable or failing).
    public static func table(_ status: [CatalogueStatus], troubled: Int) -> [PrintedLine] {
        var lines: [PrintedLine] = []
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
            lines.append(PrintedLine(line))
            if !row.detail.isEmpty { lines.append(PrintedLine("    \(VisibleText.escape(row.detail))", indent: "      ")) }
        }
        lines.append(PrintedLine("\(plural(status.count, "story", "stories")): \(status.count - troubled) good, \(troubled) broken, unreachable or failing", indent: nil))
        return lines
    }

    public static func row(_ status: CatalogueStatus) -> CatalogueReport.Row {
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

    public static func badge(_ state: CatalogueStatus.State) -> String {
        switch state {
        case .ok: "valid"
        case .warnings(let count): plural(count, "warning")
        case .broken, .failing: "broken"
        case .unreachable: "unreachable"
        case .unchecked: "not checked"
        }
    }

    public static func json(_ status: CatalogueStatus) -> JSONValue {
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
