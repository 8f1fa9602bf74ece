#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import LocalFiles
import StoryFormat
import StorySources
import StoryStore
import Transport

/// Why a published catalogue was not trusted: nothing of it was applied.
public enum TrustFailure: Error, Sendable, Equatable {
    /// The signature is malformed, made by another key, or does not match.
    case signature(Signify.Failure)
    /// A key is trusted for this catalogue, but what was read carries no signature.
    case notSigned(trusted: String)
    /// The catalogue is signed, no key is trusted for it, and it publishes none to trust on first use.
    case noKey
    /// The key given is not the one this library trusts for the catalogue.
    case keyChanged(remembered: String, given: String)
    /// The root expired then: an old copy, replayed by a mirror, or a keeper who stopped publishing.
    case expired(at: Double)
    /// The root's version is below one this library has already seen.
    case rolledBack(seen: Int, got: Int)
    /// Another root with the same version was applied before.
    case conflictingVersion(Int)
    /// A shard's bytes are not those the root names (tampered, or replaced during the sync).
    case shardMismatch(name: String)
    /// The root cannot be used (the reason).
    case invalidRoot(String)
    /// A shard could not be read.
    case shardUnavailable(name: String, reason: String)
}

extension SyncWords {
    public static func trust(_ failure: TrustFailure) -> String {
        switch failure {
        case .signature(.malformed(let what, let reason)): "the \(what) is not in signify's format: \(reason)"
        case .signature(.passphraseProtected): "the secret key is protected by a passphrase; signing needs a key without one"
        case .signature(.wrongKey(let signedBy, let trusted)): "it is signed by key \(signedBy), not by the trusted key \(trusted)"
        case .signature(.badSignature): "its signature does not match its content (it was changed after signing)"
        case .signature(.crypto(let reason)): "signatures cannot be checked: \(reason)"
        case .notSigned(let trusted): "it is not signed, but this library trusts key \(trusted) for it (ask for catalogue.sig)"
        case .noKey: "it is signed, but no key is trusted for it and it publishes none"
        case .keyChanged(let remembered, let given):
            "the key given (\(given)) is not the key this library trusts for the catalogue (\(remembered))"
        case .expired(let at): "it expired on \(date(at)) (an old copy replayed by a mirror, or a keeper who stopped publishing)"
        case .rolledBack(let seen, let got): "its version \(got) is older than version \(seen), already seen (a rollback to an old copy)"
        case .conflictingVersion(let version): "another root with version \(version) was applied before (two different catalogues under one version)"
        case .shardMismatch(let name): "shard \(name) is not the one the root names (its SHA-256 differs: tampered, or published again during the sync; run again)"
        case .invalidRoot(let reason): "its root cannot be used: \(reason)"
        case .shardUnavailable(let name, let reason): "shard \(name) cannot be read: \(reason)"
        }
    }
}

extension CatalogueRoot {
    /// Whether the bytes are a root (signed or not) rather than authors.json or an index.
    public static func isRoot(_ bytes: [UInt8]) -> Bool {
        if Signify.isSigned(bytes) { return true }
        let marker = Array("\"\(formatKey)\"".utf8)
        let head = Array(bytes.prefix(256))
        guard head.count >= marker.count else { return false }
        return (0...(head.count - marker.count)).contains { head[$0..<($0 + marker.count)].elementsEqual(marker) }
    }

    struct Root {
        var version: Int
        var expiresAt: Double
        var shards: [(name: String, sha256: String)]
    }

