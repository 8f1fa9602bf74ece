import Foundation
import StoryFormat
import StorySources
import StoryStore
import TestSupport
import Testing

/// What `cyd build web` and `cyd export epub` put in a site or a book: every picture a story
/// names, read through the story's own source kind or fetched, each checked to be a picture, and
/// each one that cannot be had left out with its reason.
@Suite("Pictures gathered for a site or a book")
struct PictureGatheringTests {
    @Test("a folder's pictures are read, https ones fetched or linked, and every other one left out with why")
    func gathered() throws {
        let certificate = try TestCertificate()
        let served = try TemporaryFolder()
        let server = try TestHTTPServer(tls: certificate, files: served.url.path)
        let png = try #require(FileManager.default.contents(atPath: TestHTTPServer.packageRoot.path + "/Stories/seven-stairs/resources/stairs.png"))
        _ = try served.write("far.png", [UInt8](png))
        _ = try served.write("page.html", "<p>not a picture</p>")

        let folder = try TemporaryFolder()
        _ = try folder.write("story/resources/near.png", [UInt8](png))
        _ = try folder.write("story/resources/notes.txt", "words")
        _ = try folder.write("secret.png", [UInt8](png))
        _ = try folder.link("story/resources/out.png", to: folder.path("secret.png"))
        let paths = [
            "resources/near.png", "resources/notes.txt", "resources/none.png", "../secret.png", "resources/out.png",
            server.url("/files/far.png"), server.url("/files/page.html"), server.url("/status/404"), "httpsite/p.png", "http://example.com/p.png",
        ]
        let story = TestStory(
            id: "p", summary: "Pictures",
            chapters: paths.enumerated().map { index, path in
                TestStory.Chapter("c\(index)", name: "C\(index)", text: "T.", choices: [], isFirst: index == 0, isEnding: true, picture: path)
            })
        let model = try #require(LoadedFile.load(SourceBytes(story.bytes), options: .init(lenient: true)).story?.model())
        let source = StorySource(kind: .folder, location: try #require(realpath(folder.path("story"), nil)).withString())
        let context = SourceContext(cacheDirectory: folder.path("cache"), certificateAuthorities: certificate.certificate)

        let fetched = PictureGathering(fetch: true, context: context).pictures(of: model, from: source)
        #expect(fetched.count == paths.count)
        func bytes(_ path: String) -> [UInt8]? { if case .bytes(let b) = fetched[path] { b } else { nil } }
        func leftOut(_ path: String) -> PictureGathering.LeftOut? { if case .leftOut(let why) = fetched[path] { why } else { nil } }
        #expect(bytes("resources/near.png") == [UInt8](png))
        #expect(bytes(paths[5]) == [UInt8](png), "fetched over https")
        guard case .notAPicture = leftOut("resources/notes.txt"), case .notAPicture = leftOut(paths[6]) else {
            Issue.record("a file that is not a picture was not left out as one: \(fetched)")
            return
        }
        guard case .noSuchFile = leftOut("resources/none.png") else { Issue.record("\(String(describing: fetched["resources/none.png"]))"); return }
        guard case .unavailable(.pathLeavesStory) = leftOut("../secret.png") else { Issue.record("\(String(describing: fetched["../secret.png"]))"); return }
        guard case .unavailable = leftOut("resources/out.png") else { Issue.record("a link out of the folder was read: \(String(describing: fetched["resources/out.png"]))"); return }
        guard case .unavailable(.httpStatus(_, 404)) = leftOut(paths[7]) else { Issue.record("\(String(describing: fetched[paths[7]]))"); return }
        guard case .notHTTPS = leftOut("httpsite/p.png") else { Issue.record("a link that is not https:// was not refused"); return }
        // As the original reader reads it, an http:// value is a path in the story: there is none.
        guard case .noSuchFile = leftOut("http://example.com/p.png") else { Issue.record("\(String(describing: fetched["http://example.com/p.png"]))"); return }

        // Not fetching: https pictures are linked, and nothing is asked of the server.
        let before = try server.count("/files/far.png")
        let linked = PictureGathering(fetch: false, context: context).pictures(of: model, from: source)
        guard case .link(let url) = linked[paths[5]] else { Issue.record("not linked: \(String(describing: linked[paths[5]]))"); return }
        #expect(url == paths[5])
        #expect(try server.count("/files/far.png") == before)
    }
}

extension UnsafeMutablePointer<CChar> {
    fileprivate func withString() -> String {
        defer { free(self) }
        return String(cString: self)
    }
}
