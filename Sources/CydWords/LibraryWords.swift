#if canImport(FoundationEssentials)
import FoundationEssentials
#endif
import Foundation
import StoryFormat
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
    public static func available(_ entry: CatalogueEntry, local: StoryRecord?) -> String {
        let note = local.map { " · downloaded as \($0.id), update available (`cyd update \($0.id)`)" } ?? ""
        let stale = entry.failingSince.map { " · unreachable since \(SyncWords.date($0))" + (entry.lastError.map { ": \(VisibleText.escape($0))" } ?? "") }
            ?? entry.lastError.map { " · last check failed: \(VisibleText.escape($0))" } ?? ""
        return "  \(VisibleText.escape(entry.id))  \(VisibleText.escape(entry.title ?? ""))  [\(VisibleText.escape(entry.rating ?? ""))] \(entry.chapterCount ?? 0) chapters · by \(VisibleText.escape(entry.author))\(languagesNote(entry.languagePercents))\(note)\(stale)\n      \(VisibleText.escape(entry.summary ?? ""))"
    }

    public static func availableJSON(_ entry: CatalogueEntry, local: StoryRecord?, updateAvailable: Bool) -> JSONValue {
        .object([
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
    public static func story(_ story: StoryRecord, place: String?, found: Int, updateWaiting: Bool, languages: [StoryLanguage]) -> String {
        let where_ = place.map { "at '\(VisibleText.escape($0))'" } ?? "not started"
        let update = updateWaiting ? " · update waiting (`cyd update \(story.id)`)" : ""
        let note = languagesNote(Dictionary(languages.map { ($0.language, $0.percent) }, uniquingKeysWith: { a, _ in a }))
        return "\(String(story.id).leftPadded(4))  \(VisibleText.escape(story.title))  [\(VisibleText.escape(story.rating))] \(story.chapterCount) chapters · \(where_) · endings found: \(found) of \(story.endingCount)\(note)\(update)\n      \(VisibleText.escape(story.source.location))"
    }

    public static func storyJSON(_ story: StoryRecord, place: String?, found: Int, updateWaiting: Bool, languages: [StoryLanguage]) -> JSONValue {
        .object([
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

    /// `cyd list --available` as text: the catalogue in use, what is available, what is downloaded.
    public static func withCatalogue(_ inUse: (source: String, trust: CatalogueTrust)?, now: Double, available: [String], downloaded: [String]) -> String {
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
