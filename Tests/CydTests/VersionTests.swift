import Foundation
import Testing

@Suite struct VersionTests {
    @Test("cyd --version names cyd, the libgit2, libcurl and SQLite it runs with, and the features it was built with")
    func versionNamesTheLibraries() throws {
        let result = try Command.cyd(["--version"])
        #expect(result.status == 0)
        let lines = result.standardOutput.split(separator: "\n").map(String.init)
        #expect(lines.count == 5, "\(result.standardOutput)")
        #expect(lines.last == "features: BrowserReader (cyd serve)", "the test build has the browser reader: \(result.standardOutput)")
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

    @Test("the installed and the static cyd are built with the browser reader: every documented command is in them")
    func installedBuildsHaveEveryCommand() throws {
        for script in ["scripts/install-cyd.sh", "scripts/build-static.sh"] {
            let text = try String(contentsOf: Command.packageRoot.appendingPathComponent(script), encoding: .utf8)
            let builds = text.split(separator: "\n").filter { $0.contains("swift build -c release") }
            #expect(!builds.isEmpty, "\(script) builds cyd")
            for line in builds { #expect(line.contains("--traits BrowserReader"), "\(script): \(line)") }
        }
    }
}
