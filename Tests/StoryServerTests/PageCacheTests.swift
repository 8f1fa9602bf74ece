// The browser reader is built with the package trait BrowserReader only.
#if BrowserReader
import Foundation
import LibraryTestSupport
import NIOCore
import StoryStore
import Testing

@testable import StoryServer

/// Pages kept while the library stands still, and dropped the moment anything is committed,
/// by this process or by another connection (as `cyd read` in a terminal is).
@Suite("The served reader's page cache")
struct PageCacheTests {
    @Test("a kept page is given back until the library changes: this server's own change drops it at once, another connection's within the recheck time")
    func droppedOnAnyCommit() throws {
        let fixture = try Fixture()
        let story = try fixture.add(storyJSON(Fixture.chain)).story
        let cache = PageCache(fixture.library, recheck: 0.005)
        let version = cache.settle()
        #expect(version != nil)
        cache.keep(ByteBuffer(string: "page"), as: "default\u{0}/stories/1", at: version)
        Thread.sleep(forTimeInterval: 0.01)
        #expect(cache.page("default\u{0}/stories/1", at: cache.settle()) == ByteBuffer(string: "page"), "nothing changed")
        // Another library object is another connection, as another process would be.
        let other = try StoryLibrary(location: fixture.library.location)
        try other.saveProgress(Progress(chapterKey: "b", history: ["a"], updatedAt: 0), profile: "default", story: story, reachedEnding: false)
        Thread.sleep(forTimeInterval: 0.01)
        let now = cache.settle()
        #expect(now != version)
        #expect(cache.page("default\u{0}/stories/1", at: now) == nil, "a commit drops what was kept")
        // This server's own change, said with changed(), drops pages at the next request.
        cache.keep(ByteBuffer(string: "page"), as: "k", at: now)
        try fixture.library.setFirstName("Ana", profile: "default")
        cache.changed()
        #expect(cache.page("k", at: cache.settle()) == nil)
    }

    @Test("bounded: past the limit, everything is dropped and kept anew")
    func bounded() throws {
        let fixture = try Fixture()
        let cache = PageCache(fixture.library, limit: 100)
        let version = cache.settle()
        cache.keep(ByteBuffer(repeating: 1, count: 60), as: "a", at: version)
        cache.keep(ByteBuffer(repeating: 2, count: 60), as: "b", at: version)
        #expect(cache.page("a", at: version) == nil)
        #expect(cache.page("b", at: version)?.readableBytes == 60)
    }
}
#endif