    /// Reads a root's JSON: the format, the version, the expiry and the shards (names checked).
    static func parse(_ bytes: [UInt8]) throws(TrustFailure) -> Root {
        guard bytes.count <= maximumRootBytes else { throw .invalidRoot("it is larger than \(maximumRootBytes >> 20) MB") }
        guard let value = JSONValue.parse(bytes), case .object = value else { throw .invalidRoot("it is not a JSON object") }
        guard value[formatKey]?.int == 2 else { throw .invalidRoot("\(formatKey) must be 2; this cyd reads version 2 roots") }
        guard let version = value["version"]?.int, version > 0 else { throw .invalidRoot("\"version\" must be a positive whole number") }
        guard let expiry = value["expires_at"], case .number(let expiresAt) = expiry, expiresAt > 0 else {
            throw .invalidRoot("\"expires_at\" must be a Unix time")
        }
        guard let list = value["shards"]?.array, list.count <= maximumShards else { throw .invalidRoot("\"shards\" must be a list of at most \(maximumShards)") }
        var shards: [(name: String, sha256: String)] = []
        var names = Set<String>()
        for shard in list {
            guard let name = shard["name"]?.string, isShardName(name), names.insert(name).inserted else {
                throw .invalidRoot("each shard's \"name\" must be two lowercase hexadecimal digits, each name once")
            }
            guard let hash = shard["sha256"]?.string, CatalogueIndex.isSHA256(hash) else { throw .invalidRoot("shard \(name) has no \"sha256\"") }
            shards.append((name, hash))
        }
        return Root(version: version, expiresAt: expiresAt, shards: shards)
    }

