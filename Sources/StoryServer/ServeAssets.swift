// The browser reader is built with the package trait BrowserReader only.
#if BrowserReader
/// The served reader's additions to the site's stylesheet, and its script. The script only makes
/// things smoother: a choice (or any button) is sent with fetch and the next page replaces this
/// one in place (history.pushState, focus on the chapter's heading, the change announced in a
/// live region); number keys take choices. Without it every form works as a plain POST.
enum ServeAssets {
    static let stylesheet = """
        .site { list-style: none; margin: 0; padding: 0; display: flex; flex-wrap: wrap; gap: .25rem 1.25rem; }
        .site a { display: inline-block; min-height: 44px; padding: .5rem 0; }
        .site li { display: flex; align-items: center; min-height: 44px; }
        .site li.profile { color: var(--muted); }
        .site li.language form { display: flex; flex-wrap: wrap; align-items: center; gap: .25rem .5rem; }
        .site select, .site button { min-height: 44px; font: inherit; }
        p.site { margin: 0; padding: .5rem 0; font-family: system-ui, sans-serif; color: var(--muted); }
        .status:empty { display: none; }
        .status { border-left: 4px solid var(--focus); padding: .25rem .75rem; font-family: system-ui, sans-serif; }
        .visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%); white-space: nowrap; }
        h1:focus { outline: none; }
        h1:focus-visible { outline: 3px solid var(--focus); outline-offset: 2px; }
        form.choices { margin: 0; }
        .choices button { display: block; width: 100%; text-align: start; min-height: 44px; padding: .5rem .75rem; margin: .25rem 0;
          color: var(--link); background: transparent; border: 1px solid var(--line); border-radius: 6px; cursor: pointer; }
        .choices button:hover { border-color: var(--link); }
        .actions { list-style: none; padding: 0; display: flex; flex-wrap: wrap; gap: .5rem 1rem; font-family: system-ui, sans-serif; font-size: 1rem; }
        .actions form, .bookmarks form, .notes form, .profiles form { display: inline; }
        .actions a { display: inline-block; min-height: 44px; padding: .5rem 0; }
        button { color: var(--text); background: var(--back); border: 1px solid var(--line); border-radius: 6px; }
        textarea { font: inherit; width: 100%; max-width: 100%; }
        .note, .name, .search { margin-top: 1.5rem; font-family: system-ui, sans-serif; }
        .elsewhere { font-family: system-ui, sans-serif; border: 2px solid var(--focus); border-radius: 6px; padding: .25rem .75rem .75rem; margin: 1rem 0; }
        .elsewhere button, .begin button, .bookmark button { min-height: 44px; padding: .25rem .75rem; }
        .bookmark { margin-top: 1rem; font-family: system-ui, sans-serif; display: flex; flex-wrap: wrap; gap: .5rem; align-items: center; }
        .bookmark label { flex-basis: 100%; }
        .bookmark input { min-height: 44px; flex: 1 1 12rem; font: inherit; }
        .optional { color: var(--muted); }
        .warning { border-left: 4px solid var(--focus); padding-left: .75rem; }
        mark { background: var(--mark-back, #fde68a); color: var(--mark-text, #111); padding: 0 .1em; }
        .bookmarks li, .notes li, .hits li, .profiles li { margin: .5rem 0; }
        .path li[aria-current] { font-weight: bold; }
        .the-end { margin: 1.5rem 0; }
        code { overflow-wrap: anywhere; }

        """

