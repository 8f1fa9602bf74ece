#if canImport(Glibc)
import Glibc
#endif
import StoryFormat

/// What `cyd serve` says: where to read, and why it cannot listen.
public enum ServeWords {
    /// The links to open: one an address (`hosts` empty: this machine's own), each carrying the
    /// LAN key when there is one.
    public static func links(hosts: [String], port: Int, token: String?) -> [String] {
        (hosts.isEmpty ? ["127.0.0.1"] : hosts).map { name in
            let shown = name.contains(":") ? "[\(name)]" : name
            return token.map { "http://\(shown):\(port)/?token=\($0)" } ?? "http://\(shown):\(port)/"
        }
    }

    /// What the server says once it listens: bundled stories added to an empty library, where to
    /// read (keyed or not, this machine or the network), the QR code drawn, how to stop.
    public static func announcement(links: [String], keyed: Bool, loopback: Bool, added: Int, code: String?) -> String {
        var out = ""
        if added > 0 { out += "The library was empty: added the \(added) bundled \(added == 1 ? "story" : "stories").\n" }
        if keyed, loopback {
            out += "Reading at this machine's own address, with a key. Open this link (it carries the key):\n"
        } else if keyed {
            out += "Reading on the network. Open this link (it carries the key; keep it among people you trust):\n"
        } else {
            out += "Reading at this machine's own address (other machines cannot connect). Open:\n"
        }
        for link in links { out += "  \(link)\n" }
        if let code { out += "\n" + code + "\n" }
        if keyed {
            out += "Anyone with the link can read as any profile of this library (profiles keep places apart; they are not accounts).\n"
            out += "cyd serve --new-key makes a new key; links given before it stop working.\n"
        }
        return out + "Ctrl-C stops the server.\n"
    }

    /// `cyd serve` in a cyd built without the trait.
    public static let builtWithout =
        "this cyd was built without the browser reader; build it with `swift build -c release --traits BrowserReader` (Hummingbird adds a few minutes to the build)"

    public static func badLanguage(_ value: String) -> String {
        "--lang takes a language tag such as fr or pt-BR, or original, not '\(VisibleText.escape(value))'"
    }

    public static func noStoryToPreview(_ folder: String) -> String {
        "\(VisibleText.escape(folder)) holds no story.json to preview (`cyd init` starts one)"
    }

    /// What `cyd preview` says once it listens.
    public static func previewing(_ folder: String, port: Int, polling: Bool) -> String {
        """
        Previewing \(VisibleText.escape(folder)): open http://127.0.0.1:\(port)/
        The page follows every save of story.json, its pictures and translations (\(polling ? "looking every 0.1 s" : "told by the system")); findings are beside each chapter.
        Ctrl-C stops the preview.

        """
    }

    /// Said first when `--new-key` made a new key.
    public static let keyRenewed = "A new key: links and browsers given the old one no longer open this reader.\n"

    /// Why the server cannot listen on `host`:`port` (`code` the errno).
    public static func cannotListen(host: String, port: Int, code: Int32) -> String {
        let reason: String
        switch code {
        case EADDRINUSE: reason = "the port is in use (is another cyd serve running? --listen with another port, or port 0 for any free one)"
        case EADDRNOTAVAIL: reason = "this machine has no such address"
        case EACCES: reason = "ports below 1024 need the administrator; use a port from 1024 up"
        default: reason = String(cString: strerror(code))
        }
        return "cannot listen on \(VisibleText.escape(host)):\(port): \(reason)"
    }

    public static func unknownAddress(_ host: String) -> String {
        "cannot listen on \(VisibleText.escape(host)): it is not an address of this machine (give an IP address such as 0.0.0.0 or 127.0.0.1)"
    }
}
