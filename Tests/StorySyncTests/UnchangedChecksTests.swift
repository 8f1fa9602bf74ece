import Foundation
import GRDB
import TestSupport
import Testing

@testable import StoryStore
@testable import StorySync

/// A sync's unchanged checks are recorded a batch at a time: each batch whole, the rest at the
/// end, and a batch that cannot be written fails the checks it held (none is lost without a word).
@Suite("Unchanged checks, recorded in batches")
struct UnchangedChecksTests {
    static let urls = (1...5).map { "git://127.0.0.1/story-\($0).git" }

    static func library(_ folder: TemporaryFolder) throws -> StoryLibrary {
        let library = try StoryLibrary(location: LibraryLocation(home: folder.url.path))
        let entries = urls.map { CatalogueEntry(url: $0, author: "ana", repository: CatalogueSync.repositoryName($0), discovery: .listed) }
        try library.recordDiscovery(author: "ana", entries: entries, at: 1)
        return library
    }

    static func checkedAt(_ library: StoryLibrary) throws -> [Double?] {
        try urls.map { try library.catalogueEntry(url: $0)?.checkedAt }
    }

    @Test("a full batch is written when it fills, the rest when asked, each check on its own row")
    func batches() throws {
        let folder = try TemporaryFolder()
        let library = try Self.library(folder)
        let checks = UnchangedChecks(library: library, batchSize: 2)
        for (index, url) in Self.urls.enumerated() {
            checks.add(index: index, url: url, CatalogueCheck(.unchanged(commit: "c\(index)"), checkedAt: Double(10 + index)))
        }
        #expect(try Self.checkedAt(library) == [10, 11, 12, 13, nil], "two full batches written, one check pending")
        checks.recordPending()
        #expect(try Self.checkedAt(library) == [10, 11, 12, 13, 14])
        #expect(try Self.urls.enumerated().allSatisfy { index, url in try library.catalogueEntry(url: url)?.headCommit == "c\(index)" })
        #expect(checks.failures.isEmpty)
        checks.recordPending()
        #expect(try Self.checkedAt(library) == [10, 11, 12, 13, 14], "nothing pending, nothing written")
    }

    @Test("the checks claimed last are each recorded at once, with whatever is pending")
    func eagerAtTheEnd() throws {
        let folder = try TemporaryFolder()
        let library = try Self.library(folder)
        let checks = UnchangedChecks(library: library, batchSize: 50, eagerFrom: 3)
        for index in 0..<3 { checks.add(index: index, url: Self.urls[index], CatalogueCheck(.unchanged(commit: "c"), checkedAt: Double(10 + index))) }
        #expect(try Self.checkedAt(library) == [nil, nil, nil, nil, nil], "a batch not full waits")
        checks.add(index: 4, url: Self.urls[4], CatalogueCheck(.unchanged(commit: "c"), checkedAt: 14))
        #expect(try Self.checkedAt(library) == [10, 11, 12, nil, 14], "one claimed last: everything pending, at once")
        checks.add(index: 3, url: Self.urls[3], CatalogueCheck(.unchanged(commit: "c"), checkedAt: 13))
        #expect(try Self.checkedAt(library) == [10, 11, 12, 13, 14])
    }

    @Test("a batch the library cannot write fails each check it held, by its place in the results")
    func failedBatch() throws {
        let folder = try TemporaryFolder()
        let library = try Self.library(folder)
        let checks = UnchangedChecks(library: library, batchSize: 2)
        checks.add(index: 0, url: Self.urls[0], CatalogueCheck(.unchanged(commit: "c0"), checkedAt: 10))
        checks.add(index: 1, url: Self.urls[1], CatalogueCheck(.unchanged(commit: "c1"), checkedAt: 11))
        try library.database.write { db in try db.execute(sql: "ALTER TABLE catalogue_repo RENAME TO catalogue_repo_gone") }
        checks.add(index: 3, url: Self.urls[3], CatalogueCheck(.unchanged(commit: "c3"), checkedAt: 13))
        checks.recordPending()
        #expect(checks.failures.map(\.index) == [3])
        let problem = try #require(checks.failures.first?.problem)
        #expect(problem.step == .recordingCheck)
        guard case .library = problem.cause else {
            Issue.record("the library's refusal, in its words: \(problem)")
            return
        }
        checks.add(index: 4, url: Self.urls[4], CatalogueCheck(.unchanged(commit: "c4"), checkedAt: 14))
        checks.add(index: 2, url: Self.urls[2], CatalogueCheck(.unchanged(commit: "c2"), checkedAt: 12))
        #expect(checks.failures.map(\.index) == [3, 4, 2], "a full batch that fails, failed too")

        // In the sync's report, those checks are failures with the library's reason; the others stay.
        let results = ResultList(count: 5)
        for (index, url) in Self.urls.enumerated() { _ = results.store(SyncReport.Item(id: "ana/\(index)", url: url, outcome: .unchanged), at: index) }
        checks.failHeld(in: results)
        #expect(results.items.map(\.change) == [.unchanged, .unchanged, .failed, .failed, .failed])
        #expect(results.items[3].outcome == .failed(.storage(problem)))
    }
}
