/// An example for a rule's description and its generic test. `↓` marks where a finding must
/// point; `⟨FF⟩` stands for the raw byte 0xFF (for invalid UTF-8 and binary files) and
/// `⟨pad:N⟩` for N filler bytes (large files, without holding them in every process).
public struct RuleExample: Sendable {
    /// The file checked: a story.json, or an authors.json when `fileName` says so.
    public let source: String
    public let fileName: String
    /// Other files of the story folder, by path; when non-nil the example is checked as a folder.
    public let folderFiles: [String: String]?
    /// Checked with `--lenient`.
    public let lenient: Bool

    public init(_ source: String, fileName: String = "story.json", folderFiles: [String: String]? = nil, lenient: Bool = false) {
        self.source = source
        self.fileName = fileName
        self.folderFiles = folderFiles
        self.lenient = lenient
    }

    /// A story around the given chapters fragment (the inside of the `chapters` array).
    public static func chapters(_ fragment: String, folderFiles: [String: String]? = nil) -> RuleExample {
        RuleExample(
            """
            {
              "story": {
                "id": "example",
                "name": "An example",
                "rating": "G",
                "summary": "A story made to show one rule",
                "chapters": [
            \(fragment)
                ]
              }
            }
            """, folderFiles: folderFiles)
    }

    /// An authors.json.
    public static func authors(_ source: String) -> RuleExample { RuleExample(source, fileName: "authors.json") }

    /// A folder file that is a symbolic link to `target`, rather than a file.
    public static func link(_ target: String) -> String { linkPrefix + target }
    public static let linkPrefix = "⟨link⟩"

    /// The README every folder example has unless it says otherwise.
    public static let taggedReadme = "# An example\n\nA story for #ChooseYourDestiny readers.\n"

    public static let marker: Character = "↓"

    /// The file's bytes with markers removed, and the byte offset of each marker.
    public var bytesAndMarkers: (bytes: [UInt8], markers: [Int]) { Self.decode(source) }

    public static func decode(_ text: String) -> (bytes: [UInt8], markers: [Int]) {
        var bytes: [UInt8] = []
        var markers: [Int] = []
        var rest = Substring(text)
        while let character = rest.first {
            if character == "⟨", rest.hasPrefix("⟨pad:"), let close = rest.firstIndex(of: "⟩"),
                let count = Int(rest[rest.index(rest.startIndex, offsetBy: 5)..<close])
            {
                bytes.append(contentsOf: repeatElement(UInt8(ascii: "x"), count: count))
                rest = rest[rest.index(after: close)...]
            } else if character == marker {
                markers.append(bytes.count)
                rest = rest.dropFirst()
            } else if character == "⟨", rest.count >= 4, rest.dropFirst(3).first == "⟩",
                let byte = UInt8(String(rest.dropFirst().prefix(2)), radix: 16)
            {
                bytes.append(byte)
                rest = rest.dropFirst(4)
            } else {
                bytes.append(contentsOf: Array(String(character).utf8))
                rest = rest.dropFirst()
            }
        }
        return (bytes, markers)
    }

    /// The example as shown to people (`cyd explain`): markers removed, raw bytes named.
    public var displayText: String { String(source.filter { $0 != "↓" }) }
}
