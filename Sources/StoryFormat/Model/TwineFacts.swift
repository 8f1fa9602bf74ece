/// What Twine and its story formats make of the values a `twine` object holds (`Story.twine`,
/// `Chapter.twine`): one place for the validator, which warns about a value Twine cannot take,
/// and for the import and export, which keep and write them.
public enum TwineFacts {
    /// Passage tags that make a passage code for a story format (Twine's and the formats' own).
    public static let codeTags: Set<String> = [
        "script", "stylesheet", "header", "footer", "startup", "debug-header", "debug-footer", "debug-startup", "widget", "init",
    ]

    /// "x,y" of two decimal numbers (`600,400`, `-12.5,30`), as Twine writes a position or a size.
    public static func isPair(_ text: String) -> Bool {
        let parts = text.utf8.split(separator: 0x2C, omittingEmptySubsequences: false)
        guard parts.count == 2 else { return false }
        return parts.allSatisfy { part in
            let unsigned = part.first == 0x2D ? part.dropFirst() : part
            let pieces = unsigned.split(separator: 0x2E, omittingEmptySubsequences: false)
            return pieces.count <= 2 && pieces.allSatisfy { !$0.isEmpty && $0.allSatisfy { $0 >= 0x30 && $0 <= 0x39 } }
        }
    }

    /// Whether a text can be a passage's tag: not empty, no white space (Twine separates tags by spaces).
    public static func isTag(_ text: String) -> Bool {
        !text.isEmpty && !text.unicodeScalars.contains { $0.properties.isWhitespace }
    }

    // MARK: Checking `twine` objects (CYD206, found while the story is read)

    /// What each member of a story's `twine` object must be.
    enum Expected { case text, positiveNumber, tags, colours }
    static let storyMembers: [String: Expected] = [
        "ifid": .text, "format": .text, "format-version": .text, "zoom": .positiveNumber, "tags": .tags, "options": .text, "tag-colors": .colours,
    ]

    /// A warning for each value of the story's and the chapters' `twine` objects that Twine
    /// cannot take, saying what the export does instead.
    static func check(_ syntax: StorySyntax, into diagnostics: inout [Diagnostic]) {
        let document = syntax.document
        func add(_ message: String, help: String? = nil, at node: Int) {
            diagnostics.append(Diagnostic(code: .twineValue, severity: .warning, message: message, help: help, range: document.range(node), subject: node))
        }
        if let node = syntax.twineNode {
            for (key, value) in document.members(of: node) {
                let name = document.string(key)
                guard let expected = storyMembers[name] else {
                    add("Twine has no '\(VisibleText.escape(name))' for a story: an export to Twine keeps it only in cyd's metadata passage", at: key)
                    continue
                }
                check(value, as: expected, named: name, of: "the story", passage: false, document: document, add)
            }
        }
        for chapter in syntax.chapters {
            guard let node = chapter.node(.twine) else { continue }
            for (key, value) in document.members(of: node) {
                let name = document.string(key)
                switch name {
                case "tags": check(value, as: .tags, named: name, of: chapter.label, passage: true, document: document, add)
                case "position", "size":
                    if document.kind(value) != .string || !isPair(document.string(value)) {
                        add(
                            "the twine \(name) of \(chapter.label) is not \"x,y\": an export to Twine \(name == "position" ? "lays the passage out" : "gives it Twine's 100,100") instead",
                            help: "write two numbers and a comma, such as \"600,400\"", at: value)
                    }
                default:
                    add("Twine has no '\(VisibleText.escape(name))' for a passage: an export to Twine keeps it only in cyd's metadata passage", at: key)
                }
            }
        }
    }

    static func check(
        _ value: Int, as expected: Expected, named name: String, of owner: String, passage: Bool, document: JSONDocument,
        _ add: (String, String?, Int) -> Void
    ) {
        switch expected {
        case .text:
            if document.kind(value) != .string { add("the twine \(name) of \(owner) is not a string: an export to Twine leaves it out", nil, value) }
        case .positiveNumber:
            if document.kind(value) != .number || !(document.number(value).map { $0 > 0 && $0.isFinite } ?? false) {
                add("the twine \(name) of \(owner) is not a positive number: an export to Twine writes 1", nil, value)
            }
        case .tags:
            guard document.kind(value) == .array else {
                add("the twine tags of \(owner) are not an array of tags: an export to Twine leaves them out", nil, value)
                return
            }
            for tag in document.elements(of: value) {
                let text = document.kind(tag) == .string ? document.string(tag) : nil
                if let text, isTag(text) {
                    if passage, codeTags.contains(text) {
                        add("the twine tag '\(VisibleText.escape(text))' of \(owner) would make its passage code in Twine: an export to Twine leaves it off the passage", nil, tag)
                    }
                } else {
                    add("a twine tag of \(owner) is not a word without spaces: an export to Twine leaves it off", "Twine separates tags by spaces", tag)
                }
            }
        case .colours:
            guard document.kind(value) == .object else {
                add("the twine tag-colors of \(owner) are not an object of colours by tag: an export to Twine leaves them out", nil, value)
                return
            }
            for (_, colour) in document.members(of: value) where document.kind(colour) != .string {
                add("a twine tag colour of \(owner) is not a string: an export to Twine leaves it out", nil, colour)
            }
        }
    }
}
