import Foundation
import Testing

/// The JSON Schemas in Schemas/ and cyd's structural rules must agree: every fixture is valid
/// for both or invalid for both. Graph, text and media rules go beyond what a schema can say,
/// so they are left out of cyd's verdict here.
@Suite("Schemas agree with cyd")
struct SchemaAgreementTests {
    static let fixtures = Command.packageRoot.appendingPathComponent("Tests/Fixtures/schema")
    static let beyondSchema = "references,start,graph,media,text,folder,duplicate-author"

    static func files(_ folder: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: fixtures.appendingPathComponent(folder).path)) ?? [])
            .filter { $0.hasSuffix(".json") }.sorted().map { "\(folder)/\($0)" }
    }

    static let all = files("valid") + files("invalid")

    @Test("there are fixtures of both kinds")
    func fixturesExist() {
        #expect(Self.files("valid").count >= 5)
        #expect(Self.files("invalid").count >= 10)
    }

    @Test("check-jsonschema and cyd validate give the same verdict", arguments: all)
    func agree(fixture: String) throws {
        let checker = try #require(Command.which("check-jsonschema"), "check-jsonschema is not installed (pip install check-jsonschema)")
        let path = Self.fixtures.appendingPathComponent(fixture).path
        let schema = fixture.contains("/authors-") ? "Schemas/authors.schema.json" : "Schemas/story.schema.json"
        let expectedValid = fixture.hasPrefix("valid/")
        let schemaResult = try Command.run(checker, ["--schemafile", schema, path])
        let cydResult = try Command.cyd(["validate", "--ignore", Self.beyondSchema, path])
        #expect((schemaResult.status == 0) == expectedValid, "check-jsonschema: \(schemaResult.standardOutput)\(schemaResult.standardError)")
        #expect((cydResult.status == 0) == expectedValid, "cyd: \(cydResult.standardOutput)")
        #expect(cydResult.status != 2)
    }

    @Test("the schemas are themselves valid JSON Schema 2020-12")
    func schemasAreValid() throws {
        let checker = try #require(Command.which("check-jsonschema"))
        for schema in ["Schemas/story.schema.json", "Schemas/authors.schema.json"] {
            let result = try Command.run(checker, ["--check-metaschema", schema])
            #expect(result.status == 0, "\(schema): \(result.standardOutput)")
        }
    }
}
