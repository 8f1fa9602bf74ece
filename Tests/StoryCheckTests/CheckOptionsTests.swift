import StoryCheck
import StoryFormat
import Testing

@Suite("Which findings to keep")
struct CheckOptionsTests {
    @Test("codes, rule names and categories are read from comma-separated lists, spaces ignored; unknown names are told apart")
    func names() {
        #expect(CheckOptions.names(in: ["CYD501, unreachable-chapter", " , structure", ""]) == ["CYD501", "unreachable-chapter", "structure"])
        #expect(CheckOptions.isKnown("CYD302") && CheckOptions.isKnown("structure"))
        #expect(!CheckOptions.isKnown("CYD999") && !CheckOptions.isKnown("nonsense"))
        let options = CheckOptions(select: Set(CheckOptions.names(in: ["cyd302"])))
        #expect(options.keeps(DiagnosticCode(rawValue: "CYD302")) && !options.keeps(DiagnosticCode(rawValue: "CYD101")))
    }
}
