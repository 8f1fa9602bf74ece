import StoryFormat

/// The keeper's health report beside a published catalogue (`report.html`: no script, one
/// table, readable without styles) and the badges authors put in their READMEs. Every string
/// goes through `HTML`.
public enum CatalogueReport {
    /// How a row or badge reads at a glance.
    public enum Tone: Sendable { case good, warning, bad, neutral }

    public struct Row: Sendable {
        public var id: String
        public var url: String
        public var title: String
        /// "valid", "2 warnings", "broken since 2026-11-24 10:00 UTC", ...
        public var state: String
        public var tone: Tone
        public var detail: String
        public var commit: String
        public var findings: String
        public var changed: String

        public init(id: String, url: String, title: String, state: String, tone: Tone, detail: String, commit: String, findings: String, changed: String) {
            (self.id, self.url, self.title, self.state, self.tone) = (id, url, title, state, tone)
            (self.detail, self.commit, self.findings, self.changed) = (detail, commit, findings, changed)
        }
    }

    /// The report's style, written into the page: report.html travels alone.
    static let style = """
        body { font: 16px/1.5 system-ui, sans-serif; margin: 1rem auto; max-width: 70rem; padding: 0 1rem; color: #1a1a1a; background: #fff; }
        .scroll { overflow-x: auto; }
        table { border-collapse: collapse; width: 100%; }
        th, td { text-align: left; padding: .35rem .5rem; border-bottom: 1px solid #ccc; vertical-align: top; }
        .good { color: #1d6b2f; } .warning { color: #7a4d00; } .bad { color: #a3161a; } .neutral { color: #444; }
        code { font-size: .9em; overflow-wrap: anywhere; }
        @media (prefers-color-scheme: dark) { body { color: #eee; background: #121212; } th, td { border-color: #555; }
          .good { color: #7fd88f; } .warning { color: #f0c36b; } .bad { color: #ff8a8a; } .neutral { color: #ccc; } }
        """

    public static func page(name: String, summary: String, generated: String, rows: [Row]) -> String {
        var html = """
            <h1>\(HTML.text(name)): catalogue health</h1>
            <p>\(HTML.text(summary))</p>
            <p>Generated \(HTML.text(generated)). Each story's badge is at <code>badges/AUTHOR/REPOSITORY.svg</code>.</p>
            <div class="scroll" role="region" aria-label="Stories" tabindex="0">
            <table>
            <caption>Every story repository, its state and the version readers get</caption>
            <thead><tr><th scope="col">Story</th><th scope="col">State</th><th scope="col">Version offered</th><th scope="col">Findings</th><th scope="col">Last change</th></tr></thead>
            <tbody>

            """
        for row in rows {
            let tone = switch row.tone { case .good: "good"; case .warning: "warning"; case .bad: "bad"; case .neutral: "neutral" }
            html += "<tr><th scope=\"row\">\(HTML.text(row.id))<br>\(HTML.text(row.title))</th>"
            html += "<td class=\"\(tone)\">\(HTML.text(row.state))\(row.detail.isEmpty ? "" : "<br>" + HTML.text(row.detail))</td>"
            html += "<td><code>\(HTML.text(row.commit))</code></td><td>\(HTML.text(row.findings))</td><td>\(HTML.text(row.changed))</td></tr>\n"
        }
        html += "</tbody>\n</table>\n</div>"
        let layout = PageLayout(style: .inline(style), referrer: "no-referrer", followsColorScheme: true, skipLink: nil)
        return layout.document(title: "\(name): catalogue health", header: nil, main: html)
    }

    /// A flat badge: "cyd | MESSAGE", the message on the tone's colour (contrast at least 4.5:1
    /// with white text), widths from a fixed advance per character.
    public static func badge(message: String, tone: Tone) -> String {
        let label = "cyd"
        let color = switch tone { case .good: "#1d6b2f"; case .warning: "#8a5a00"; case .bad: "#a3161a"; case .neutral: "#555555" }
        func width(_ text: String) -> Int { 10 + 7 * text.count }
        let (left, right) = (width(label), width(message))
        let total = left + right
        let text = HTML.attribute(message)
        return """
            <svg xmlns="http://www.w3.org/2000/svg" width="\(total)" height="20" role="img" aria-label="\(label): \(text)">
            <title>\(label): \(HTML.text(message))</title>
            <rect width="\(left)" height="20" fill="#333333"/>
            <rect x="\(left)" width="\(right)" height="20" fill="\(color)"/>
            <g fill="#ffffff" font-family="DejaVu Sans,Verdana,Geneva,sans-serif" font-size="11" text-anchor="middle">
            <text x="\(left / 2)" y="14">\(label)</text>
            <text x="\(left + right / 2)" y="14">\(HTML.text(message))</text>
            </g>
            </svg>

            """
    }
}
