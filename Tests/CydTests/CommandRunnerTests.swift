import Foundation
import Testing

/// The harness every command test runs through: it must survive what a child does.
@Suite("Running commands in tests")
struct CommandRunnerTests {
    @Test("a child that exits without reading its input leaves the test runner alive, with the child's status")
    func childClosingItsInput() throws {
        // 1 MiB is more than a pipe holds, so the write meets the closed pipe (EPIPE), which
        // used to raise SIGPIPE and end the whole test process in silence.
        let result = try Command.run(URL(fileURLWithPath: "/bin/sh"), ["-c", "exit 3"], input: String(repeating: "x", count: 1 << 20))
        #expect(result.status == 3)
    }
}
