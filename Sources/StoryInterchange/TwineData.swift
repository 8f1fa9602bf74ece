import StoryFormat

/// What Twine knows of a story and its passages that a story.json has no other place for, kept
/// in the story's and the chapters' `twine` objects (`Story.twine`, `Chapter.twine`): how import
/// makes them from a file and how export writes them back.
///
/// The rules that keep cyd's own exports exact. For the story: a file cyd wrote carries, in its
/// metadata passage, the story's own object and what the file said of it when written; import
/// keeps the story's object, changed only where the file now says otherwise. For a passage: in a
/// file cyd wrote, a position at the place cyd lays the passage out at is cyd's, not kept, and a
/// size of 100,100 never is; export reads each passage back by that rule, and the metadata
/// carries any chapter's `twine` object that would not come back the same.
enum TwineData {
    // MARK: The story

    /// StoryData's members that are not Twine's data but the story's own (its first chapter).
    static let storyDataOwn: Set<String> = ["start"]
    /// The member of cyd's metadata passage that says what the file said of the story's Twine
    /// data when cyd wrote it.
    static let writtenKey = "twine_as_written"
    /// Members only a Twine archive has a place for (attributes of `<tw-storydata>`).
    static let archiveOnly: Set<String> = ["tags", "options"]

    /// The story format a story is written for: the one asked for, else the one its `twine`
    /// object names, else Harlowe; with the name and version StoryData declares.
    struct Declared {
        var format: TweeStory.Format
        var name: String
        var version: String
    }

    static func declared(_ story: Story, chosen: TweeStory.Format?) -> Declared {
        let kept = story.twine?["format"]?.string.flatMap { $0.isEmpty ? nil : $0 }
        let keptVersion = story.twine?["format-version"]?.string
        if let chosen {
            // The story's own version where it names the same format.
            let same = kept.map { TweeStory.Format(named: $0) == chosen } ?? false
            return Declared(format: chosen, name: same ? kept! : chosen.rawValue, version: same ? (keptVersion ?? chosen.version) : chosen.version)
        }
        guard let kept else { return Declared(format: .harlowe, name: TweeStory.Format.harlowe.rawValue, version: TweeStory.Format.harlowe.version) }
        // A format cyd does not know (Snowman, a custom one) is declared as it is; the reader's
        // name is written as Harlowe and SugarCube write it, which reads back in any format.
        let known = TweeStory.Format(named: kept)
        return Declared(format: known ?? .harlowe, name: kept, version: keptVersion ?? known?.version ?? "")
    }

    static func ifid(_ story: Story) -> String {
        story.twine?["ifid"]?.string.flatMap { $0.isEmpty ? nil : $0 } ?? TweeStory.ifid(for: story)
    }

    /// The zoom of Twine's story map, as an archive's attribute writes it.
    static func zoom(_ story: Story) -> String {
        guard case .number(let zoom)? = story.twine?["zoom"], zoom.isFinite, zoom > 0 else { return "1" }
        return JSONValue.number(zoom).encoded
    }

    static func tags(_ value: JSONValue?) -> [String] {
        (value?.array ?? []).compactMap { tag in
            guard let tag = tag.string, TwineFacts.isTag(tag) else { return nil }
            return tag
        }
    }

    /// Each tag's colour, in the order written.
    static func tagColors(_ story: Story) -> [(tag: String, color: String)] {
        guard case .object(let members)? = story.twine?["tag-colors"] else { return [] }
        return members.compactMap { member in member.1.string.map { (member.0, $0) } }
    }

    /// StoryData's JSON for `story`: the IFID, format, version and start, then the rest of its
    /// `twine` object that StoryData has a place for.
    static func storyData(_ story: Story, declared: Declared, start: String) -> JSONValue {
        var members: [(String, JSONValue)] = [("ifid", .string(ifid(story))), ("format", .string(declared.name))]
        if !declared.version.isEmpty { members.append(("format-version", .string(declared.version))) }
        members.append(("start", .string(start)))
        if case .object(let kept)? = story.twine {
            let written: Set<String> = ["ifid", "format", "format-version", "start"]
            for (key, value) in kept where !written.contains(key) && !archiveOnly.contains(key) { members.append((key, value)) }
        }
        return .object(members)
    }

