/// Text for HTML or XML, exactly as written: the five characters markup gives meaning to
/// (`&`, `<`, `>`, `"`, `'`) become character references, nothing else changes. The one table of
/// them, for the browser reader's pages (which also make control characters visible first) and
/// for files other tools read back (a Twine archive), where the text must survive unchanged.
public enum MarkupText {
    public static func escaped(_ value: String) -> String {
        guard value.utf8.contains(where: { $0 == 0x26 || $0 == 0x3C || $0 == 0x3E || $0 == 0x22 || $0 == 0x27 }) else { return value }
        var out = ""
        out.reserveCapacity(value.utf8.count + 16)
        for scalar in value.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
