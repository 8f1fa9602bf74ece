/// What a listing of the library shows: its stories with one reader's progress in each, and,
/// when asked, the catalogue's stories beside them (those not downloaded, and those downloaded
/// with a newer commit waiting). Made from the library and the last sync's catalogue; worded by
/// the caller.
public struct LibraryListing: Sendable {
    /// A story of the library and where the reader is in it.
    public struct Shelved: Sendable {
        public var story: StoryRecord
        /// The title of the reader's chapter; nil when they have not started.
        public var place: String?
        public var endingsFound: Int
        /// The last sync saw a newer commit of its repository.
        public var updateWaiting: Bool
        public var languages: [StoryLanguage]
    }

    /// A story of the catalogue, with its downloaded copy when there is one.
    public struct Available: Sendable {
        public var entry: CatalogueEntry
        public var local: StoryRecord?
        /// Downloaded, at another commit than the catalogue's.
        public var updateAvailable: Bool
    }

    /// Which stories a listing keeps: those whose title or author holds `match` (any case), of
    /// `rating` (any case), and among `ids` when it is given.
    public struct Filter: Sendable {
        public var match: String?
        public var rating: String?
        public var ids: Set<Int64>?

        public init(match: String? = nil, rating: String? = nil, ids: Set<Int64>? = nil) {
            (self.match, self.rating, self.ids) = (match, rating, ids)
        }

        public func keeps(title: String?, author: String?, rating storyRating: String?) -> Bool {
            if let match, !match.isEmpty {
                let needle = match.lowercased()
                guard (title?.lowercased().contains(needle) ?? false) || (author?.lowercased().contains(needle) ?? false) else { return false }
            }
            if let rating, storyRating?.lowercased() != rating.lowercased() { return false }
            return true
        }
    }

    public var stories: [Shelved]
    /// The catalogue's stories (empty unless asked for); `everyEntry` false leaves out those
    /// downloaded and up to date, which the stories list already.
    public var available: [Available]

    /// The library as `profile` sees it, filtered; with `catalogue`, the catalogue's stories too.
    public init(_ library: StoryLibrary, profile: String, filter: Filter, catalogue withCatalogue: Bool, everyEntry: Bool) throws {
        let records = try library.stories().filter { story in
            filter.keeps(title: story.title, author: story.author, rating: story.rating) && (filter.ids?.contains(story.id) ?? true)
        }
        // What the last sync saw of each downloaded story's repository: a newer commit there is
        // an update waiting.
        let catalogue = try library.catalogue().filter { $0.isStory == true }
        let newest = Dictionary(catalogue.compactMap { entry in entry.headCommit.map { (entry.source.key, $0) } }, uniquingKeysWith: { a, _ in a })
        available = []
        if withCatalogue {
            let downloaded = Dictionary(records.map { ($0.source.key, $0) }, uniquingKeysWith: { a, _ in a })
            for entry in catalogue where filter.keeps(title: entry.title, author: entry.author, rating: entry.rating) {
                let local = downloaded[entry.source.key]
                let updateAvailable = local.map { $0.version != entry.headCommit } ?? false
                if local != nil, !updateAvailable, !everyEntry { continue }
                available.append(Available(entry: entry, local: local, updateAvailable: updateAvailable))
            }
        }
        let languages = try library.languagesByStory()
        stories = try records.map { story in
            let progress = try library.progress(profile: profile, story: story)
            return Shelved(
                story: story, place: progress.flatMap { try? library.chapter($0.chapterKey, of: story)?.name },
                endingsFound: try library.endingsFound(profile: profile, story: story).count,
                updateWaiting: newest[story.source.key].map { $0 != story.version } ?? false, languages: languages[story.id] ?? [])
        }
    }
}
