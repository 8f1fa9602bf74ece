#if canImport(FoundationEssentials)
import FoundationEssentials
#endif
import Foundation
import StoryCheck
import StoryFormat
import StorySources
import StoryStore
import StorySync

/// What `cyd list` says of the library and the catalogue, in text and JSON.
public enum ListWords {
    /// " · also in fr (100%), de (40%)", or nothing.
    public static func languagesNote(_ languages: [String: Int]) -> String {
        guard !languages.isEmpty else { return "" }
        return " · also in " + languages.sorted { $0.key < $1.key }.map { "\(VisibleText.escape($0.key)) (\($0.value)%)" }.joined(separator: ", ")
    }

    /// A catalogue story, two lines: what it is, then its summary; `local` is its downloaded
    /// copy when there is one (listed here only when an update is available).
    public static func available(_ item: LibraryListing.Available) -> String {
        let (entry, local) = (item.entry, item.local)
        let note = local.map { " · downloaded as \($0.id), update available (`cyd update \($0.id)`)" } ?? ""
        let stale = entry.failingSince.map { " · unreachable since \(SyncWords.date($0))" + (entry.lastError.map { ": \(VisibleText.escape($0))" } ?? "") }
            ?? entry.lastError.map { " · last check failed: \(VisibleText.escape($0))" } ?? ""
        return "  \(VisibleText.escape(entry.id))  \(VisibleText.escape(entry.title ?? ""))  [\(VisibleText.escape(entry.rating ?? ""))] \(entry.chapterCount ?? 0) chapters · by \(VisibleText.escape(entry.author))\(languagesNote(entry.languagePercents))\(note)\(stale)\n      \(VisibleText.escape(entry.summary ?? ""))"
    }

    public static func availableJSON(_ item: LibraryListing.Available) -> JSONValue {
        let (entry, local, updateAvailable) = (item.entry, item.local, item.updateAvailable)
        return .object([
            "id": .string(entry.id), "title": .string(entry.title ?? ""), "author": .string(entry.author),
            "rating": .string(entry.rating ?? ""), "summary": .string(entry.summary ?? ""),
            "chapters": .number(Double(entry.chapterCount ?? 0)), "url": .string(entry.url),
            "commit": entry.headCommit.map { .string($0) } ?? .null,
            "checkedAt": entry.checkedAt.map { .number($0.rounded()) } ?? .null,
            "lastError": entry.lastError.map { .string($0) } ?? .null,
            "unreachableSince": entry.failingSince.map { .number($0.rounded()) } ?? .null,
            "downloaded": .bool(local != nil), "libraryId": local.map { .number(Double($0.id)) } ?? .null,
            "updateAvailable": .bool(updateAvailable),
            "languages": .object(entry.languagePercents.sorted { $0.key < $1.key }.map { ($0.key, .number(Double($0.value))) }),
        ])
    }

    /// A story of the library, two lines: what it is and where the reader is, then its source.
    public static func story(_ item: LibraryListing.Shelved) -> String {
        let (story, place, found, updateWaiting, languages) = (item.story, item.place, item.endingsFound, item.updateWaiting, item.languages)
        let where_ = place.map { "at '\(VisibleText.escape($0))'" } ?? "not started"
        let update = updateWaiting ? " · update waiting (`cyd update \(story.id)`)" : ""
        let note = languagesNote(Dictionary(languages.map { ($0.language, $0.percent) }, uniquingKeysWith: { a, _ in a }))
        return "\(String(story.id).leftPadded(4))  \(VisibleText.escape(story.title))  [\(VisibleText.escape(story.rating))] \(story.chapterCount) chapters · \(where_) · endings found: \(found) of \(story.endingCount)\(note)\(update)\n      \(VisibleText.escape(story.source.location))"
    }

    public static func storyJSON(_ item: LibraryListing.Shelved) -> JSONValue {
        let (story, place, found, updateWaiting, languages) = (item.story, item.place, item.endingsFound, item.updateWaiting, item.languages)
        return .object([
            "id": .number(Double(story.id)), "title": .string(story.title), "source": .string(story.source.key),
            "rating": .string(story.rating), "summary": .string(story.summary), "chapters": .number(Double(story.chapterCount)),
            "endings": .number(Double(story.endingCount)), "endingsFound": .number(Double(found)),
            "author": story.author.map { .string($0) } ?? .null, "storyId": .string(story.storyKey),
            "progress": place.map { .string($0) } ?? .null, "version": .string(story.version),
            "updateAvailable": .bool(updateWaiting),
            "languages": .object(languages.map { ($0.language, .number(Double($0.percent))) }),
        ])
    }

    /// The key (its fingerprint) a catalogue in use was signed with, if any.
    static func fingerprint(_ trust: CatalogueTrust) -> String? {
        trust.publicKey.flatMap { try? Signify.publicKey(Array($0.utf8)).fingerprint }
    }