    static let script = """
        // ChooseYourDestiny's served reader. Every page works without this script.
        (function () {
          "use strict";
          var live = document.createElement("div");
          live.className = "visually-hidden";
          live.setAttribute("role", "status");
          live.setAttribute("aria-live", "polite");
          document.body.appendChild(live);
          var smooth = !window.matchMedia("(prefers-reduced-motion: reduce)").matches;

          function announce(text) {
            live.textContent = "";
            window.setTimeout(function () { live.textContent = text; }, 50);
          }

          // The address without the notice (`said`): a notice is said once, and never again on
          // Back, Forward or a reload.
          function plain(url) {
            var address = new URL(url, window.location.href);
            address.searchParams.delete("said");
            return address.href;
          }

          // Puts the page fetched in place of this one: header, main, title; focus on its heading.
          // `push`: a new entry in the history when the page is another address; the same page
          // (a bookmark, a note, a notice) replaces its entry. `said`: words for the status.
          function show(html, url, push, said) {
            var next = new DOMParser().parseFromString(html, "text/html");
            var main = next.querySelector("main"), header = next.querySelector("header");
            if (!main) { window.location.assign(url); return; }
            document.querySelector("main").replaceChildren.apply(document.querySelector("main"), Array.from(main.childNodes).map(function (node) { return document.importNode(node, true); }));
            if (header) { document.querySelector("header").replaceChildren.apply(document.querySelector("header"), Array.from(header.childNodes).map(function (node) { return document.importNode(node, true); })); }
            document.title = next.title;
            ["data-chapter", "data-place", "data-place-title"].forEach(function (name) {
              var value = next.body.getAttribute(name);
              if (value === null) { document.body.removeAttribute(name); } else { document.body.setAttribute(name, value); }
            });
            document.body.setAttribute("data-shown", String(Number(document.body.getAttribute("data-shown") || "0") + 1));
            var address = plain(url);
            if (push && plain(window.location.href).split("#")[0] !== address.split("#")[0]) {
              window.history.pushState({ cyd: true }, "", address);
            } else if (address !== window.location.href) {
              window.history.replaceState(window.history.state, "", address);
            }
            window.scrollTo({ top: 0, behavior: smooth ? "smooth" : "auto" });
            var heading = document.querySelector("main h1");
            if (heading) { heading.setAttribute("tabindex", "-1"); heading.focus({ preventScroll: true }); }
            var status = document.getElementById("status");
            if (said && status) { status.textContent = said; }
            said = status && status.textContent ? " " + status.textContent : "";
            announce((heading ? heading.textContent : document.title) + "." + said);
          }

          function go(request, push, fallback) {
            window.fetch(request.url, { method: request.method, body: request.body, credentials: "same-origin", redirect: "follow",
              headers: request.body ? { "Content-Type": "application/x-www-form-urlencoded" } : {} })
              .then(function (response) {
                var type = response.headers.get("Content-Type") || "";
                if (type.indexOf("text/html") !== 0) { throw new Error("not a page"); }
                return response.text().then(function (html) { show(html, response.url, push); });
              })
              .catch(function () { fallback(); });
          }

          document.addEventListener("submit", function (event) {
            var form = event.target;
            if (!(form instanceof HTMLFormElement) || form.method.toLowerCase() !== "post") { return; }
            event.preventDefault();
            var data = new FormData(form, event.submitter || null);
            var body = new URLSearchParams(data).toString();
            go({ url: form.action, method: "POST", body: body }, true, function () { HTMLFormElement.prototype.submit.call(form); });
          });

          window.addEventListener("popstate", function () {
            go({ url: window.location.href, method: "GET", body: null }, false, function () { window.location.reload(); });
          });

          // Back in this window after reading elsewhere (the terminal, another tab): the page is
          // fetched again, and a place that moved meanwhile is said and shown.
          var checking = false;
          function checkPlace() {
            if (checking || document.visibilityState !== "visible" || !document.body.hasAttribute("data-place")) { return; }
            checking = true;
            var before = document.body.getAttribute("data-place");
            window.fetch(window.location.href, { credentials: "same-origin" })
              .then(function (response) { return response.ok ? response.text() : null; })
              .then(function (html) {
                checking = false;
                if (html === null) { return; }
                var next = new DOMParser().parseFromString(html, "text/html");
                var place = next.body.getAttribute("data-place");
                if (place === null || place === before) { return; }
                var title = next.body.getAttribute("data-place-title") || place;
                // The sentence in the page's own words (data-words), else in English.
                var said = "Your place moved to “[[chapter]]” in another window.";
                try {
                  var words = JSON.parse(next.body.getAttribute("data-words") || "{}");
                  if (words && typeof words["serve.place-moved-elsewhere"] === "string") { said = words["serve.place-moved-elsewhere"]; }
                } catch (error) { /* English */ }
                show(html, window.location.href, false, said.split("[[chapter]]").join(title));
              })
              .catch(function () { checking = false; });
          }
          document.addEventListener("visibilitychange", checkPlace);
          window.addEventListener("focus", checkPlace);

          // 1-9 take the choice of that number, unless the reader is typing.
          document.addEventListener("keydown", function (event) {
            if (event.altKey || event.ctrlKey || event.metaKey || event.defaultPrevented) { return; }
            var target = event.target;
            if (target && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName))) { return; }
            if (!/^[1-9]$/.test(event.key)) { return; }
            var buttons = document.querySelectorAll("ol.choices button");
            var button = buttons[Number(event.key) - 1];
            if (button) { event.preventDefault(); button.click(); }
          });
        })();

        """
}
#endif
