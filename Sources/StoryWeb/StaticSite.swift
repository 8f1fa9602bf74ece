#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import LocalFiles
import InterfaceWords
import StoryFormat

/// Where a picture of a story comes from when its site is built.
public enum SitePicture: Sendable, Equatable {
    /// The picture's bytes (a file of the story, or fetched): copied beside the pages, named by
    /// a hash of its content, so a changed picture is a new file and caches never go stale.
    case bytes([UInt8])
    /// A picture left where it is (an https URL): the page links to it.
    case link(String)
    /// No picture to be had: the page shows none.
    case missing
}

/// A story as the site holds it: the story, its folder in the site, a page per chapter and
/// where each picture is.
public struct SiteStory: Sendable {
    public var story: Story
    /// The story's folder in the site (made from its id, unique in the site).
    public var folder: String
    /// Chapter id → its page's file name, inside `folder`.
    public var pages: [String: String]
    /// `pic_path` → what a page's `src` says (`pictures/HASH.png`, or an https URL).
    public var pictures: [String: String]
    /// Picture files to write: name inside `folder` → bytes.
    var pictureFiles: [(name: String, bytes: [UInt8])]
    /// The language of a translation's folder; nil for the story as written.
    public var language: String? = nil
    /// Where this browser keeps the reader's place: the folder of the story as written, so the
    /// place, the endings found and the name are one in every language.
    public var placeKey: String = ""
    /// The story as written and each translation, with their folders (for the language switch).
    public var versions: [(language: String?, folder: String)] = []
    /// cyd's words on its pages: a translation's language first, then the site's.
    public var words: Phrasebook = .english

    func page(of chapterID: String) -> String { pages[chapterID] ?? "index.html" }
}

/// A story to put in a site: its pictures, and its translations (each a folder of its own with
/// the same page names, and a switch between them on every page).
public struct SiteEntry: Sendable {
    public var story: Story
    public var pictures: [String: SitePicture]
    public var translations: [(language: String, story: Story)]

    public init(story: Story, pictures: [String: SitePicture], translations: [(language: String, story: Story)] = []) {
        self.story = story
        self.pictures = pictures
        self.translations = translations
    }
}

/// A static site of stories: HTML pages that need no server, the site's stylesheet, script and
/// service worker, and each story's pictures. The site is files only, so any static host serves it.
public enum StaticSite {
    public enum Failure: Error, Sendable, Equatable {
        /// The site's folder, or one inside it, could not be made.
        case folder(path: String, reason: String)
        case file(path: String, AtomicFile.Failure)
    }

    /// Decides every name in the site: folders for stories, pages for chapters, files for pictures.
    /// `pictures` says, for each story (same order), where each of its `pic_path` values comes from.
    public static func plan(_ stories: [(story: Story, pictures: [String: SitePicture])]) -> [SiteStory] {
        plan(stories.map { SiteEntry(story: $0.story, pictures: $0.pictures) })
    }

    /// The plan of a site whose stories may have translations: each story as written, then its
    /// translations, in the order given.
    /// `words`: the site's own words (its list of stories, and each story as written); a
    /// translation's pages are in its language where cyd's words are translated into it.
    public static func plan(_ entries: [SiteEntry], words: Phrasebook = .english) -> [SiteStory] {
        var folders = UniqueNames(reserved: ["index", "cyd", "sw", "offline", "manifest", "icon-192", "icon-512"])
        var planned: [SiteStory] = []
        for entry in entries {
            var original = plan(entry.story, pictures: entry.pictures, folders: &folders)
            original.placeKey = original.folder
            original.words = words
            var group = [original]
            for (language, story) in entry.translations {
                var translated = original
                translated.story = story
                translated.language = language
                translated.words = words.first(language)
                translated.folder = folders.claim(slug(entry.story.id + "-" + language, fallback: "story-" + language))
                group.append(translated)
            }
            let versions = group.map { (language: $0.language, folder: $0.folder) }
            planned += group.map { site in
                var site = site
                site.versions = versions
                return site
            }
        }
        return planned
    }

    private static func plan(_ story: Story, pictures: [String: SitePicture], folders: inout UniqueNames) -> SiteStory {
        let folder = folders.claim(slug(story.id, fallback: "story"))
        var pageNames = UniqueNames(reserved: ["index", "offline", "pictures"])
        var pages: [String: String] = [:]
        for chapter in story.chapters where pages[chapter.id] == nil {  // a duplicated id: the first wins, as readers do
            pages[chapter.id] = pageNames.claim(slug(chapter.id, fallback: "chapter")) + ".html"
        }
        var sources: [String: String] = [:]
        var files: [(name: String, bytes: [UInt8])] = []
        for (path, source) in pictures.sorted(by: { $0.key < $1.key }) {
            switch source {
            case .bytes(let bytes):
                let name = "pictures/" + hex(FNV1a.hash(bytes)) + "." + pictureExtension(bytes)
                if !files.contains(where: { $0.name == name }) { files.append((name, bytes)) }
                sources[path] = name
            case .link(let url):
                sources[path] = url
            case .missing:
                break
            }
        }
        return SiteStory(story: story, folder: folder, pages: pages, pictures: sources, pictureFiles: files)
    }

