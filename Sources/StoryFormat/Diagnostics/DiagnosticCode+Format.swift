/// Codes found while reading a file (StoryFormat). The rest of the codes belong to the checks in
/// StoryCheck; every code has a rule description there.
extension DiagnosticCode {
    // Syntax: 1xx
    public static let invalidJSON: Self = "CYD101"
    public static let trailingComma: Self = "CYD102"
    public static let comment: Self = "CYD103"
    public static let invalidUTF8: Self = "CYD104"
    public static let nestingTooDeep: Self = "CYD105"
    public static let duplicateKey: Self = "CYD106"
    public static let unescapedControlCharacter: Self = "CYD107"
    public static let emptyFile: Self = "CYD108"
    public static let fileTooLarge: Self = "CYD109"

    // Structure: 2xx
    public static let missingKey: Self = "CYD201"
    public static let wrongType: Self = "CYD202"
    public static let emptyValue: Self = "CYD203"
    public static let unknownKey: Self = "CYD204"
    public static let noChapters: Self = "CYD205"
    public static let twineValue: Self = "CYD206"
}
