/// A decoded value together with the node it came from, for pointing at it.
public struct Located<Value: Sendable & Hashable>: Sendable, Hashable {
    public var value: Value
    public var node: Int
    public init(_ value: Value, node: Int) {
        self.value = value
        self.node = node
    }
}

/// A story file as written: every part tied to its node in the JSON document, so checks can
/// point at it. Long texts are not copied; read them through the document when needed.
public struct StorySyntax: Sendable {
    public var document: JSONDocument
    public var storyNode: Int?
    public var id: Located<String>?
    public var name: Located<String>?
    public var rating: Located<String>?
    public var summary: Located<String>?
    public var picPath: Located<String>?
    public var vidPath: Located<String>?
    public var chaptersNode: Int?
    public var chapters: [ChapterSyntax] = []

    public init(document: JSONDocument) { self.document = document }

    /// Nodes of the free text fields a reader sees (titles, summary, chapter text, choice labels).
    public var textNodes: [Int] {
        var nodes: [Int] = []
        nodes.reserveCapacity(chapters.count * 4 + 2)
        for field in [name, summary, rating] { if let field { nodes.append(field.node) } }
        for chapter in chapters {
            if let node = chapter.nameNode { nodes.append(node) }
            if let node = chapter.textNode { nodes.append(node) }
            for choice in chapter.choices { if let node = choice.textNode { nodes.append(node) } }
        }
        return nodes
    }

    /// The plain model, or nil when a required value is missing or has the wrong type.
    public func model() -> Story? {
        guard let id, let name, let rating, let summary, chaptersNode != nil else { return nil }
        var chapters: [Chapter] = []
        chapters.reserveCapacity(self.chapters.count)
        for chapter in self.chapters {
            guard let chapterID = chapter.id, let nameNode = chapter.nameNode, let textNode = chapter.textNode else { return nil }
            var choices: [Choice] = []
            for choice in chapter.choices {
                guard let target = choice.target, let textNode = choice.textNode else { return nil }
                choices.append(Choice(chapterID: target.value, text: document.string(textNode)))
            }
            chapters.append(
                Chapter(
                    id: chapterID.value, name: document.string(nameNode), text: document.string(textNode),
                    isFirstChapter: chapter.isFirstChapter?.value ?? false, isEnding: chapter.isEnding?.value ?? false,
                    picPath: chapter.picPath?.value, vidPath: chapter.vidPath?.value, choices: choices))
        }
        return Story(
            id: id.value, name: name.value, rating: rating.value, summary: summary.value,
            picPath: picPath?.value, vidPath: vidPath?.value, chapters: chapters)
    }
}

public struct ChapterSyntax: Sendable {
    public var node: Int
    /// Position in the `chapters` array.
    public var index: Int
    public var id: Located<String>?
    public var nameNode: Int?
    public var textNode: Int?
    public var isFirstChapter: Located<Bool>?
    public var isEnding: Located<Bool>?
    public var picPath: Located<String>?
    public var vidPath: Located<String>?
    public var choicesNode: Int?
    public var choices: [ChoiceSyntax] = []

    /// "chapter 'cellar'" or, without a usable id, "chapter 3".
    public var label: String {
        if let id, !id.value.isEmpty { return "chapter '\(VisibleText.escape(id.value))'" }
        return "chapter \(index + 1)"
    }
}

public struct ChoiceSyntax: Sendable {
    public var node: Int
    public var index: Int
    public var target: Located<String>?
    public var textNode: Int?
}

/// An `authors.json` file as written.
public struct AuthorsSyntax: Sendable {
    public var document: JSONDocument
    public var authorsNode: Int?
    public var authors: [AuthorSyntax] = []
    public init(document: JSONDocument) { self.document = document }
}

public struct AuthorSyntax: Sendable {
    public var node: Int
    public var index: Int
    public var name: Located<String>?
    /// Extension: the author's story repositories, as git URLs, so discovery needs no search.
    public var repos: [Located<String>] = []
}
