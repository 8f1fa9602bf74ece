import CGit2
import CGit2Stream
import Dispatch

#if canImport(Glibc)
import Glibc
#endif

public struct GitError: Error, Sendable, Equatable, CustomStringConvertible {
    public var code: Int32
    public var message: String
    public var description: String { message }

    /// The last libgit2 error for a failed call; for a network failure under TLS, the timed
    /// stream's own account of it (libgit2 would say only "SSL error").
    static func last(_ code: Int32, _ action: String) -> GitError {
        var detail = git_error_last().map { String(cString: $0.pointee.message) } ?? "error \(code)"
        let network = String(cString: cgit2_stream_last_error())
        if !network.isEmpty, detail.hasPrefix("SSL error") { detail = network }
        cgit2_stream_clear_error()
        return GitError(code: code, message: "\(action): \(detail)")
    }
}

/// How a transfer is going, for progress displays.
public struct GitProgress: Sendable {
    public var receivedObjects: Int
    public var totalObjects: Int
    public var receivedBytes: Int
}

/// A bare git repository in the cache, through libgit2: clone, fetch the default branch without
/// tags, and read files of a commit without a checkout. One thread at a time per repository.
public final class GitRepository: @unchecked Sendable {
    let handle: OpaquePointer
    public let path: String

    private init(handle: OpaquePointer, path: String) {
        self.handle = handle
        self.path = path
    }

    deinit { git_repository_free(handle) }

    /// libgit2 is loaded on first use (a reader who never touches git never maps it), then
    /// wants one global initialisation before anything else; the timed socket stream (the
    /// watchdog for stalled servers) is registered at the same time. Nil when it is loaded;
    /// else why it cannot be.
    static let unavailable: GitError? = {
        guard cgit2_load() == 1 else { return GitError(code: -1, message: "git is not available: \(String(cString: cgit2_load_error()))") }
        git_libgit2_init()
        _ = cgit2_stream_install()
        return nil
    }()

    /// Loads libgit2 on another thread, for a command that needs it only after other work (a
    /// sync opens its library and reads its catalogue first): the loading, about 11 ms of one
    /// core (libgit2 and its dependencies mapped and relocated, its TLS roots read), overlaps that
    /// work instead of following it. A git call made meanwhile waits for it to finish.
    /// `completion` is told, on the loading thread, what the loading found (nil: loaded).
    public static func loadInBackground(completion: (@Sendable (GitError?) -> Void)? = nil) {
        DispatchQueue.global(qos: .userInitiated).async {
            let problem = unavailable
            completion?(problem)
        }
    }

    /// Loads libgit2 unless it is; throws when it cannot be.
    static func load() throws(GitError) {
        if let unavailable { throw unavailable }
    }

    /// How long a connection may take to open, and how long a transfer may go without receiving
    /// or sending a byte before it is abandoned (git://, http:// and https:// remotes). Applies
    /// to connections opened afterwards; defaults 10 s and 30 s.
    public static func setNetworkTimeouts(connectSeconds: Double, stallSeconds: Double) {
        _ = unavailable
        cgit2_stream_set_timeouts(Int32(connectSeconds * 1000), Int32(stallSeconds * 1000))
    }

    /// What one clone, fetch or ls-remote may take from a server, whatever the server does: the
    /// stall timeout says how long silence may last; these bound a server that never stops
    /// (endless refs, an endless pack) or trickles (one byte a second). Enforced in the socket
    /// stream, so libgit2 cannot outlive them.
    public struct Limits: Sendable, Hashable {
        /// The whole operation.
        public var totalSeconds: Double
        /// Everything received from the server.
        public var maximumBytes: Int64
        /// The refs the server advertises before the client asks for anything (10,000 refs
        /// take about 1 MB).
        public var maximumAdvertisementBytes: Int64
        /// Objects a pack may declare (the indexer keeps an entry for each in memory).
        public var maximumObjects: Int
        /// Refs the server may advertise (counted once the advertisement is complete; the bytes
        /// limit above stops one that never completes).
        public var maximumRefs: Int
        /// Abandon a server sending fewer than this many bytes a second ...
        public var lowSpeedBytesPerSecond: Int
        /// ... for this long.
        public var lowSpeedSeconds: Double

