import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Tests/Support/forge_server.py on 127.0.0.1: a stand-in for GitHub's REST API (from a config
/// the test writes), smart HTTP git through `git http-backend` over a `TestGitServer`'s
/// repositories, and a port that accepts connections and never answers.
public final class TestForge: @unchecked Sendable {
    public let port: Int
    public let stallPort: Int
    public let configPath: String
    private let server: ChildProcess

    public struct Repository: Sendable {
        public var name: String
        public var cloneURL: String
        public var pushedAt: String
        public var readme: String?
        public var fork: Bool
        public var size: Int

        public init(name: String, cloneURL: String, pushedAt: String = "2026-01-01T00:00:00Z", readme: String?, fork: Bool = false, size: Int = 12) {
            self.name = name
            self.cloneURL = cloneURL
            self.pushedAt = pushedAt
            self.readme = readme
            self.fork = fork
            self.size = size
        }
    }

    public init(serving git: TestGitServer) throws {
        configPath = git.root.appendingPathComponent("forge.json").path
        try Self.write(users: [:], pageSize: 100, rateLimited: false, to: configPath)
        server = try ChildProcess(
            [
                "python3", TestHTTPServer.packageRoot.appendingPathComponent("Tests/Support/forge_server.py").path, configPath,
                git.root.appendingPathComponent("served").path,
            ], errors: .inherited)
        let ports = (server.readLine() ?? "").split(separator: " ").compactMap { Int($0) }
        guard ports.count == 2 else { throw TestSupportError("the forge stand-in did not start") }
        port = ports[0]
        stallPort = ports[1]
    }

    deinit {
        // Closing its input ends it (and the git http-backend children it waits for).
        server.closeInput()
        server.wait()
    }

    /// What the API stand-in answers from now on.
    public func configure(users: [String: [Repository]], pageSize: Int = 100, rateLimited: Bool = false) throws {
        try Self.write(users: users, pageSize: pageSize, rateLimited: rateLimited, to: configPath)
    }

    static func write(users: [String: [Repository]], pageSize: Int, rateLimited: Bool, to configPath: String) throws {
        let config: [String: Any] = [
            "users": users.mapValues { repos in
                repos.map { repo -> [String: Any] in
                    ["name": repo.name, "clone_url": repo.cloneURL, "pushed_at": repo.pushedAt, "readme": repo.readme ?? NSNull(),
                     "fork": repo.fork, "size": repo.size]
                }
            },
            "page_size": pageSize, "rate_limited": rateLimited,
        ]
        let data = try JSONSerialization.data(withJSONObject: config)
        try data.write(to: URL(fileURLWithPath: configPath + ".new"))
        guard rename(configPath + ".new", configPath) == 0 else { throw TestSupportError("cannot write \(configPath)") }
    }

    public var apiURL: String { "http://127.0.0.1:\(port)" }
    /// Smart HTTP URL of a repository published on the git server.
    public func httpURL(_ name: String) -> String { "http://127.0.0.1:\(port)/git/\(name).git" }
    /// A git:// URL whose server accepts and then says nothing.
    public var stalledURL: String { "git://127.0.0.1:\(stallPort)/silent.git" }

    /// Requests that matched `key`, e.g. "GET /users/alice/repos", "304 /users/alice/repos",
    /// "POST /git/tide.git/git-upload-pack".
    public func count(_ key: String) throws -> Int {
        let escaped = key.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? key
        let answer = try TestHTTPServer.ask(port: port, path: "/_count?key=\(escaped)")
        guard let count = Int(answer) else { throw TestSupportError("unexpected answer: \(answer)") }
        return count
    }
}
