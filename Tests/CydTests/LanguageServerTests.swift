import Foundation
import Testing

/// `cyd lsp` driven by a real LSP client: the pytest-lsp suite in Tests/LSP, run against the
/// cyd these tests built. scripts/install-deps.sh installs pytest-lsp.
@Suite struct LanguageServerTests {
    @Test func theLanguageServerPassesItsClientDrivenSuite() throws {
        let result = try Command.run(
            URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-m", "pytest", "-q", "-s", "-p", "no:cacheprovider", "Tests/LSP"],
            environment: ["CYD_BINARY": Command.cyd.path])
        #expect(result.status == 0, "pytest-lsp suite failed:\n\(result.standardOutput)\n\(result.standardError)")
        #expect(result.standardOutput.contains("passed"), "\(result.standardOutput)")
    }
}
