import Foundation
import Testing

/// scripts/install-cyd.sh puts cyd, its man page and its completions where a system looks for
/// them, all generated from the argument parser's definitions of the binary it installs.
@Suite struct InstallTests {
    @Test func installsTheBinaryTheManPageAndCompletionsForThreeShells() throws {
        let prefix = FileManager.default.temporaryDirectory.appendingPathComponent("cyd-install-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: prefix) }
        // generate-manual as scripts/test.sh built it beside cyd; else the script builds it in
        // a scratch folder of its own (`swift test` holds the lock on .build).
        let tool = Command.cyd.deletingLastPathComponent().appendingPathComponent("generate-manual")
        let environment = FileManager.default.isExecutableFile(atPath: tool.path)
            ? ["CYD_GENERATE_MANUAL": tool.path] : ["CYD_TOOLS_SCRATCH": Command.packageRoot.appendingPathComponent(".build-tools").path]
        let install = try Command.run(
            URL(fileURLWithPath: "/bin/bash"), ["scripts/install-cyd.sh", "--prefix", prefix.path, "--binary", Command.cyd.path], environment: environment)
        #expect(install.status == 0, "\(install.standardOutput)\(install.standardError)")

        let installed = try Command.run(prefix.appendingPathComponent("bin/cyd"), ["--version"])
        #expect(installed.standardOutput.hasPrefix("cyd "))

        // The man page renders and documents every subcommand, the newest included.
        let page = prefix.appendingPathComponent("share/man/man1/cyd.1")
        let rendered = try Command.run(URL(fileURLWithPath: "/usr/bin/env"), ["groff", "-mandoc", "-Tutf8", "-P-cbou", page.path])
        #expect(rendered.status == 0, "\(rendered.standardError)")
        for command in ["read", "validate", "sync", "lsp", "fix"] {
            #expect(rendered.standardOutput.contains(command), "man page lacks \(command)")
        }

        // bash: sourcing the script defines the completion, and it offers the subcommands.
        let bash = prefix.appendingPathComponent("share/bash-completion/completions/cyd").path
        let completion = try Command.run(
            URL(fileURLWithPath: "/bin/bash"),
            ["-c", "source \(bash); complete -p cyd; COMP_WORDS=(cyd ''); COMP_CWORD=1; COMP_LINE='cyd '; COMP_POINT=4; _cyd; echo \"${COMPREPLY[@]}\""])
        #expect(completion.standardOutput.contains("complete -o filenames -F _cyd cyd"), "\(completion.standardOutput)\(completion.standardError)")
        #expect(completion.standardOutput.contains("validate") && completion.standardOutput.contains("lsp"), "\(completion.standardOutput)")
        // zsh and fish: written, and naming the subcommands (neither shell is installed here to run them).
        let zsh = try String(contentsOf: prefix.appendingPathComponent("share/zsh/site-functions/_cyd"), encoding: .utf8)
        #expect(zsh.hasPrefix("#compdef cyd"))
        let fish = try String(contentsOf: prefix.appendingPathComponent("share/fish/vendor_completions.d/cyd.fish"), encoding: .utf8)
        #expect(fish.contains("lsp") && fish.contains("validate"))
    }
}