    /// A reader's sync from a published root: the signature checked against the trusted key,
    /// the expiry and the version; a root seen before changes nothing (a 304 over https); each
    /// shard whose hash changed is fetched (conditionally) and checked against the root, the
    /// others are read from the cache without a request. Nothing is applied unless all of it
    /// checks out.
    static func sync(
        _ contents: CatalogueSource.Contents, options: SyncOptions, library: StoryLibrary, events: @escaping @Sendable (SyncEvent) -> Void
    ) throws(SyncError) -> SyncReport {
        let source = contents.location.base.isEmpty ? contents.displayName : contents.location.base
        func refuse(_ failure: TrustFailure) -> SyncError { .untrusted(source: contents.displayName, failure) }
        let known: CatalogueTrust?
        do { known = try library.catalogueTrust(source: source) } catch {
            throw .storage(StorageProblem(.readingCatalogue, error: error, databasePath: library.location.databasePath))
        }
        // The key: the one given, else the one remembered; a given key that differs from the
        // remembered one is refused unless the reader says the keeper replaced it.
        var key: Signify.PublicKey?
        if let given = options.trustedKey {
            if let remembered = known?.publicKey, remembered != given.line, !options.replaceKey {
                let old = (try? Signify.publicKey(Array(remembered.utf8)))?.fingerprint ?? "?"
                throw refuse(.keyChanged(remembered: old, given: given.fingerprint))
            }
            key = given
        } else if let remembered = known?.publicKey {
            key = try? Signify.publicKey(Array(remembered.utf8))
        }
        var signed = contents.bytes
        if !Signify.isSigned(signed), let key {
            // A trusted catalogue is read signed, whichever of its files was named.
            guard let bytes = try? sibling(signedRootFile, of: contents, library: library, conditional: true) else {
                throw refuse(.notSigned(trusted: key.fingerprint))
            }
            signed = bytes
        }
        var message = signed
        var firstUse: Signify.PublicKey?
        var handedOver: (from: String, to: String)?
        if Signify.isSigned(signed) {
            if key == nil {
                guard let bytes = try? sibling(publicKeyFile, of: contents, library: library, conditional: false),
                    let published = try? Signify.publicKey(bytes)
                else { throw refuse(.noKey) }
                key = published
                firstUse = published
            }
            guard let trusted = key else { throw refuse(.noKey) }
            do {
                message = try Signify.verifyEmbedded(signed, key: trusted)
            } catch .wrongKey(let signedBy, let trustedPrint) {
                // Signed by another key: followed only through a handover that the trusted key
                // signed, naming the key that signed the root.
                guard let next = handover(to: signedBy, from: trusted, of: contents, library: library),
                    let verified = try? Signify.verifyEmbedded(signed, key: next)
                else { throw refuse(.signature(.wrongKey(signedBy: signedBy, trusted: trustedPrint))) }
                message = verified
                key = next
                handedOver = (from: trusted.fingerprint, to: next.fingerprint)
            } catch {
                throw refuse(.signature(error))
            }
        }
        let rootHash = try hash(message)
        let now = Date().timeIntervalSince1970
        let root: Root
        do { root = try parse(message) } catch { throw refuse(error) }
        if now >= root.expiresAt { throw refuse(.expired(at: root.expiresAt)) }
        if let known {
            if root.version < known.version { throw refuse(.rolledBack(seen: known.version, got: root.version)) }
            if root.version == known.version, rootHash != known.rootSHA256 { throw refuse(.conflictingVersion(root.version)) }
        }
        var report = SyncReport()
        if known?.rootSHA256 == rootHash, (try? library.appliedIndexFingerprint(source: source)) == rootHash, let entries = try? library.indexEntries() {
            // The root applied last time: nothing can have changed.
            report.fromIndex = true
            report.catalogueVersion = root.version
            report.verification = key.map { .signed(key: $0.fingerprint, version: root.version, expiresAt: root.expiresAt) } ?? .unsigned
            report.authors = Set(entries.map { $0.author.lowercased() }).count
            report.items = entries.map { entry in
                let outcome: SyncReport.Outcome = entry.brokenSince.map { .broken(since: $0, reason: entry.lastError ?? "") } ?? .unchanged
                return .init(id: entry.id, url: entry.url, outcome: outcome, title: entry.title)
            }
            events(.checking(total: 0))
            return report
        }
        // Every shard is checked against the root before anything is applied (fetched when its
        // copy here differs, kept in the cache); then applied one at a time in one transaction,
        // read again from where the check left it and checked again, so memory holds one shard.
        for shard in root.shards {
            do { _ = try shardBytes(shard.name, sha256: shard.sha256, of: contents, library: library) } catch { throw refuse(error) }
        }
        // The root's version (and a key trusted on first use) is recorded before anything of it
        // is applied: a sync cut off while applying (killed, or a closed pipe) must not leave the
        // library applied to a root while remembering an older version, which would let that
        // older root back in as if it were new.
        do {
            try library.recordCatalogueTrust(
                source: source, CatalogueTrust(publicKey: key?.line, version: root.version, rootSHA256: rootHash, expiresAt: root.expiresAt))
        } catch {
            throw .storage(StorageProblem(.updatingLibrary, error: error, databasePath: library.location.databasePath))
        }
        let shards = root.shards
        var rejectedAny = false
        let expected = JSONValue.parse(message)?["stories"]?.int ?? 0
        report = try CatalogueIndex.apply(parts: shards.count, expected: expected, { (index: Int, applier: IndexApplier) throws(SyncError) -> CatalogueIndex.Decoded in
            let shard = shards[index]
            let bytes: [UInt8]
            switch Result(catching: { () throws(TrustFailure) in try shardBytes(shard.name, sha256: shard.sha256, of: contents, applier: applier) }) {
            case .success(let read): bytes = read
            case .failure(let failure): throw refuse(failure)
            }
            let path = contents.location.base + shardPath(shard.name)
            var part = try CatalogueIndex.decode(CatalogueSource.Contents(bytes: bytes, displayName: path), format: shardKey, refuseEmpty: false)
            // An entry in a shard its author does not hash to is skipped.
            let misplaced = part.stories.filter { shardName(author: $0.author) != shard.name }
            if !misplaced.isEmpty {
                part.stories.removeAll { shardName(author: $0.author) != shard.name }
                for story in misplaced {
                    let finding = SyncReport.Finding(
                        file: path, line: 1, column: 1, code: "index", message: "the author '\(story.author)' belongs in shard \(shardName(author: story.author)), not \(shard.name)")
                    part.rejected.append((story.id, story.url, finding))
                }
            }
            if !part.rejected.isEmpty { rejectedAny = true }
            return part
        }, options: options, library: library, events: events)
        report.trustedOnFirstUse = firstUse?.fingerprint
        report.handedOver = handedOver
        report.catalogueVersion = root.version
        report.verification = key.map { .signed(key: $0.fingerprint, version: root.version, expiresAt: root.expiresAt) } ?? .unsigned
        do {
            if !rejectedAny, !report.hasFailures {
                try library.recordAppliedIndex(source: source, fingerprint: rootHash, at: now)
            } else {
                try library.forgetAppliedIndex()
            }
        } catch {
            throw .storage(StorageProblem(.updatingLibrary, error: error, databasePath: library.location.databasePath))
        }
        return report
    }

