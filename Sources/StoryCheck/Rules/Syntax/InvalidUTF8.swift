import StoryFormat

enum InvalidUTF8: Rule {
    static let description = RuleDescription(
        code: .invalidUTF8, name: "invalid-utf8", category: .syntax, severity: .error,
        summary: "bytes that are not valid UTF-8",
        rationale: """
            JSON files are UTF-8. A file saved as Latin-1 or Windows-1252 shows garbage or is \
            refused; the finding points at the first bad byte of each sequence. Twee files and \
            Twine archives are UTF-8 too: one that is not (or is UTF-16) is not read at all, \
            since its text would change, and the finding points at its first bad byte.
            """,
        triggering: [
            RuleExample(#"{ "story": { "name": "Caf↓⟨E9⟩" } }"#),
            RuleExample(#"{ "story": { "name": "↓⟨C0⟩⟨AF⟩" } }"#),
        ],
        nonTriggering: [
            RuleExample(#"{ "story": { "name": "Café 🦊 مرحبا" } }"#)
        ])
}
