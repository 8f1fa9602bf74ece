/// XLIFF 2.1 (OASIS), the core only: one `<file>` for story.json, one `<unit>` per string, named
/// by cyd's id, with its context and place as notes. What CAT tools (OmegaT, Trados, memoQ,
/// Weblate) exchange. Fuzzy is `state="initial"` with a target; translated is `translated`.
public enum XLIFF {
    public static let namespace = "urn:oasis:names:tc:xliff:document:2.0"

    static func read(_ bytes: [UInt8]) throws(TranslationReadError) -> TranslationFile {
        let root: XMLElement
        do {
            root = try XMLReader.parse(bytes)
        } catch {
            throw TranslationReadError(line: error.line, column: error.column, offset: error.offset, problem: error.message)
        }
        func fail(_ element: XMLElement, _ problem: String) -> TranslationReadError {
            TranslationReadError(line: element.line, column: 1, offset: element.offset, problem: problem)
        }
        guard root.name == "xliff" else { throw fail(root, "the root element is <\(root.name)>, not <xliff>") }
        guard let version = root.attribute("version"), version.hasPrefix("2.") else {
            throw fail(root, "only XLIFF 2 is read (version=\"2.1\"); this file says version=\"\(root.attribute("version") ?? "")\" (convert XLIFF 1.2 with xliff2po)")
        }
        var entries: [TranslationEntry] = []
        func units(in element: XMLElement) throws(TranslationReadError) {
            for child in element.elements {
                if child.name == "group" {
                    try units(in: child)
                    continue
                }
                guard child.name == "unit" else { continue }
                guard let id = child.attribute("name") ?? child.attribute("id") else { throw fail(child, "a <unit> has no id") }
                let segments = child.all("segment")
                guard !segments.isEmpty else { throw fail(child, "the unit \(id) has no <segment>") }
                var source = ""
                var target = ""
                var hasTarget = false
                var state = "initial"
                var targetOffset = child.offset
                var markup: [String] = []
                for segment in segments {
                    guard let sourceElement = segment.first("source") else { throw fail(segment, "a <segment> of \(id) has no <source>") }
                    source += text(of: sourceElement, markup: &markup)
                    if let targetElement = segment.first("target") {
                        target += text(of: targetElement, markup: &markup)
                        hasTarget = true
                        targetOffset = targetElement.offset
                    }
                    state = segment.attribute("state") ?? state
                }
                var context: String?
                var comments: [String] = []
                for note in child.first("notes")?.all("note") ?? [] {
                    switch note.attribute("category") {
                    case "context": context = text(of: note)
                    case "location", "hint": break
                    default: comments.append(text(of: note))
                    }
                }
                var entry = TranslationEntry(
                    ids: [id], context: context, source: source, translation: hasTarget ? target : "",
                    isFuzzy: hasTarget && !target.isEmpty && state == "initial", comments: comments, offset: child.offset,
                    translationOffset: targetOffset)
                entry.inlineMarkup = markup
                entries.append(entry)
            }
        }
        for file in root.all("file") { try units(in: file) }
        return TranslationFile(format: .xliff, declaredLanguage: root.attribute("trgLang"), languageOffset: root.offset, entries: entries)
    }

    /// An element's text, `<cp hex="..."/>` read as its character, inline codes as their text.
    static func text(of element: XMLElement) -> String {
        var markup: [String] = []
        return text(of: element, markup: &markup)
    }

    /// The same, each other inline element's name added to `markup` (once).
    static func text(of element: XMLElement, markup: inout [String]) -> String {
        var out = ""
        for child in element.children {
            switch child {
            case .text(let text): out += text
            case .element(let inner):
                if inner.name == "cp", let hex = inner.attribute("hex"), let value = UInt32(hex, radix: 16), let scalar = Unicode.Scalar(value) {
                    out.unicodeScalars.append(scalar)
                } else {
                    if !markup.contains(inner.name) { markup.append(inner.name) }
                    out += text(of: inner, markup: &markup)
                }
            }
        }
        return out
    }

    /// Text for XML content: a character XML cannot hold (most control characters) as `<cp/>`.
    static func content(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            let value = scalar.value
            let allowed = value == 0x09 || value == 0x0A || value == 0x0D || (value >= 0x20 && value <= 0xD7FF) || (value >= 0xE000 && value <= 0xFFFD) || value >= 0x10000
            if allowed {
                out += XMLText.escape(String(scalar))
            } else {
                // xs:hexBinary: an even number of digits.
                let hex = String(value, radix: 16, uppercase: true)
                out += "<cp hex=\"\(String(repeating: "0", count: max(0, 4 - hex.count)))\(hex)\"/>"
            }
        }
        return out
    }

    /// Attribute text: characters XML cannot hold are left out (ids and notes never need them).
    static func attribute(_ text: String) -> String {
        XMLText.escape(String(String.UnicodeScalarView(text.unicodeScalars.filter { $0.value >= 0x20 || $0 == "\t" })), attribute: true)
    }

    /// Whether `text` is an XML NMTOKEN (what XLIFF's `id` attributes must be).
    static func isToken(_ text: String) -> Bool {
        !text.isEmpty && text.unicodeScalars.allSatisfy { scalar in
            let value = scalar.value
            return (value >= 0x30 && value <= 0x39) || (value >= 0x41 && value <= 0x5A) || (value >= 0x61 && value <= 0x7A)
                || scalar == "." || scalar == "-" || scalar == "_" || scalar == ":"
                || (value >= 0xC0 && value <= 0x2FF && value != 0xD7 && value != 0xF7)  // XML's NameChar: not × and ÷
        }
    }
}
