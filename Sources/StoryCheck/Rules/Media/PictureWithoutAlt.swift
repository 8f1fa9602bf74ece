import StoryFormat

enum PictureWithoutAlt: CheckedRule {
    static let checks = DocumentKind.story
    static let description = RuleDescription(
        code: "CYD611", name: "picture-without-alt", category: .media, severity: .note,
        summary: "a chapter picture has no pic_alt saying what it shows",
        rationale: """
            A reader who cannot see the picture (a screen reader, pictures turned off, a picture \
            that does not load) is told its chapter's title instead, which rarely says what the \
            picture shows. `pic_alt` is read by cyd's browser reader (the image's alt text) and \
            by `p` in the terminal reader; readers that do not know the key ignore it. A note, \
            not a warning: many stories' pictures only decorate, and the title is a fair stand-in.
            """,
        triggering: [
            .chapters(#"        { "id": "a", "name": "A", "text": "Hi.", "is_first_chapter": true, "pic_path": ↓"resources/harbour.png" }"#)
        ],
        nonTriggering: [
            .chapters(
                #"        { "id": "a", "name": "A", "text": "Hi.", "is_first_chapter": true, "pic_path": "resources/harbour.png", "pic_alt": "Boats at rest in a grey harbour" }"#
            )
        ])

    static func check(_ context: CheckContext, _ findings: inout Findings) {
        guard let story = context.story else { return }
        for use in story.media where use.isPicture {
            guard let chapter = use.chapter, story.chapters[chapter].picAltNode == nil else { continue }
            findings.add(
                "the picture of \(story.chapters[chapter].label) has no pic_alt",
                help: "add \"pic_alt\": a few words on what the picture shows, for readers who cannot see it", at: use.path.node)
        }
    }
}
