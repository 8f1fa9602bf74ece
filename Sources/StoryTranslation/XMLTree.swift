import StoryFormat

/// Just enough XML for XLIFF: elements, attributes, text, character and the five named
/// references, CDATA, comments and processing instructions, each element with its line. A
/// DOCTYPE is refused (XLIFF has none, and entity declarations are how XML files attack readers).
struct XMLElement: Sendable {
    /// The local name, without its prefix.
    var name: String
    var attributes: [String: String]
    var children: [XMLNode]
    var line: Int
    var offset: Int

    func attribute(_ name: String) -> String? { attributes[name] }
    var elements: [XMLElement] { children.compactMap { if case .element(let element) = $0 { element } else { nil } } }
    func first(_ name: String) -> XMLElement? { elements.first { $0.name == name } }
    func all(_ name: String) -> [XMLElement] { elements.filter { $0.name == name } }
}

enum XMLNode: Sendable {
    case element(XMLElement)
    case text(String)
}

struct XMLSyntaxError: Error, Sendable, Equatable {
    var line: Int
    var column: Int
    var offset: Int
    var message: String
}

struct XMLReader {
    let bytes: [UInt8]
    var position = 0
    var line = 1
    var lineStart = 0
    /// Elements deeper than this are refused (a file of nested elements must not exhaust the stack).
    static let maximumDepth = 64

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    static func parse(_ bytes: [UInt8]) throws(XMLSyntaxError) -> XMLElement {
        var reader = XMLReader(bytes)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { reader.position = 3 }
        try reader.skipMisc()
        guard reader.peek == UInt8(ascii: "<") else { throw reader.error("the file does not start with an XML element") }
        let root = try reader.element(depth: 0)
        try reader.skipMisc()
        guard reader.position >= bytes.count else { throw reader.error("text after the root element <\(root.name)> has ended") }
        return root
    }

    var peek: UInt8? { position < bytes.count ? bytes[position] : nil }

    func error(_ message: String) -> XMLSyntaxError {
        XMLSyntaxError(line: line, column: LineIndex.column(of: position, lineStart: lineStart, in: bytes), offset: position, message: message)
    }

    mutating func advance(_ count: Int = 1) {
        for _ in 0..<count where position < bytes.count {
            if bytes[position] == 0x0A {
                line += 1
                lineStart = position + 1
            }
            position += 1
        }
    }

    func starts(with text: String) -> Bool {
        let utf8 = Array(text.utf8)
        return position + utf8.count <= bytes.count && Array(bytes[position..<(position + utf8.count)]) == utf8
    }

    mutating func skip(past terminator: String, what: String) throws(XMLSyntaxError) {
        let start = error("")
        let utf8 = Array(terminator.utf8)
        while position < bytes.count {
            if bytes[position] == utf8[0], starts(with: terminator) {
                advance(utf8.count)
                return
            }
            advance()
        }
        throw XMLSyntaxError(line: start.line, column: start.column, offset: start.offset, message: "\(what) is never closed")
    }

    mutating func skipSpace() {
        while let byte = peek, byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D { advance() }
    }

    /// Spaces, comments and processing instructions between elements.
    mutating func skipMisc() throws(XMLSyntaxError) {
        while true {
            skipSpace()
            if starts(with: "<?") {
                try skip(past: "?>", what: "a processing instruction")
            } else if starts(with: "<!--") {
                try skip(past: "-->", what: "a comment")
            } else if starts(with: "<!DOCTYPE") || starts(with: "<!doctype") {
                throw error("a DOCTYPE is not read here; XLIFF files have none (remove it)")
            } else {
                return
            }
        }
    }

    mutating func name() throws(XMLSyntaxError) -> String {
        let start = position
        while let byte = peek, !(byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D || byte == UInt8(ascii: ">") || byte == UInt8(ascii: "/") || byte == UInt8(ascii: "=")) {
            advance()
        }
        guard position > start, let text = String(validating: bytes[start..<position], as: UTF8.self) else { throw error("a name was expected here") }
        return text
    }

    static func local(_ name: String) -> String {
        guard let colon = name.lastIndex(of: ":") else { return name }
        return String(name[name.index(after: colon)...])
    }