    /// The published root the catalogue came from: its key, version and expiry (an expired one
    /// is marked, since get and update refuse what it pins).
    public static func catalogueJSON(_ inUse: (source: String, trust: CatalogueTrust), now: Double) -> JSONValue {
        .object([
            "source": .string(inUse.source), "version": .number(Double(inUse.trust.version)),
            "key": fingerprint(inUse.trust).map { .string($0) } ?? .null,
            "expiresAt": .number(inUse.trust.expiresAt.rounded()), "expired": .bool(inUse.trust.expiresAt <= now),
        ])
    }

    /// `cyd list` as text or JSON: the stories (with `withCatalogue`, the catalogue in use, what
    /// is available and what is downloaded).
    public static func listing(_ listing: LibraryListing, json: Bool, withCatalogue inUse: (source: String, trust: CatalogueTrust)??, now: Double) -> String {
        let rows = listing.stories.map(storyJSON)
        guard let inUse else {
            if json { return JSONValue.array(rows).encoded + "\n" }
            if listing.stories.isEmpty { return "The library is empty. `cyd read` offers the bundled stories; `cyd add FOLDER` adds one.\n" }
            return listing.stories.map(story).joined(separator: "\n") + "\n"
        }
        if json {
            return JSONValue.object([
                "available": .array(listing.available.map(availableJSON)), "downloaded": .array(rows), "catalogue": inUse.map { catalogueJSON($0, now: now) } ?? .null,
            ]).encoded + "\n"
        }
        return withCatalogue(inUse, now: now, available: listing.available.map(available), downloaded: listing.stories.map(story))
    }

    /// `cyd list --available` as text: the catalogue in use, what is available, what is downloaded.
    static func withCatalogue(_ inUse: (source: String, trust: CatalogueTrust)?, now: Double, available: [String], downloaded: [String]) -> String {
        var out = ""
        if let inUse {
            let key = fingerprint(inUse.trust).map { "signed by key \($0)" } ?? "unsigned"
            let expiry = inUse.trust.expiresAt <= now
                ? "EXPIRED on \(SyncWords.date(inUse.trust.expiresAt)): `cyd get` and `cyd update` refuse what it pins until `cyd sync` fetches a fresh one (or --allow-expired)"
                : "expires \(SyncWords.date(inUse.trust.expiresAt))"
            out += "Catalogue: \(VisibleText.escape(inUse.source)), \(key), version \(inUse.trust.version), \(expiry)\n"
        }
        out += "Available (\(available.count)):\n"
        out += available.isEmpty ? "  nothing to download; `cyd sync` brings the catalogue up to date\n" : available.joined(separator: "\n") + "\n"
        out += "\nDownloaded (\(downloaded.count)):\n"
        out += downloaded.isEmpty ? "  none yet; `cyd get ID` downloads one\n" : downloaded.joined(separator: "\n") + "\n"
        return out
    }
}

/// What `cyd add`, `get` and `update` say of each story they store.
public enum ImportWords {
    /// `cyd add`: added, updated or already up to date, with the story's findings counted.
    public static func added(_ result: ImportResult, source: String) -> [String] {
        let verb = switch result.change {
            case .added: "added"
            case .updated: "updated"
            case .unchanged: "already up to date:"
            }
        var lines = ["\(verb) \(VisibleText.escape(result.story.title)) (id \(result.story.id), \(result.story.chapterCount) chapters)"]
        let totals = ReportTotals(result.reports)
        if totals.errors + totals.warnings > 0 { lines.append("  the story has \(totals.phrase); `cyd validate \(VisibleText.escape(source))` shows them") }
        return lines + displaced(result.displacedReaders)
    }

    /// After a story was updated: the profiles whose chapter the new version no longer has.
    public static func displaced(_ profiles: [String]) -> [String] {
        profiles.map {
            "  profile '\(VisibleText.escape($0))' was at a chapter this version no longer has; they will be offered their last chapter that exists, or the start"
        }
    }

    /// `cyd get`: said before a download of a story whose upstream is broken or unreachable.
    public static func catalogueNote(_ entry: CatalogueEntry) -> String? {
        if let since = entry.brokenSince {
            return "cyd: note: \(VisibleText.escape(entry.id))'s upstream is broken since \(SyncWords.date(since)); you get its last good version, \(String((entry.headCommit ?? "").prefix(12)))"
        }
        // Said first: the download that follows may fail for the same reason.
        return entry.failingSince.map {
            "cyd: note: \(VisibleText.escape(entry.id))'s repository has been unreachable since \(SyncWords.date($0)) (\(VisibleText.escape(entry.lastError ?? "its last checks failed"))); trying it anyway"
        }
    }

    /// `cyd get`: what was downloaded.
    public static func downloaded(_ result: ImportResult) -> String {
        let verb = result.change == .unchanged ? "already downloaded:" : "downloaded"
        return "\(verb) \(VisibleText.escape(result.story.title)) (id \(result.story.id), \(result.story.chapterCount) chapters); `cyd read \(result.story.id)` opens it"
    }

