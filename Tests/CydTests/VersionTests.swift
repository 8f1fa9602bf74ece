import Foundation
import Testing

@Suite struct VersionTests {
    @Test("cyd --version names cyd and the libgit2, libcurl and SQLite it runs with")
    func versionNamesTheLibraries() throws {
        let result = try Command.cyd(["--version"])
        #expect(result.status == 0)
        let lines = result.standardOutput.split(separator: "\n").map(String.init)
        #expect(lines.count == 4, "\(result.standardOutput)")
        #expect(lines.first?.hasPrefix("cyd ") == true)
        // The run-time libgit2 is the one the package was built against (pkg-config's).
        let pkgConfig = try Command.run(URL(fileURLWithPath: "/usr/bin/env"), ["pkg-config", "--modversion", "libgit2"])
        let built = pkgConfig.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(lines.contains("libgit2 \(built)"), "\(lines) against pkg-config \(built)")
        let curl = try #require(lines.first { $0.hasPrefix("libcurl ") })
        #expect(curl.range(of: #"^libcurl \d+\.\d+\.\d+ \(.*\)$"#, options: .regularExpression) != nil, "\(curl)")
        let sqlite = try #require(lines.first { $0.hasPrefix("SQLite ") })
        #expect(sqlite.range(of: #"^SQLite 3\.\d+\.\d+$"#, options: .regularExpression) != nil, "\(sqlite)")
    }
}
