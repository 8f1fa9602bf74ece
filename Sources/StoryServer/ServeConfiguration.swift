// The browser reader is built with the package trait BrowserReader only.
#if BrowserReader
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import LocalFiles
import StoryTranslation

/// Which language the served reader shows stories in.
public enum LanguageChoice: Sendable, Equatable, Hashable {
    /// As the author wrote them.
    case original
    /// In this language where a story has a translation into it (the best match of its
    /// languages), else as written.
    case language(String)

    /// `original`, or a well-formed language tag; nil for anything else.
    public init?(_ value: String) {
        if value == "original" {
            self = .original
        } else if value.utf8.count <= 35, LanguageTag.isWellFormed(LanguageTag.normalise(value)) {
            self = .language(LanguageTag.normalise(value))
        } else {
            return nil
        }
    }

    /// As a cookie and a form carry it.
    public var value: String {
        switch self {
        case .original: "original"
        case .language(let tag): tag
        }
    }
}

/// How `cyd serve` is reached and by whom.
public struct ServeConfiguration: Sendable {
    /// Who may read.
    public enum Access: Sendable, Equatable {
        /// Only this machine (the server listens on a loopback address).
        case loopback
        /// Anyone on the network who has the token: it comes in the URL once, then in a cookie.
        case token(String)
    }

    public var host: String
    /// 0 picks a free port (the one bound is given to `onStarted`).
    public var port: Int
    public var access: Access
    /// The profile a browser reads as until it picks another (`--profile`).
    public var defaultProfile: String
    /// Seconds a client has to send a whole request (headers and body), and to start the next
    /// one on a kept-alive connection; a slower client is disconnected.
    public var requestDeadline: Double
    /// Certificate authorities for fetching pictures and catalogue stories over https.
    public var certificateAuthorities: String?
    /// Words for a failure the library or a source reports (the command line owns them).
    public var describe: @Sendable (any Error) -> String
    /// The command line's own words that pages quote (its commands and flags).
    public var words: Words
    /// The language stories are shown in until a reader chooses on the page; nil
    /// follows each browser's languages (Accept-Language).
    public var language: LanguageChoice?

    /// Sentences naming the command line's commands and flags, which pages show and only the
    /// command line may word.
    public struct Words: Sendable {
        /// Who started the server, for "the link ... printed when it started" ("cyd serve").
        public var server: String
        /// How a story leaves the library from a terminal ("cyd remove").
        public var removal: String
        /// How the catalogue is fetched ("cyd sync").
        public var catalogueFetch: String
        /// How a terminal reader picks a profile ("--profile").
        public var profileOption: String

        public init(server: String, removal: String, catalogueFetch: String, profileOption: String) {
            self.server = server
            self.removal = removal
            self.catalogueFetch = catalogueFetch
            self.profileOption = profileOption
        }
    }

    public init(
        host: String = "127.0.0.1", port: Int = 8080, access: Access = .loopback, defaultProfile: String = "default",
        requestDeadline: Double = 10, certificateAuthorities: String? = nil, words: Words, describe: @escaping @Sendable (any Error) -> String,
        language: LanguageChoice? = nil
    ) {
        self.language = language
        self.words = words
        self.host = host
        self.port = port
        self.access = access
        self.defaultProfile = defaultProfile
        self.requestDeadline = requestDeadline
        self.certificateAuthorities = certificateAuthorities
        self.describe = describe
    }

    /// Whether `host` is a loopback address (127.0.0.0/8, ::1, localhost).
    public static func isLoopback(_ host: String) -> Bool {
        host == "localhost" || host == "::1" || host == "[::1]" || host.hasPrefix("127.")
    }
}

/// The LAN access token, kept in the library folder (`serve-token`, readable by its owner only) so
/// that a phone given the link once keeps working across restarts.
public enum ServeToken {
    public enum Failure: Error, Sendable, Equatable {
        /// The file could not be read or made (`errno`'s reason).
        case cannotKeep(path: String, reason: String)
        /// It exists but does not hold a token (edited by hand?): removing it makes a new one.
        case unreadable(path: String)
    }

    public static func path(in folder: String) -> String { folder + "/" + fileName }

    public static let fileName = "serve-token"

    /// A new token in place of the one kept in `folder` (made when there is none): links and
    /// browsers given the old one are refused from now on. The file is replaced whole, readable
    /// by its owner only, and never over something that is not a regular file.
    public static func renew(in folder: String, file: String = fileName) throws(Failure) -> String {
        let path = folder + "/" + file
        let token = Forms.secret()
        do {
            try AtomicFile.write(Array((token + "\n").utf8), to: path, mode: 0o600)
        } catch {
            throw .cannotKeep(path: path, reason: String(describing: error))
        }
        return token
    }

    /// The token kept in `folder` (as `file`), made on first use.
    public static func load(in folder: String, file: String = fileName) throws(Failure) -> String {
        let path = folder + "/" + file
        if FileStatus(path) != nil {
            let bytes: [UInt8]
            do { bytes = try LocalFile.read(path, limit: 4096) } catch { throw .cannotKeep(path: path, reason: String(describing: error)) }
            let token = String(decoding: bytes, as: UTF8.self).filter { !$0.isWhitespace }
            guard token.count >= 32, token.allSatisfy({ $0.isHexDigit }) else { throw .unreadable(path: path) }
            return token
        }
        let token = Forms.secret()
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            // Another server made it at the same moment: that one is the key.
            if errno == EEXIST { return try load(in: folder, file: file) }
            throw .cannotKeep(path: path, reason: LocalFile.reason(errno))
        }
        defer { close(fd) }
        let bytes = Array((token + "\n").utf8)
        let written = bytes.withUnsafeBytes { POSIX.writeAll(fd, $0) }
        guard written == 0, fsync(fd) == 0 else {
            let reason = LocalFile.reason(errno)
            unlink(path)
            throw .cannotKeep(path: path, reason: reason)
        }
        return token
    }
}
#endif
