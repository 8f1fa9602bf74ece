import Foundation
import TestSupport
import Testing

/// The editor set-up docs/editors-and-ci.md shows, run in a real editor: Debian's Neovim (0.7.2
/// here), headless, with the guide's own `init.lua` block.
@Suite("Editor set-ups from the guide")
struct EditorSetupTests {
    /// The Lua block that follows the guide's "**Neovim**" paragraph.
    static func neovimConfiguration() throws -> String {
        let readme = try String(contentsOf: Command.packageRoot.appendingPathComponent("docs/editors-and-ci.md"), encoding: .utf8)
        let section = try #require(readme.range(of: "**Neovim**"), "docs/editors-and-ci.md has a Neovim set-up")
        let rest = readme[section.upperBound...]
        let start = try #require(rest.range(of: "```lua\n"))
        let end = try #require(rest[start.upperBound...].range(of: "```"))
        return String(rest[start.upperBound..<end.lowerBound])
    }

    @Test("Neovim with the guide's init.lua shows cyd's diagnostics for a story.json")
    func neovim() throws {
        let nvim = try #require(Command.which("nvim"), "Neovim is installed by scripts/install-deps.sh")
        let folder = try TemporaryFolder()
        try folder.write("init.lua", try Self.neovimConfiguration())
        try folder.write("story/story.json", """
            { "story": { "id": "s", "name": "S", "rating": "G", "summary": "s",
              "chapters": [ { "id": "a", "name": "A", "text": "T", "is_first_chapter": true,
                "choices": [ { "chapter_id": "nowhere", "text": "On" } ] } ] } }

            """)
        let out = folder.path("diagnostics.txt")
        let report = """
            lua local out = {} for _, d in ipairs(vim.diagnostic.get(0)) do table.insert(out, (d.lnum + 1) .. ":" .. (d.col + 1) .. " " .. tostring(d.code)) end vim.fn.writefile(out, "\(out)")
            """
        let result = try Command.run(
            try Command.program("timeout"),
            ["60", nvim.path, "--headless", "-u", folder.path("init.lua"), "-c", "lua vim.wait(20000, function() return #vim.diagnostic.get(0) > 0 end)",
             "-c", report, "-c", "qa!", folder.path("story/story.json")],
            environment: ["PATH": Command.cyd.deletingLastPathComponent().path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"),
                          "HOME": folder.path("home"), "XDG_STATE_HOME": folder.path("state"), "XDG_DATA_HOME": folder.path("data")])
        #expect(result.status == 0, "\(result.standardError)")
        let shown = (try? String(contentsOfFile: out, encoding: .utf8)) ?? ""
        #expect(shown.contains("3:34 CYD302"), "the dangling choice, at its line and column: \(shown)")
    }
}
