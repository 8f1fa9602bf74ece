#if DEBUG
import StoryFormat
@testable import StorySync

/// The readers of what a catalogue's mirror serves: a root signed in signify's embedded form,
/// the root's JSON, shards and the index. Nothing the fuzzer writes is ever taken as signed by
/// the key, what the key signs reads back exactly, and every finding has a place in the file.
enum CatalogueFuzzing {
    static let key = try! Signify.generate()

    static func run(_ bytes: [UInt8]) {
        if (try? Signify.verifyEmbedded(bytes, key: key.publicKey)) != nil {
            preconditionFailure("an input not signed by the key was verified")
        }
        if let signed = try? Signify.embed(bytes, signedWith: key, comment: "fuzz") {
            precondition((try? Signify.verifyEmbedded(signed, key: key.publicKey)) == bytes, "a signed root does not read back as signed")
            var changed = signed
            changed[changed.count - 1] ^= 0x01
            precondition((try? Signify.verifyEmbedded(changed, key: key.publicKey)) != bytes, "a changed byte of a signed root was accepted as the same root")
        }
        if let root = try? CatalogueRoot.parse(bytes) {
            precondition(root.version > 0 && root.expiresAt > 0)
            precondition(Set(root.shards.map(\.name)).count == root.shards.count && root.shards.allSatisfy { CatalogueRoot.isShardName($0.name) })
        }
        _ = CatalogueRoot.isRoot(bytes)
        _ = CatalogueIndex.isIndex(bytes)
        let lines = bytes.reduce(1) { $0 + ($1 == 10 ? 1 : 0) }
        for format in [CatalogueRoot.shardKey, CatalogueIndex.formatKey] {
            do {
                let decoded = try CatalogueIndex.decode(CatalogueSource.Contents(bytes: bytes, displayName: "shard.json"), format: format, refuseEmpty: false)
                for rejected in decoded.rejected {
                    precondition(rejected.finding.line >= 1 && rejected.finding.line <= lines && rejected.finding.column >= 1, "a finding outside the file")
                }
            } catch {
                precondition(!String(describing: error).isEmpty)
            }
        }
    }
}
#endif