    /// An archive's `<tw-storydata>` attributes (and `<tw-tag>` colours) as the members of a
    /// story's `twine` object, in order: what import keeps, and what export says it wrote.
    static func archiveMembers(
        ifid: String?, format: String?, version: String?, zoom: String?, tags: String?, options: String?, colors: [(String, String)]
    ) -> [(String, JSONValue)] {
        var members: [(String, JSONValue)] = []
        if let ifid { members.append(("ifid", .string(ifid))) }
        if let format { members.append(("format", .string(format))) }
        if let version { members.append(("format-version", .string(version))) }
        if let zoom { members.append(("zoom", Double(zoom).flatMap { $0.isFinite ? JSONValue.number($0) : nil } ?? .string(zoom))) }
        if let tags, !tags.isEmpty { members.append(("tags", .array(tags.split(separator: " ").map { .string(String($0)) }))) }
        if let options, !options.isEmpty { members.append(("options", .string(options))) }
        if !colors.isEmpty { members.append(("tag-colors", .object(colors.map { ($0.0, .string($0.1)) }))) }
        return members
    }

    /// What an archive of `story` says of it, as `archiveMembers`.
    static func archiveMembers(_ story: Story, declared: Declared) -> [(String, JSONValue)] {
        archiveMembers(
            ifid: ifid(story), format: declared.name, version: declared.version, zoom: zoom(story), tags: tags(story.twine?["tags"]).joined(separator: " "),
            options: story.twine?["options"]?.string ?? "", colors: tagColors(story).map { ($0.tag, $0.color) })
    }

    /// The story's `twine` object from what the file says of it (StoryData's members, or an
    /// archive's as `archiveMembers`). A file cyd wrote says in its metadata passage what the
    /// story had (`carried`, perhaps nothing) and what the file said when written (`written`):
    /// the story's object stands, with what the author changed in Twine since (a member the
    /// file says otherwise, or no longer says) changed in it.
    static func story(file: [(String, JSONValue)], carried: JSONValue?, written: JSONValue?) -> JSONValue? {
        let said = file.filter { !storyDataOwn.contains($0.0) }
        guard case .object(let wrote)? = written else { return said.isEmpty ? nil : .object(said) }
        var members: [(String, JSONValue)] = []
        var hadObject = false
        if case .object(let kept)? = carried {
            members = kept
            hadObject = true
        }
        for (key, value) in said where !wrote.contains(where: { $0.0 == key && $0.1 == value }) {
            if let at = members.firstIndex(where: { $0.0 == key }) { members[at].1 = value } else { members.append((key, value)) }
        }
        for (key, _) in wrote where !said.contains(where: { $0.0 == key }) { members.removeAll { $0.0 == key } }
        // An object the story had stays one, empty or not.
        return members.isEmpty && !hadObject ? nil : .object(members)
    }

    // MARK: A chapter's passage

    /// Where a passage goes on Twine's story map, and its size, as Twee and archives write them.
    struct Place: Sendable {
        var position: String
        var size: String
    }

    static let defaultSize = "100,100"

    static func laidOut(_ position: (x: Int, y: Int)) -> String { String(position.x) + "," + String(position.y) }