    /// Every file of the site: relative path → bytes.
    public static func files(_ stories: [SiteStory], words: Phrasebook = .english) -> [(path: String, bytes: [UInt8])] {
        var files: [(path: String, bytes: [UInt8])] = [
            ("index.html", Array(WebPages.library(stories.filter { $0.language == nil }, words: words).utf8)),
            ("cyd.css", Array(SiteAssets.stylesheet.utf8)),
            ("cyd.js", Array(SiteAssets.script.utf8)),
            ("sw.js", Array(SiteAssets.serviceWorker.utf8)),
            ("offline.html", Array(WebPages.offline(words: words).utf8)),
            ("manifest.webmanifest", Array(SiteIcon.manifest().utf8)),
        ] + SiteIcon.sizes.map { (SiteIcon.fileName($0), SiteIcon.png(size: $0)) }
        for site in stories {
            var offline = ["index.html"]
            files.append((site.folder + "/index.html", Array(WebPages.story(site).utf8)))
            var written = Set<String>()
            for chapter in site.story.chapters where written.insert(chapter.id).inserted {
                let page = site.page(of: chapter.id)
                files.append((site.folder + "/" + page, Array(WebPages.chapter(chapter, of: site).utf8)))
                offline.append(page)
            }
            for picture in site.pictureFiles {
                files.append((site.folder + "/" + picture.name, picture.bytes))
                offline.append(picture.name)
            }
            // What the service worker keeps for reading offline once the story has been opened.
            let list = JSONValue.object(["files": .array(offline.map { .string($0) })])
            files.append((site.folder + "/offline.json", Array(list.encoded.utf8)))
        }
        return files
    }

    /// The list of files a build wrote, kept in the site so the next build knows its own files.
    public static let manifestName = "cyd-site.json"

    /// Writes the site into `folder` (made if missing), each file whole (a reader of the site
    /// never sees half a page), then removes the files an earlier build wrote (as its manifest
    /// lists them) that this one does not make: a chapter taken out of a story leaves no page
    /// behind. Files the manifest does not list (the host's own, a CNAME) are never touched.
    /// Returns the paths removed, relative to `folder`.
    @discardableResult
    public static func write(_ stories: [SiteStory], to folder: String, words: Phrasebook = .english) throws(Failure) -> [String] {
        let earlier = previousFiles(in: folder)
        let written = files(stories, words: words)
        for (path, bytes) in written {
            let target = folder + "/" + path
            try makeFolders(AtomicFile.parentFolder(of: target))
            do {
                try AtomicFile.write(bytes, to: target)
            } catch {
                throw .file(path: target, error)
            }
        }
        let names = written.map(\.path)
        let manifest = JSONValue.object(["files": .array(names.map { .string($0) })])
        do {
            try AtomicFile.write(Array(manifest.encoded.utf8), to: folder + "/" + manifestName)
        } catch {
            throw .file(path: folder + "/" + manifestName, error)
        }
        let kept = Set(names + [manifestName])
        var removed: [String] = []
        for path in earlier.sorted() where !kept.contains(path) {
            let target = folder + "/" + path
            guard FileStatus(target)?.isRegularFile == true, LocalFile.containment(of: target, inside: folder) == .inside, unlink(target) == 0 else { continue }
            removed.append(path)
            // A story's folder left empty goes too.
            let parent = AtomicFile.parentFolder(of: target)
            if parent != folder { _ = rmdir(parent) }
        }
        return removed
    }

    /// The files the manifest of an earlier build lists: relative paths that stay inside the site
    /// (no `..`, no leading `/`); none when there is no manifest or it cannot be read.
    static func previousFiles(in folder: String) -> Set<String> {
        guard let bytes = try? LocalFile.read(folder + "/" + manifestName, limit: 16 * 1024 * 1024),
            case .object(let members)? = JSONValue.parse(bytes),
            case .array(let entries)? = members.first(where: { $0.0 == "files" })?.1
        else { return [] }
        var paths = Set<String>()
        for case .string(let path) in entries {
            let parts = path.split(separator: "/", omittingEmptySubsequences: false)
            guard !path.isEmpty, !path.hasPrefix("/"), parts.allSatisfy({ !$0.isEmpty && $0 != "." && $0 != ".." }) else { continue }
            paths.insert(path)
        }
        return paths
    }

    private static func makeFolders(_ path: String) throws(Failure) {
        if FileStatus(path)?.isDirectory == true { return }
        let parent = AtomicFile.parentFolder(of: path)
        if parent != path, !parent.isEmpty { try makeFolders(parent) }
        if mkdir(path, 0o755) != 0 && errno != EEXIST {
            throw .folder(path: path, reason: LocalFile.reason(errno))
        }
        guard FileStatus(path)?.isDirectory == true else { throw .folder(path: path, reason: "it is not a folder") }
    }

    /// A name for a file or folder: the id itself when it is short plain ASCII, else `x-` and a
    /// hash of it (an id may hold anything: slashes, dots, spaces, any script).
    static func slug(_ id: String, fallback: String) -> String {
        let plain = !id.isEmpty && id.utf8.count <= 80 && id.utf8.allSatisfy { byte in
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_")
        }
        return plain ? id : "x-" + hex(FNV1a.hash(Array(id.utf8)))
    }

    static func hex(_ value: UInt64) -> String { Hex.digits(value, width: 16, upper: false) }

    static func pictureExtension(_ bytes: [UInt8]) -> String {
        PictureFormat.detect(Array(bytes.prefix(12)))?.fileExtension ?? "bin"
    }
}

/// Names unique in one folder, compared without case (a site may be copied to a file system
/// that ignores case).
struct UniqueNames {
    private var taken: Set<String>

    init(reserved: Set<String>) { taken = Set(reserved.map { $0.lowercased() }) }

    mutating func claim(_ wanted: String) -> String {
        var name = wanted
        var number = 2
        while !taken.insert(name.lowercased()).inserted {
            name = "\(wanted)-\(number)"
            number += 1
        }
        return name
    }
}
