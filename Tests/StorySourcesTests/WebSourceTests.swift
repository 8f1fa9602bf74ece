import Foundation
import StoryReader
import StorySources
import StoryStore
import TestSupport
import Testing
import Transport

@Suite("Stories and pictures over https (libcurl, against a TLS server on 127.0.0.1)")
struct WebSourceTests {
    @Test("an https story.json is downloaded and imported; its pictures come from beside it, redirects followed; 404, stall and oversize fail with reasons")
    func storyAndPictures() throws {
        let certificate = try TestCertificate()
        let files = try TemporaryFolder()
        let server = try TestHTTPServer(tls: certificate, files: files.url.path)
        try FileManager.default.createDirectory(atPath: files.url.path + "/tide/resources", withIntermediateDirectories: true)
        let png = try #require(FileManager.default.contents(atPath: TestHTTPServer.packageRoot.path + "/Stories/seven-stairs/resources/stairs.png"))
        try png.write(to: URL(fileURLWithPath: files.url.path + "/tide/resources/first light.png"))
        let pictures = [
            "resources/first light.png", server.url("/redirect/2"), server.url("/status/404"), server.url("/stall/30"), server.url("/big/12000000"),
        ]
        let story = TestStory(
            id: "tide", summary: "Over https",
            chapters: pictures.enumerated().map { index, picture in
                TestStory.Chapter(
                    "c\(index)", name: "C\(index)", text: "Text \(index).", choices: index + 1 < pictures.count ? [("c\(index + 1)", "On")] : [],
                    isFirst: index == 0, picture: picture)
            })
        try Data(story.bytes).write(to: URL(fileURLWithPath: files.url.path + "/tide/story.json"))

        let home = try TemporaryFolder()
        let library = try StoryLibrary(location: LibraryLocation(home: home.url.path))
        let url = server.url("/files/tide/story.json")
        let importer = StoryImporter(library: library, certificateAuthorities: certificate.certificate)
        let result = try importer.add(url)
        #expect(result.change == .added && result.story.title == "Tide" && result.story.source == StorySource(kind: .url, location: url))
        #expect(try importer.add(url).change == .unchanged)

        var context = SourceContext(location: library.location, certificateAuthorities: certificate.certificate)
        context.stallSeconds = 2
        let fetcher = PictureFetcher(library: library, source: LibraryPictures(context: context))
        func fetch(_ path: String) -> PictureState {
            _ = fetcher.request(path, of: result.story)
            return fetcher.wait(path, of: result.story, timeout: 30)
        }
        guard case .ready(let beside) = fetch(pictures[0]) else { Issue.record("the repository picture was not fetched"); return }
        #expect(beside.data == [UInt8](png))
        #expect(try server.count("/files/tide/resources/first%20light.png") == 1, "the path is percent-encoded")
        guard case .ready = fetch(pictures[1]) else { Issue.record("the redirect was not followed"); return }
        #expect(fetch(pictures[2]) == .failed(path: pictures[2], reason: "the server answered 404"))
        let started = Date()
        guard case .failed(_, let stallReason) = fetch(pictures[3]) else { Issue.record("the stall did not fail"); return }
        #expect(stallReason.contains("timed out"))
        #expect(Date().timeIntervalSince(started) < 20)
        guard case .failed(_, let bigReason) = fetch(pictures[4]) else { Issue.record("the oversized picture did not fail"); return }
        #expect(bigReason.contains("larger than the limit"))
    }

    @Test("plain http is refused except to this machine")
    func plainHTTP() throws {
        #expect(try Sources.recognise("https://example.com/tide/story.json?raw=1").kind == .url)
        #expect(try Sources.recognise("https://example.com/alice/tide.git").kind == .git)
        #expect(try Sources.recognise("http://127.0.0.1:8080/story.json").kind == .url)
        #expect(throws: SourceError.self) { try Sources.recognise("http://example.com/story.json") }
        let home = try TemporaryFolder()
        let library = try StoryLibrary(location: LibraryLocation(home: home.url.path))
        #expect {
            try StoryImporter(library: library).add("http://example.com/story.json")
        } throws: { error in
            guard case SourceError.plainHTTP = error else { return false }
            return true
        }
    }
}
