import Foundation
import StoryStore
import TestSupport
import Testing

/// What discovery records of a repository: who offers it and how it was found change with each
/// discovery; what its checks learnt stays.
@Suite("Catalogue discovery")
struct CatalogueDiscoveryTests {
    static let url = "git://127.0.0.1/tide.git"

    static func entry(_ author: String, _ discovery: CatalogueEntry.Discovery, pushedAt: String? = nil, name: String = "tide") -> CatalogueEntry {
        CatalogueEntry(url: url, author: author, repository: name, discovery: discovery, pushedAt: pushedAt)
    }

    @Test("a rediscovered repository takes the new author, name, way found and push time, and keeps its checks")
    func rediscovery() throws {
        let folder = try TemporaryFolder()
        let library = try StoryLibrary(location: LibraryLocation(home: folder.url.path))
        try library.recordDiscovery(author: "ana", entries: [Self.entry("ana", .listed)], at: 1)
        try library.recordCheck(url: Self.url, CatalogueCheck(.unchanged(commit: "c1"), checkedAt: 5))

        let rows = try library.recordListedDiscoveries([("ana", [Self.entry("ana", .listed)])], at: 2)
        #expect(rows.map { $0.map(\.headCommit) } == [["c1"]], "the row as it stands, checks and all")

        try library.recordDiscovery(author: "ben", entries: [Self.entry("ben", .github, pushedAt: "p1", name: "Tide")], at: 3)
        var entry = try #require(try library.catalogueEntry(url: Self.url))
        #expect((entry.author, entry.repository, entry.discovery, entry.pushedAt) == ("ben", "Tide", .github, "p1"))
        #expect((entry.headCommit, entry.checkedAt) == ("c1", 5))

        try library.recordDiscovery(author: "ben", entries: [Self.entry("ben", .github, pushedAt: "p2", name: "Tide")], at: 4)
        entry = try #require(try library.catalogueEntry(url: Self.url))
        #expect(entry.pushedAt == "p2" && entry.headCommit == "c1")

        try library.recordDiscovery(author: "ben", entries: [Self.entry("ben", .github, pushedAt: nil, name: "Tide")], at: 5)
        #expect(try library.catalogueEntry(url: Self.url)?.pushedAt == nil, "a push time cleared is cleared")
    }

    @Test("several authors' listed repositories in one transaction: each author's rows, in the order given; a repository an author no longer lists leaves")
    func listedTogether() throws {
        let folder = try TemporaryFolder()
        let library = try StoryLibrary(location: LibraryLocation(home: folder.url.path))
        let other = CatalogueEntry(url: "git://127.0.0.1/moor.git", author: "ben", repository: "moor", discovery: .listed)
        let rows = try library.recordListedDiscoveries([("ana", [Self.entry("ana", .listed)]), ("ben", [other])], at: 1)
        #expect(rows.map { $0.map(\.url) } == [[Self.url], [other.url]])
        #expect(rows.flatMap { $0.map(\.author) } == ["ana", "ben"])
        _ = try library.recordListedDiscoveries([("ben", [])], at: 2)
        #expect(try library.catalogueEntry(url: other.url) == nil)
        #expect(try library.catalogueEntry(url: Self.url) != nil)
    }
}