        public init(
            totalSeconds: Double, maximumBytes: Int64, maximumAdvertisementBytes: Int64, maximumRefs: Int, maximumObjects: Int,
            lowSpeedBytesPerSecond: Int, lowSpeedSeconds: Double
        ) {
            self.maximumRefs = maximumRefs
            self.maximumObjects = maximumObjects
            self.totalSeconds = totalSeconds
            self.maximumBytes = maximumBytes
            self.maximumAdvertisementBytes = maximumAdvertisementBytes
            self.lowSpeedBytesPerSecond = lowSpeedBytesPerSecond
            self.lowSpeedSeconds = lowSpeedSeconds
        }

        /// 10 minutes, 512 MiB, 10,000 refs in at most 16 MiB, 1 million objects, and at least
        /// 1 KiB/s over any 30 s.
        public static let standard = Limits(
            totalSeconds: 600, maximumBytes: 512 << 20, maximumAdvertisementBytes: 16 << 20, maximumRefs: 10_000, maximumObjects: 1_000_000,
            lowSpeedBytesPerSecond: 1024, lowSpeedSeconds: 30)

        nonisolated(unsafe) public static var current = standard

        var c: cgit2_stream_limits {
            cgit2_stream_limits(
                total_ms: Int32(min(totalSeconds * 1000, Double(Int32.max))), max_bytes: maximumBytes,
                max_advertisement_bytes: maximumAdvertisementBytes, low_speed_bytes_per_second: Int32(lowSpeedBytesPerSecond),
                low_speed_ms: Int32(lowSpeedSeconds * 1000))
        }
    }

    /// Runs `body` with these timeouts for the connections it opens on this thread (libgit2 works
    /// on the calling thread), whatever other threads use. Loads nothing itself: each git call
    /// loads libgit2 if need be, so a sync that first reads a local catalogue does not wait here.
    public static func withNetworkTimeouts<T, E: Error>(connectSeconds: Double, stallSeconds: Double, _ body: () throws(E) -> T) throws(E) -> T {
        cgit2_stream_set_thread_timeouts(Int32(connectSeconds * 1000), Int32(stallSeconds * 1000))
        defer { cgit2_stream_set_thread_timeouts(0, 0) }
        return try body()
    }

    /// Clones `url` bare into `path` (which must not exist yet), lean: a bare repository is made
    /// and the remote's branches fetched straight onto its branches (no remote-tracking copies,
    /// no remote in the config, no tags, no FETCH_HEAD), then HEAD follows the remote's default
    /// branch. Given an empty `templatePath`, none of the sample files a template brings. git's
    /// own clone rewrites the config seven times; this writes it once, which counts when a sync
    /// makes thousands of clones.
    public static func cloneBare(
        _ url: String, to path: String, templatePath: String? = nil, progress: ((GitProgress) -> Bool)? = nil
    ) throws(GitError) -> GitRepository {
        try load()
        var settings = git_repository_init_options()
        git_repository_init_options_init(&settings, UInt32(GIT_REPOSITORY_INIT_OPTIONS_VERSION))
        settings.flags = GIT_REPOSITORY_INIT_BARE.rawValue | GIT_REPOSITORY_INIT_MKPATH.rawValue
            | (templatePath == nil ? 0 : GIT_REPOSITORY_INIT_EXTERNAL_TEMPLATE.rawValue)
        var handle: OpaquePointer?
        let template = templatePath.flatMap { strdup($0) }
        defer { free(template) }
        settings.template_path = template.map { UnsafePointer($0) }
        let code = git_repository_init_ext(&handle, path, &settings)
        guard code == 0, let handle else { throw GitError.last(code, "cannot create a repository at \(path)") }
        let repository = GitRepository(handle: handle, path: path)
        do {
            try repository.fetch(from: url, progress: progress)
        } catch {
            throw error.message.hasPrefix("cannot fetch") ? GitError(code: error.code, message: "cannot clone" + error.message.dropFirst("cannot fetch".count)) : error
        }
        return repository
    }