    /// A shard's bytes, checked against the hash the root names: from the cached copy when it
    /// still has that hash (no request), else fetched. Before the applying transaction the
    /// library is asked (cache and conditional request); inside it, the cache is read through the
    /// applier and a fetch is plain, since the transaction holds the library.
    static func shardBytes(
        _ name: String, sha256: String, of contents: CatalogueSource.Contents, library: StoryLibrary? = nil, applier: IndexApplier? = nil
    ) throws(TrustFailure) -> [UInt8] {
        let path = shardPath(name)
        if case .web(let folder, _) = contents.location {
            let cached = applier.map { try? $0.cachedBody(url: folder + path) } ?? (try? library?.cachedResponse(url: folder + path))?.body
            if let cached, (try? Digest.sha256Hex(cached)) == sha256 { return cached }
        }
        let bytes: [UInt8]
        do {
            bytes = try sibling(path, of: contents, library: applier == nil ? library : nil, conditional: applier == nil)
        } catch {
            throw .shardUnavailable(name: name, reason: error.description)
        }
        guard (try? Digest.sha256Hex(bytes)) == sha256 else { throw .shardMismatch(name: name) }
        return bytes
    }

    /// The key a handover beside the root hands over to, when the trusted key signed it and it
    /// names the key `signedBy` (nil otherwise: no handover, another key's, or a different key).
    static func handover(to signedBy: String, from trusted: Signify.PublicKey, of contents: CatalogueSource.Contents, library: StoryLibrary) -> Signify.PublicKey? {
        guard let bytes = try? sibling(handoverFile, of: contents, library: library, conditional: false),
            let file = try? Signify.verifyEmbedded(bytes, key: trusted), let next = try? Signify.publicKey(file), next.fingerprint == signedBy
        else { return nil }
        return next
    }

    /// The signed root beside an unsigned catalogue file, as if it had been named; nil when the
    /// folder has none (or it cannot be read: the file named is then used as it is).
    static func signedSibling(of contents: CatalogueSource.Contents, library: StoryLibrary) -> CatalogueSource.Contents? {
        guard contents.location.file != signedRootFile, let bytes = try? sibling(signedRootFile, of: contents, library: library, conditional: true),
            Signify.isSigned(bytes)
        else { return nil }
        let location: CatalogueSource.Location
        let name: String
        switch contents.location {
        case .none: return nil
        case .folder(let folder, _): (location, name) = (.folder(folder, file: signedRootFile), folder + "/" + signedRootFile)
        case .web(let folder, _): (location, name) = (.web(folder, file: signedRootFile), folder + signedRootFile)
        case .git(let url, let cache, let commit, _): (location, name) = (.git(url: url, cache: cache, commit: commit, file: signedRootFile), "\(url) \(signedRootFile)")
        }
        return CatalogueSource.Contents(bytes: bytes, displayName: name, location: location)
    }

    /// A file beside the catalogue file that was read, the same way (a path in its folder, a URL
    /// relative to it, a file of the same commit).
    static func sibling(_ path: String, of contents: CatalogueSource.Contents, library: StoryLibrary?, conditional: Bool) throws(SyncError) -> [UInt8] {
        switch contents.location {
        case .none:
            throw .unavailable(source: path, reason: "the catalogue was not read from a folder")
        case .folder(let folder, _):
            do { return try LocalFile.read(folder + "/" + path, limit: CatalogueSource.maximumBytes) } catch .missing {
                throw .missing(path: folder + "/" + path)
            } catch {
                throw .unavailable(source: folder + "/" + path, reason: error.description)
            }
        case .web(let folder, _):
            var request = HTTPRequest(url: folder + path)
            request.maximumBytes = CatalogueSource.maximumBytes
            let response: HTTPResponse
            do {
                if conditional, let library {
                    response = try HTTPClient().getConditionally(request, cache: library, retrying: RetryPolicy())
                } else {
                    response = try HTTPClient().get(request, retrying: RetryPolicy())
                }
            } catch {
                throw .unavailable(source: folder + path, reason: error.description)
            }
            guard response.status == 200 else { throw .unavailable(source: folder + path, reason: "the server answered \(response.status)") }
            return response.body
        case .git(let url, let cache, let commit, _):
            do {
                guard let bytes = try GitRepository.open(cache).file(path, at: commit) else { throw SyncError.missing(path: "\(url) \(path)") }
                return bytes
            } catch let error as SyncError {
                throw error
            } catch {
                throw .unavailable(source: "\(url) \(path)", reason: String(describing: error))
            }
        }
    }
}