    /// Whether `text` is `laidOut(position)`, compared byte by byte without making that string
    /// (an import asks it of 100,000 passages' positions).
    static func isLaidOut(_ text: String, _ position: (x: Int, y: Int)) -> Bool {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 48) { out in
            var count = DecimalDigits.write(position.x, into: out, at: 0)
            out[count] = 0x2C
            count = DecimalDigits.write(position.y, into: out, at: count + 1)
            return text.utf8.elementsEqual(UnsafeBufferPointer(rebasing: out[..<count]))
        }
    }

    /// The tags a chapter's passage is written with: its `twine` tags that a tag can be (no
    /// spaces) and that would not make the passage code.
    static func passageTags(twine: JSONValue?) -> [String] {
        tags(twine?["tags"]).filter { !TwineFacts.codeTags.contains($0) }
    }

    static func place(twine: JSONValue?, laidOut position: (x: Int, y: Int)) -> Place {
        guard let twine else { return Place(position: laidOut(position), size: defaultSize) }
        let kept = twine["position"]?.string.flatMap { TwineFacts.isPair($0) ? $0 : nil }
        let size = twine["size"]?.string.flatMap { TwineFacts.isPair($0) ? $0 : nil }
        return Place(position: kept ?? laidOut(position), size: size ?? defaultSize)
    }

    /// Twee 3's passage metadata for a place, `{"position":"x,y","size":"w,h"}`, appended.
    static func appendMetadata(_ place: Place, to out: inout [UInt8]) {
        append("{\"position\":\"", to: &out)
        out.append(contentsOf: place.position.utf8)
        append("\",\"size\":\"", to: &out)
        out.append(contentsOf: place.size.utf8)
        append("\"}", to: &out)
    }

    @inline(__always)
    private static func append(_ text: StaticString, to out: inout [UInt8]) {
        text.withUTF8Buffer { out.append(contentsOf: $0) }
    }

    /// A chapter's `twine` object from its passage: its tags, its position (in a file cyd wrote,
    /// only where it is not the place cyd lays it out at: `laidOut`), its size unless 100,100.
    static func chapter(tags: [String], position: String?, size: String?, laidOut: String?) -> JSONValue? {
        var members: [(String, JSONValue)] = []
        if !tags.isEmpty { members.append(("tags", .array(tags.map(JSONValue.string)))) }
        if let position, position != laidOut { members.append(("position", .string(position))) }
        if let size, size != defaultSize { members.append(("size", .string(size))) }
        return members.isEmpty ? nil : .object(members)
    }

    /// A chapter's `twine` object with its position added where `chapter` puts it (after the tags).
    static func adding(position: String, to twine: JSONValue?) -> JSONValue {
        guard case .object(var members)? = twine else { return .object([("position", .string(position))]) }
        members.insert(("position", .string(position)), at: members.first?.0 == "tags" ? 1 : 0)
        return .object(members)
    }

    /// What an import of the passage export writes gives back as the chapter's `twine` object.
    static func readBack(twine: JSONValue?, place: Place, laidOut position: (x: Int, y: Int)) -> JSONValue? {
        Self.chapter(tags: passageTags(twine: twine), position: place.position, size: place.size, laidOut: laidOut(position))
    }

    /// The position and size in Twee 3's passage metadata (`{"position":"600,400","size":"100,200"}`),
    /// the names of other members (which a story does not keep), and whether it is not JSON at
    /// all. The usual form is read by hand; any other goes through the JSON reader.
    struct PassagePlace {
        var position: String?
        var size: String?
        var others: [String] = []
        var unreadable = false
    }

    static func place(metadata: String) -> PassagePlace {
        if let quick = quickPlace(metadata) { return PassagePlace(position: quick.position, size: quick.size) }
        guard case .object(let members)? = JSONValue.parse(Array(metadata.utf8)) else { return PassagePlace(unreadable: true) }
        var place = PassagePlace()
        for (key, value) in members {
            switch key {
            case "position": place.position = value.string
            case "size": place.size = value.string
            default: place.others.append(key)
            }
        }
        return place
    }

    /// `{"key":"value",...}` of plain strings (no escapes, no spaces), or nil.
    static func quickPlace(_ metadata: String) -> (position: String?, size: String?)? {
        var metadata = metadata
        return metadata.withUTF8 { quickPlace($0) }
    }

    static func quickPlace(_ bytes: UnsafeBufferPointer<UInt8>) -> (position: String?, size: String?)? {
        var index = 0
        func quoted() -> String? {
            guard index < bytes.count, bytes[index] == 0x22 else { return nil }
            let start = index + 1
            var end = start
            while end < bytes.count, bytes[end] != 0x22 {
                if bytes[end] == 0x5C || bytes[end] < 0x20 { return nil }
                end += 1
            }
            guard end < bytes.count else { return nil }
            index = end + 1
            return String(decoding: bytes[start..<end], as: UTF8.self)
        }
        guard bytes.first == 0x7B else { return nil }
        index = 1
        var position: String?, size: String?
        while index < bytes.count, bytes[index] != 0x7D {
            guard let key = quoted(), index < bytes.count, bytes[index] == 0x3A else { return nil }
            index += 1
            guard let value = quoted() else { return nil }
            switch key {
            case "position": position = value
            case "size": size = value
            default: return nil
            }
            if index < bytes.count, bytes[index] == 0x2C { index += 1 }
        }
        guard index == bytes.count - 1 else { return nil }
        return (position, size)
    }
}