    public static func open(_ path: String) throws(GitError) -> GitRepository {
        try load()
        var repository: OpaquePointer?
        let code = git_repository_open_bare(&repository, path)
        guard code == 0, let repository else { throw GitError.last(code, "cannot open \(path)") }
        return GitRepository(handle: repository, path: path)
    }

    /// Fetches `url`'s branches onto this repository's branches (force-pushes replace them, and
    /// branches deleted there are deleted here), without tags; HEAD follows the remote's default
    /// branch. Returns the commit of HEAD.
    @discardableResult
    public func fetch(from url: String, progress: ((GitProgress) -> Bool)? = nil) throws(GitError) -> String {
        cgit2_stream_clear_error()
        var remote: OpaquePointer?
        var code = git_remote_create_anonymous(&remote, handle, url)
        guard code == 0, let remote else { throw GitError.last(code, "bad remote \(url)") }
        defer { git_remote_free(remote) }
        var options = git_fetch_options()
        git_fetch_options_init(&options, UInt32(GIT_FETCH_OPTIONS_VERSION))
        options.download_tags = GIT_REMOTE_DOWNLOAD_TAGS_NONE
        options.prune = GIT_FETCH_PRUNE
        options.update_fetchhead = 0
        let box = ProgressBox(progress, maximumObjects: Limits.current.maximumObjects)
        let payload = Unmanaged.passRetained(box)
        defer { payload.release() }
        options.callbacks.transfer_progress = transferProgress
        options.callbacks.payload = payload.toOpaque()
        var refspec: UnsafeMutablePointer<CChar>? = strdup("+refs/heads/*:refs/heads/*")
        defer { free(refspec) }
        let maximumRefs = Limits.current.maximumRefs
        var refCount = 0
        // git_remote_fetch in its steps, so the advertised refs can be counted before anything
        // is downloaded: connect, list, download, update the branches, prune.
        code = withUnsafeMutablePointer(to: &refspec) { pointer in
            var refspecs = git_strarray(strings: pointer, count: 1)
            cgit2_stream_begin_operation(Limits.current.c)
            defer { cgit2_stream_end_operation() }
            var code = git_remote_connect(remote, GIT_DIRECTION_FETCH, &options.callbacks, &options.proxy_opts, &options.custom_headers)
            guard code == 0 else { return code }
            defer { git_remote_disconnect(remote) }
            var heads: UnsafeMutablePointer<UnsafePointer<git_remote_head>?>?
            code = git_remote_ls(&heads, &refCount, remote)
            guard code == 0 else { return code }
            if maximumRefs > 0, refCount > maximumRefs { return -1 }
            code = git_remote_download(remote, &refspecs, &options)
            guard code == 0 else { return code }
            code = git_remote_update_tips(remote, &options.callbacks, 0, GIT_REMOTE_DOWNLOAD_TAGS_NONE, nil)
            guard code == 0 else { return code }
            return git_remote_prune(remote, &options.callbacks)
        }
        if maximumRefs > 0, refCount > maximumRefs {
            throw GitError(code: -1, message: "cannot fetch \(url): the server advertised \(refCount) refs, more than the limit of \(maximumRefs)")
        }
        guard code == 0 else {
            if let objects = box.tooManyObjects {
                throw GitError(code: code, message: "cannot fetch \(url): the server's pack holds \(objects) objects, more than the limit of \(box.maximumObjects)")
            }
            throw box.cancelled ? GitError(code: code, message: "cancelled") : GitError.last(code, "cannot fetch \(url)")
        }
        try followDefaultBranch(of: remote, url)
        return try headCommit()
    }

