import StoryFormat

/// A `twine` object (what `cyd import twee` and `cyd import twine` keep of Twine's data) holding
/// a value Twine cannot take: `cyd export` could not write it where Twine reads it. Found while
/// the story is read (`TwineFacts.check`).
enum TwineValue: Rule {
    static let description = RuleDescription(
        code: .twineValue, name: "twine-value", category: .structure, severity: .warning,
        summary: "a value in a twine object that Twine cannot take, which an export to Twine cannot give it",
        rationale: """
            The `twine` objects keep what Twine knows of a story and its passages, so that an \
            export to Twine gives it back. A position or size that is not "x,y", a tag with a \
            space or one that makes a passage code (`script`, `widget`...), a zoom that is not a \
            positive number, or a member Twine has no place for cannot be written where Twine \
            reads it: the export lays the passage out, leaves the tag off, or keeps the value only \
            in cyd's metadata passage. Readers ignore `twine` objects, so this never fails a story.
            """,
        triggering: [
            .chapters(#"        { "id": "start", "name": "Start", "text": "Go.", "is_first_chapter": true, "twine": { "position": ↓"left" } }"#),
            .chapters(#"        { "id": "start", "name": "Start", "text": "Go.", "is_first_chapter": true, "twine": { "tags": [↓"my tag"] } }"#),
        ],
        nonTriggering: [
            .chapters(
                #"        { "id": "start", "name": "Start", "text": "Go.", "is_first_chapter": true, "twine": { "tags": ["start", "beach"], "position": "600,400", "size": "100,200" } }"#
            )
        ])
}
