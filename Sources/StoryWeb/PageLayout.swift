/// The one layout every HTML page of ours is made from (the served reader's pages, the static
/// site's, the keeper's report, an EPUB's sections in XHTML): the head (charset, viewport,
/// referrer policy, colour scheme,
/// the stylesheet, a deferred script, a Content-Security-Policy when the page must carry its
/// own), a skip link, the header, an optional live status region, and `main`. Everything a
/// caller passes as text goes through `HTML`; `header` and `main` are markup made the same way.
public struct PageLayout: Sendable {
    /// Where a page's stylesheet comes from.
    public enum Style: Sendable {
        /// A file of the site, linked.
        case linked(String)
        /// Written into the page (a page that travels alone, as the keeper's report does).
        case inline(String)
    }

    public var language = "en"
    public var style: Style
    /// A script of the site's own, loaded deferred; nil for none.
    public var script: String?
    /// The Content-Security-Policy written into the page (a static host sends no headers); nil
    /// when the server sends it as a header.
    public var policyInPage: String?
    /// The referrer policy: what another site learns of the page a link was followed from.
    public var referrer: String
    /// Whether the page follows the reader's light or dark setting.
    public var followsColorScheme: Bool
    /// Words for the skip link; nil for a page with no header to skip.
    public var skipLink: String?
    /// XHTML, as an EPUB holds its pages: the XML declaration, the namespaces, `xml:lang`, void
    /// elements closed; no viewport or referrer (a reading system has neither).
    public var xhtml = false
    /// `<link>`s of the head besides the stylesheet: a favicon, a web app manifest.
    public var links: [(rel: String, href: String, type: String?)] = []

    public init(
        style: Style, script: String? = nil, policyInPage: String? = nil, referrer: String = "no-referrer", followsColorScheme: Bool = false,
        skipLink: String? = "Skip to the story", language: String = "en", xhtml: Bool = false
    ) {
        self.language = language
        self.xhtml = xhtml
        self.style = style
        self.script = script
        self.policyInPage = policyInPage
        self.referrer = referrer
        self.followsColorScheme = followsColorScheme
        self.skipLink = skipLink
    }

    /// A whole document. `header` is the header's inner markup (nil: no header); `status` the
    /// text of a polite live region at the top of `main` (nil: none).
    public func document(title: String, bodyAttributes: [(String, String)] = [], header: String?, status: String? = nil, main: String) -> String {
        let close = xhtml ? "/>" : ">"
        let lang = HTML.attribute(language)
        var head = xhtml
            ? """
                <?xml version="1.0" encoding="UTF-8"?>
                <!DOCTYPE html>
                <html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops" lang="\(lang)" xml:lang="\(lang)">
                <head>
                <meta charset="utf-8"/>

                """
            : """
                <!DOCTYPE html>
                <html lang="\(lang)">
                <head>
                <meta charset="utf-8">
                <meta name="viewport" content="width=device-width, initial-scale=1">

                """
        if let policyInPage { head += "<meta http-equiv=\"Content-Security-Policy\" content=\"\(HTML.attribute(policyInPage))\"\(close)\n" }
        if !xhtml { head += "<meta name=\"referrer\" content=\"\(HTML.attribute(referrer))\">\n" }
        if followsColorScheme { head += "<meta name=\"color-scheme\" content=\"light dark\"\(close)\n" }
        head += "<title>\(HTML.text(title))</title>\n"
        switch style {
        case .linked(let href): head += "<link rel=\"stylesheet\"\(xhtml ? " type=\"text/css\"" : "") href=\"\(HTML.attribute(href))\"\(close)\n"
        case .inline(let css): head += "<style>\n\(css)\n</style>\n"
        }
        for link in links {
            head += "<link rel=\"\(HTML.attribute(link.rel))\" href=\"\(HTML.attribute(link.href))\"\(link.type.map { " type=\"\(HTML.attribute($0))\"" } ?? "")\(close)\n"
        }
        if let script { head += "<script src=\"\(HTML.attribute(script))\" defer></script>\n" }
        let attributes = bodyAttributes.map { " \($0.0)=\"\(HTML.attribute($0.1))\"" }.joined()
        var body = "</head>\n<body\(attributes)>\n"
        if let skipLink { body += "<a class=\"skip\" href=\"#main\">\(HTML.text(skipLink))</a>\n" }
        if let header { body += "<header>\(header)</header>\n" }
        body += "<main id=\"main\" tabindex=\"-1\">\n"
        if let status { body += "<p id=\"status\" class=\"status\" role=\"status\">\(HTML.text(status))</p>\n" }
        return head + body + main + "\n</main>\n</body>\n</html>\n"
    }
}

/// The Content-Security-Policy of our pages, in one place: scripts, styles and everything else
/// only from the page's own origin, no plugins, no `<base>`, forms only to the origin.
public enum ContentPolicy {
    /// Where a page's pictures may come from.
    public enum Pictures: Sendable {
        /// The page's own origin only (the served reader serves every picture itself).
        case ownOrigin
        /// Also https links and data: URLs (a static site links pictures it did not fetch).
        case ownOriginAndWeb
    }

    /// The policy. `framing`: whether other pages may frame this one (`frame-ancestors` works
    /// only as a header, so a policy written into a page leaves it out).
    public static func page(pictures: Pictures, asHeader: Bool) -> String {
        let images = switch pictures {
        case .ownOrigin: "img-src 'self'"
        case .ownOriginAndWeb: "img-src 'self' https: data:"
        }
        var policy = "default-src 'self'; script-src 'self'; style-src 'self'; \(images); object-src 'none'; base-uri 'none'; form-action 'self'"
        if asHeader { policy += "; frame-ancestors 'none'" }
        return policy
    }
}