    /// Points HEAD at the branch the remote's HEAD names (the list of the remote's refs stays
    /// available after the fetch disconnects), rewriting HEAD only when it changes.
    private func followDefaultBranch(of remote: OpaquePointer, _ url: String) throws(GitError) {
        var branch: String?
        var buffer = git_buf()
        if git_remote_default_branch(&buffer, remote) == 0, let pointer = buffer.ptr {
            branch = String(cString: pointer)
        }
        git_buf_dispose(&buffer)
        if branch == nil {
            // A server that does not name it: the branch whose commit is HEAD's.
            var heads: UnsafeMutablePointer<UnsafePointer<git_remote_head>?>?
            var count = 0
            if git_remote_ls(&heads, &count, remote) == 0, let heads {
                let all = (0..<count).compactMap { heads[$0] }
                if let head = all.first(where: { String(cString: $0.pointee.name) == "HEAD" }) {
                    var oid = head.pointee.oid
                    branch = all.first { candidate in
                        var other = candidate.pointee.oid
                        return String(cString: candidate.pointee.name).hasPrefix("refs/heads/") && git_oid_equal(&oid, &other) == 1
                    }.map { String(cString: $0.pointee.name) }
                }
            }
        }
        guard let branch else { throw GitError(code: -1, message: "\(url) has no HEAD (an empty repository?)") }
        var current: OpaquePointer?
        if git_reference_lookup(&current, handle, "HEAD") == 0, let current {
            defer { git_reference_free(current) }
            if let target = git_reference_symbolic_target(current), String(cString: target) == branch { return }
        }
        let code = git_repository_set_head(handle, branch)
        guard code == 0 else { throw GitError.last(code, "cannot point HEAD at \(branch)") }
    }

    /// Whether the repository holds the commit (a hex id).
    public func hasCommit(_ commit: String) -> Bool {
        var oid = git_oid()
        guard git_oid_fromstr(&oid, commit) == 0 else { return false }
        var object: OpaquePointer?
        guard git_object_lookup(&object, handle, &oid, GIT_OBJECT_COMMIT) == 0, let object else { return false }
        git_object_free(object)
        return true
    }

    /// Asks `url` for one commit by its id (servers that allow it: uploadpack.allowReachableSHA1InWant
    /// or allowAnySHA1InWant; GitHub does). Whether the repository holds it afterwards.
    @discardableResult
    public func fetch(commit: String, from url: String) throws(GitError) -> Bool {
        cgit2_stream_clear_error()
        var remote: OpaquePointer?
        let code = git_remote_create_anonymous(&remote, handle, url)
        guard code == 0, let remote else { throw GitError.last(code, "bad remote \(url)") }
        defer { git_remote_free(remote) }
        var options = git_fetch_options()
        git_fetch_options_init(&options, UInt32(GIT_FETCH_OPTIONS_VERSION))
        options.download_tags = GIT_REMOTE_DOWNLOAD_TAGS_NONE
        options.update_fetchhead = 0
        var refspec: UnsafeMutablePointer<CChar>? = strdup(commit)
        defer { free(refspec) }
        let fetched = withUnsafeMutablePointer(to: &refspec) { pointer in
            var refspecs = git_strarray(strings: pointer, count: 1)
            cgit2_stream_begin_operation(Limits.current.c)
            defer { cgit2_stream_end_operation() }
            return git_remote_fetch(remote, &refspecs, &options, nil)
        }
        // A server that refuses the want answers with an error; the commit is then simply not here.
        _ = fetched
        return hasCommit(commit)
    }

    /// The commit HEAD points at.
    public func headCommit() throws(GitError) -> String {
        var oid = git_oid()
        let code = git_reference_name_to_id(&oid, handle, "HEAD")
        guard code == 0 else { throw GitError.last(code, "no HEAD") }
        return Self.hex(oid)
    }

    /// The repository a work tree's folder (or any folder inside it) belongs to, found upward as
    /// git does; nil when the folder is in none.
    public static func containing(_ folder: String) throws(GitError) -> GitRepository? {
        try load()
        var repository: OpaquePointer?
        let code = git_repository_open_ext(&repository, folder, 0, nil)
        if code == GIT_ENOTFOUND.rawValue { return nil }
        guard code == 0, let repository else { throw GitError.last(code, "cannot open the repository of \(folder)") }
        return GitRepository(handle: repository, path: folder)
    }

    /// The work tree's folder, ending in `/`; nil for a bare repository.
    public var workTree: String? { git_repository_workdir(handle).map { String(cString: $0) } }

    /// The commit a revision names (`HEAD~1`, `main`, a hex id, as `git rev-parse` reads it);
    /// nil when it names none.
    public func commit(_ revision: String) -> String? {
        var object: OpaquePointer?
        guard !revision.hasPrefix("-"), !revision.contains(":"), git_revparse_single(&object, handle, revision + "^{commit}") == 0, let object else { return nil }
        defer { git_object_free(object) }
        guard let id = git_object_id(object) else { return nil }
        return Self.hex(id.pointee)
    }