    mutating func element(depth: Int) throws(XMLSyntaxError) -> XMLElement {
        guard depth < Self.maximumDepth else { throw error("elements are nested more than \(Self.maximumDepth) deep") }
        let line = line
        let offset = position
        advance()  // <
        let qualified = try name()
        var attributes: [String: String] = [:]
        while true {
            skipSpace()
            guard let byte = peek else { throw error("the file ends inside the tag <\(qualified)>") }
            if byte == UInt8(ascii: "/") {
                advance()
                guard peek == UInt8(ascii: ">") else { throw error("'>' was expected after '/'") }
                advance()
                return XMLElement(name: Self.local(qualified), attributes: attributes, children: [], line: line, offset: offset)
            }
            if byte == UInt8(ascii: ">") {
                advance()
                break
            }
            let attribute = try name()
            skipSpace()
            guard peek == UInt8(ascii: "=") else { throw error("'=' was expected after the attribute \(attribute)") }
            advance()
            skipSpace()
            guard let quote = peek, quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") else {
                throw error("the value of \(attribute) must be in quotes")
            }
            advance()
            let value = try text(until: quote)
            advance()
            attributes[attribute.hasPrefix("xml:") ? attribute : Self.local(attribute)] = value
        }
        var children: [XMLNode] = []
        while true {
            guard position < bytes.count else { throw error("the file ends before </\(qualified)>") }
            if starts(with: "</") {
                advance(2)
                let closing = try name()
                skipSpace()
                guard closing == qualified else { throw error("</\(closing)> closes <\(qualified)>, opened on line \(line)") }
                guard peek == UInt8(ascii: ">") else { throw error("'>' was expected") }
                advance()
                return XMLElement(name: Self.local(qualified), attributes: attributes, children: children, line: line, offset: offset)
            }
            if starts(with: "<!--") {
                try skip(past: "-->", what: "a comment")
            } else if starts(with: "<![CDATA[") {
                advance(9)
                let start = position
                try skip(past: "]]>", what: "a CDATA section")
                guard let text = String(validating: bytes[start..<(position - 3)], as: UTF8.self) else { throw error("the file is not UTF-8") }
                children.append(.text(text))
            } else if starts(with: "<?") {
                try skip(past: "?>", what: "a processing instruction")
            } else if peek == UInt8(ascii: "<") {
                children.append(.element(try element(depth: depth + 1)))
            } else {
                children.append(.text(try text(until: UInt8(ascii: "<"))))
            }
        }
    }

    /// Text up to (not including) `terminator`, references replaced.
    mutating func text(until terminator: UInt8) throws(XMLSyntaxError) -> String {
        var result: [UInt8] = []
        while let byte = peek, byte != terminator {
            if byte == UInt8(ascii: "&") {
                let (start, startLine, startLineStart) = (position, line, lineStart)
                while let next = peek, next != UInt8(ascii: ";"), position - start < 12 { advance() }
                guard peek == UInt8(ascii: ";") else {
                    // Said where the '&' is: back to its line too (the look ahead may have passed a line break).
                    (position, line, lineStart) = (start, startLine, startLineStart)
                    throw error("'&' starts a reference that is never ended with ';' (write &amp; for '&')")
                }
                let reference = String(decoding: bytes[(start + 1)..<position], as: UTF8.self)
                advance()
                let scalar: Unicode.Scalar?
                switch reference {
                case "lt": scalar = "<"
                case "gt": scalar = ">"
                case "amp": scalar = "&"
                case "quot": scalar = "\""
                case "apos": scalar = "'"
                default:
                    if reference.hasPrefix("#x") || reference.hasPrefix("#X") {
                        scalar = UInt32(reference.dropFirst(2), radix: 16).flatMap(Unicode.Scalar.init)
                    } else if reference.hasPrefix("#") {
                        scalar = UInt32(reference.dropFirst()).flatMap(Unicode.Scalar.init)
                    } else {
                        scalar = nil
                    }
                }
                guard let scalar else { throw error("unknown reference &\(reference);") }
                result += Array(String(scalar).utf8)
                continue
            }
            result.append(byte)
            advance()
        }
        guard peek == terminator else { throw error("the file ends inside a value") }
        guard let text = String(validating: result, as: UTF8.self) else { throw error("the file is not UTF-8") }
        return text
    }
}

enum XMLText {
    /// Text for an element's content or an attribute: the five specials as references
    /// (StoryFormat's `MarkupText`, the one table of them); in an attribute a line break too, so
    /// it survives attribute-value normalisation.
    static func escape(_ text: String, attribute: Bool = false) -> String {
        let escaped = MarkupText.escaped(text)
        return attribute && escaped.utf8.contains(0x0A) ? escaped.replacing("\n", with: "&#10;") : escaped
    }
}
