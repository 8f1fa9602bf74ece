import Foundation
import GRDB
import TestSupport
import Testing

@testable import StoryStore

/// A library written by an older cyd is carried forward by the migrations it lacks, and what
/// it held means the same afterwards.
@Suite("Migrations")
struct MigrationTests {
    @Test("v5: catalogue warnings kept in words become codes the sync reads back")
    func warningsBecomeCodes() throws {
        let folder = try TemporaryFolder()
        let location = LibraryLocation(home: folder.url.path)
        try FileManager.default.createDirectory(atPath: (location.databasePath as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        let old = try DatabaseQueue(path: location.databasePath)
        try Schema.migrator.migrate(old, upTo: "v4: the fingerprint of the last index applied")
        try old.write { db in
            for (url, warning) in [
                ("https://example.org/a.git", "no README.md; listed in authors.json, so offered anyway (a README with #ChooseYourDestiny lets GitHub discovery find it)"),
                ("https://example.org/b.git", "README.md does not mention #ChooseYourDestiny; listed in authors.json, so offered anyway"),
                ("https://example.org/c.git", nil),
            ] as [(String, String?)] {
                try db.execute(
                    sql: "INSERT INTO catalogue_repo (url, author, name, discovery, is_story, outcome, warning) VALUES (?, 'ana', ?, 'listed', 1, 'story', ?)",
                    arguments: [url, String(url.dropLast(4).split(separator: "/").last!), warning])
            }
        }
        try old.close()
        let library = try StoryLibrary(location: location)
        let warnings = Dictionary(uniqueKeysWithValues: try library.catalogue().map { ($0.url, $0.warning) })
        #expect(warnings["https://example.org/a.git"] == "no-readme-listed")
        #expect(warnings["https://example.org/b.git"] == "untagged-listed")
        #expect(warnings["https://example.org/c.git"] == .some(nil))
    }
}