    /// The bytes of the file at `path` in `commit` (a hex id), or nil when there is none.
    public func file(_ path: String, at commit: String) throws(GitError) -> [UInt8]? {
        var object: OpaquePointer?
        let code = git_revparse_single(&object, handle, "\(commit):\(path)")
        if code == GIT_ENOTFOUND.rawValue { return nil }
        guard code == 0, let object else { throw GitError.last(code, "cannot read \(path)") }
        defer { git_object_free(object) }
        guard git_object_type(object) == GIT_OBJECT_BLOB else { return nil }
        let size = Int(git_blob_rawsize(object))
        guard let content = git_blob_rawcontent(object) else { return [] }
        return Array(UnsafeBufferPointer(start: content.assumingMemoryBound(to: UInt8.self), count: size))
    }

    /// The commit of a remote's HEAD, without cloning (ls-remote).
    public static func remoteHead(_ url: String) throws(GitError) -> String {
        try load()
        cgit2_stream_clear_error()
        var remote: OpaquePointer?
        var code = git_remote_create_detached(&remote, url)
        guard code == 0, let remote else { throw GitError.last(code, "bad remote \(url)") }
        defer { git_remote_free(remote) }
        var callbacks = git_remote_callbacks()
        git_remote_init_callbacks(&callbacks, UInt32(GIT_REMOTE_CALLBACKS_VERSION))
        cgit2_stream_begin_operation(Limits.current.c)
        defer { cgit2_stream_end_operation() }
        code = git_remote_connect(remote, GIT_DIRECTION_FETCH, &callbacks, nil, nil)
        guard code == 0 else { throw GitError.last(code, "cannot reach \(url)") }
        defer { git_remote_disconnect(remote) }
        var heads: UnsafeMutablePointer<UnsafePointer<git_remote_head>?>?
        var count = 0
        code = git_remote_ls(&heads, &count, remote)
        guard code == 0, let heads else { throw GitError.last(code, "cannot list \(url)") }
        let maximumRefs = Limits.current.maximumRefs
        if maximumRefs > 0, count > maximumRefs {
            throw GitError(code: -1, message: "cannot list \(url): the server advertised \(count) refs, more than the limit of \(maximumRefs)")
        }
        for index in 0..<count {
            guard let head = heads[index] else { continue }
            if String(cString: head.pointee.name) == "HEAD" { return hex(head.pointee.oid) }
        }
        throw GitError(code: -1, message: "\(url) has no HEAD (an empty repository?)")
    }

    static func hex(_ oid: git_oid) -> String {
        var oid = oid
        var buffer = [CChar](repeating: 0, count: 41)
        git_oid_tostr(&buffer, buffer.count, &oid)
        return buffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    }
}

/// Carries a progress closure through libgit2's C callback; returning false cancels.
private final class ProgressBox {
    let handler: ((GitProgress) -> Bool)?
    let maximumObjects: Int
    var cancelled = false
    /// The objects a pack declared when that was over the limit.
    var tooManyObjects: Int?
    init(_ handler: ((GitProgress) -> Bool)?, maximumObjects: Int) {
        self.handler = handler
        self.maximumObjects = maximumObjects
    }
}

private let transferProgress: git_indexer_progress_cb = { stats, payload in
    guard let stats, let payload else { return 0 }
    let box = Unmanaged<ProgressBox>.fromOpaque(payload).takeUnretainedValue()
    // A pack declares its object count first: one that declares too many is refused at once.
    if box.maximumObjects > 0, Int(stats.pointee.total_objects) > box.maximumObjects {
        box.tooManyObjects = Int(stats.pointee.total_objects)
        return -1
    }
    guard let handler = box.handler else { return 0 }
    let progress = GitProgress(
        receivedObjects: Int(stats.pointee.received_objects), totalObjects: Int(stats.pointee.total_objects),
        receivedBytes: Int(stats.pointee.received_bytes))
    if handler(progress) { return 0 }
    box.cancelled = true
    return -1
}