    /// What `cyd update` did to one story: lines for standard output and for standard error.
    public static func updated(_ story: StoryRecord, _ outcome: Result<ImportResult, SourceError>) -> (out: [String], errors: [String]) {
        switch outcome {
        case .success(let result) where result.change == .unchanged: return ([], [])
        case .success(let result):
            return (["updated \(VisibleText.escape(result.story.title)) (id \(story.id)) to \(result.story.version.prefix(12))"] + displaced(result.displacedReaders), [])
        case .failure(.noLongerPinned(_, let commit)):
            // Not a failure: the reader's story stays at what a keeper checked.
            return ([], [
                "cyd: note: \(VisibleText.escape(story.title)) (id \(story.id)) is no longer in the catalogue that checked it; it stays at \(commit.prefix(12)), the commit its keeper checked (`cyd update --unpinned \(story.id)` takes the author's newest, which no keeper checked)"
            ])
        case .failure(let error):
            let reason = if case .unreadable = error { "the new version cannot be read; the old one is kept (`cyd validate` shows why)" } else { Words.source(error) }
            return ([], ["cyd: cannot update \(VisibleText.escape(story.title)) (id \(story.id)): \(VisibleText.escape(reason))"])
        }
    }

    /// `cyd update`'s last line (how many were updated, up to date, kept and failed), and how
    /// many failed.
    public static func updateTotals(_ outcomes: [Result<ImportResult, SourceError>]) -> (line: String, failed: Int) {
        var (updated, unchanged, kept, failed) = (0, 0, 0, 0)
        for outcome in outcomes {
            switch outcome {
            case .success(let result): if result.change == .unchanged { unchanged += 1 } else { updated += 1 }
            case .failure(.noLongerPinned): kept += 1
            case .failure: failed += 1
            }
        }
        let keptNote = kept > 0 ? ", \(kept) kept at the checked version (no longer in the catalogue)" : ""
        return ("\(updated) updated, \(unchanged) already up to date\(keptNote)\(failed > 0 ? ", \(failed) failed" : "")", failed)
    }
}

/// What `cyd read` says before the story opens.
public enum ReadingWords {
    /// A language asked for with --lang that the story lacks.
    public static func notTranslated(_ title: String, into requested: String, available: [String]) -> String {
        let has = available.isEmpty ? "it has no translations" : "it can be read in " + available.joined(separator: ", ")
        return "cyd: “\(VisibleText.escape(title))” is not translated into \(VisibleText.escape(requested)); reading it as written (\(VisibleText.escape(has)))"
    }
}

/// What `cyd search` says of its matches.
public enum SearchWords {
    /// Chapters shown a story before "… and N more".
    static let shownPerStory = 8

    public static func json(_ hits: [SearchHit]) -> JSONValue {
        .array(hits.map { hit in
            .object([
                "id": .number(Double(hit.story.id)), "title": .string(hit.story.title), "chapter": hit.chapterKey.map { .string($0) } ?? .null,
                "chapterTitle": hit.chapterTitle.map { .string($0) } ?? .null, "snippet": .string(hit.snippet),
            ])
        })
    }

    /// One heading a story (with its own snippet when the title, summary or author matched),
    /// then each chapter the words are in, with the command that opens it there.
    public static func text(_ hits: [SearchHit]) -> String {
        var order: [Int64] = []
        var byStory: [Int64: [SearchHit]] = [:]
        for hit in hits {
            if byStory[hit.story.id] == nil { order.append(hit.story.id) }
            byStory[hit.story.id, default: []].append(hit)
        }
        var out = ""
        for id in order {
            let storyHits = byStory[id]!
            out += "\(String(id).leftPadded(4))  \(VisibleText.escape(storyHits[0].story.title))\n"
            for hit in storyHits where hit.chapterKey == nil { out += "      \(VisibleText.escape(hit.snippet))\n" }
            let chapters = storyHits.filter { $0.chapterKey != nil }
            for hit in chapters.prefix(shownPerStory) {
                let key = hit.chapterKey!
                let title = hit.chapterTitle.flatMap { $0.isEmpty ? nil : $0 } ?? key
                out += "      in “\(VisibleText.escape(title))”: \(VisibleText.escape(hit.snippet))\n"
                out += "        cyd read \(id) --chapter \(shellWord(key))\n"
            }
            if chapters.count > shownPerStory {
                out += "      … and \(plural(chapters.count - shownPerStory, "more chapter")) (--json lists them all)\n"
            }
        }
        return out
    }

    /// A chapter id as one word a shell reads back as it is: bare when it is plain, else in
    /// single quotes (escaped for the terminal all the same).
    public static func shellWord(_ word: String) -> String {
        if !word.isEmpty, word.unicodeScalars.allSatisfy({ ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || "-_.".unicodeScalars.contains($0) }) {
            return word
        }
        return "'" + VisibleText.escape(word.replacingOccurrences(of: "'", with: "'\\''")) + "'"
    }
}

extension String {
    /// Right-aligned in `width` columns (ids in lists).
    public func leftPadded(_ width: Int) -> String { count >= width ? self : String(repeating: " ", count: width - count) + self }
}
