import Foundation
import StoryCheck
import StoryFormat
import TestSupport
import Testing

/// Large files are mapped and their pages given back behind each pass; the findings must be
/// exactly those of the same bytes read into memory.
@Suite("Mapped story files")
struct MappedFileTests {
    @Test("a flawed 20 MB story validates the same mapped as in memory, finding for finding")
    func mappedEqualsInMemory() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("flawed.json")
        let script = TestHTTPServer.packageRoot.appendingPathComponent("scripts/generate-story.py").path
        let generated = try ChildProcess.run(["python3", script, "26000", path, "--flaws", "520"])
        #expect(generated.status == 0, "\(generated.standardError)")

        let target = try ValidationTarget.resolve(path)
        let source = try target.source()
        #expect(source.isMapped && source.count >= SourceBytes.mappingThreshold, "the test file must be large enough to be mapped")
        let mapped = Checker.check(bytes: source, path: path, options: CheckOptions())
        let inMemory = Checker.check(bytes: try LocalFileBytes.read(path), path: path, options: CheckOptions())
        let a = mapped.flatMap(\.diagnostics)
        let b = inMemory.flatMap(\.diagnostics)
        #expect(a.count == b.count && a.count > 1000, "\(a.count) findings mapped, \(b.count) in memory")
        #expect(a.map(\.code) == b.map(\.code))
        #expect(a.map(\.range) == b.map(\.range))
        #expect(a.map(\.message) == b.map(\.message))
        #expect(a.map(\.pointer) == b.map(\.pointer))
        // Rendered findings (positions, excerpts) agree too.
        #expect(ReportFormat.json.render(mapped, style: .plain) == ReportFormat.json.render(inMemory, style: .plain))
        #expect(ReportFormat.text.render(mapped, style: .plain, maximumPerRule: 20) == ReportFormat.text.render(inMemory, style: .plain, maximumPerRule: 20))
    }

    @Test("a mapped story is made into the same model as in memory, and the file's pages go back as it is made: the file and the model are not both held whole")
    func modelGivesThePagesBack() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("story.json")
        let script = TestHTTPServer.packageRoot.appendingPathComponent("scripts/generate-story.py").path
        let generated = try ChildProcess.run(["python3", script, "26000", path])
        #expect(generated.status == 0, "\(generated.standardError)")
        let source = try ValidationTarget.resolve(path).source()
        let mapping = try #require(source.mapping, "the test file must be large enough to be mapped")
        let syntax = try #require(LoadedFile.asReadersRead(source).story)
        let model = StoryJSON.model(syntax)
        let after = try Residency.resident(mapping)
        #expect(after < SourceBytes.step * 3, "\(after) of \(mapping.length) bytes still resident after the model was made")
        let inMemory = try #require(LoadedFile.asReadersRead(SourceBytes(try LocalFileBytes.read(path))).story)
        #expect(model != nil && model == StoryJSON.model(inMemory))
    }
}

enum LocalFileBytes {
    static func read(_ path: String) throws -> [UInt8] { [UInt8](try Data(contentsOf: URL(fileURLWithPath: path))) }
}
