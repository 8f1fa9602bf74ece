import Foundation
import TestSupport

/// A keeper and a reader over story repositories on a local git daemon: each in a library of
/// its own under a temporary folder, GitHub's API pointed at a closed port (nothing leaves the
/// machine). The catalogue suites share it.
protocol CatalogueWorld {
    var home: TemporaryFolder { get }
    var git: TestGitServer { get }
}

extension CatalogueWorld {
    var keeperEnvironment: [String: String] { ["CYD_HOME": home.path("keeper"), "GITHUB_API_URL": "http://127.0.0.1:9"] }
    var readerEnvironment: [String: String] { ["CYD_HOME": home.path("reader"), "GITHUB_API_URL": "http://127.0.0.1:9"] }

    /// cyd as the keeper.
    func keep(_ arguments: String...) throws -> CommandResult { try Command.cyd(arguments, environment: keeperEnvironment) }
    /// cyd as the reader.
    func read(_ arguments: String...) throws -> CommandResult { try Command.cyd(arguments, environment: readerEnvironment) }

    static func story(_ title: String) -> [UInt8] { TestStory.twoChapters(title: title).bytes }
    static var readme: [UInt8] { Array("# A story\n\n#ChooseYourDestiny\n".utf8) }

    /// authors.json listing each author's repositories.
    func writeAuthors(_ authors: [(String, [String])]) throws -> String {
        let entries = authors.map { name, repos in #"{ "name": "\#(name)", "repos": [\#(repos.map { "\"\($0)\"" }.joined(separator: ", "))] }"# }
        return try home.write("authors.json", "{ \"authors\": [ \(entries.joined(separator: ", ")) ] }\n").path
    }
}
