/// The site's own files: a stylesheet, the script that gives pages a memory, and the service
/// worker that keeps a story once opened. Pages never carry inline script or style (the
/// Content-Security-Policy forbids both); story text never reaches these files.
public enum SiteAssets {
    public static let stylesheet = """
        :root { color-scheme: light dark; --text: #1d1b18; --back: #fbf8f2; --muted: #5b554c; --link: #0b4f8a; --focus: #b34700; --line: #d9d1c3; }
        @media (prefers-color-scheme: dark) {
          :root { --text: #ece6da; --back: #1b1a18; --muted: #b9b0a2; --link: #8cc4ff; --focus: #ffb36b; --line: #4a453d; }
        }
        * { box-sizing: border-box; }
        html { -webkit-text-size-adjust: 100%; }
        body { margin: 0 auto; padding: 0 1rem 3rem; max-width: 42rem; background: var(--back); color: var(--text);
          font: 1.125rem/1.6 Georgia, "Times New Roman", serif; overflow-wrap: anywhere; }
        a { color: var(--link); }
        a:focus-visible, button:focus-visible, input:focus-visible, main:focus-visible { outline: 3px solid var(--focus); outline-offset: 2px; }
        main:focus { outline: none; }
        .skip { position: absolute; left: -100vw; }
        .skip:focus { position: static; display: inline-block; margin: .5rem 0; }
        header { padding: .75rem 0; border-bottom: 1px solid var(--line); font-family: system-ui, sans-serif; font-size: 1rem; }
        h1 { font-size: 1.75rem; line-height: 1.25; margin: 1.25rem 0 .75rem; }
        h2 { font-size: 1.3rem; margin: 0 0 .25rem; }
        .story-title, .rating { color: var(--muted); font-family: system-ui, sans-serif; font-size: .95rem; margin: .75rem 0 0; }
        .picture { display: block; max-width: 100%; height: auto; margin: 1rem 0; border-radius: 4px; }
        a.picture img.picture { margin: 0; }
        .stories { list-style: none; padding: 0; }
        .stories li { padding: 1rem 0; border-bottom: 1px solid var(--line); }
        .choices, .after { padding-left: 1.75rem; margin: 1.5rem 0; }
        .choices li, .after li { margin: .5rem 0; }
        .choices a, .after a, .begin, .resume, .reading a, header a.home { display: inline-block; min-height: 44px; min-width: 44px; padding: .5rem .25rem; }
        nav.languages ul { list-style: none; padding: 0; margin: .5rem 0 0; display: flex; flex-wrap: wrap; gap: .25rem 1rem; font-family: system-ui, sans-serif; font-size: 1rem; }
        nav.languages a, nav.languages span[aria-current] { display: inline-block; min-height: 44px; min-width: 44px; padding: .5rem .25rem; }
        nav.languages span[aria-current] { font-weight: bold; }
        .reading { list-style: none; padding: 0; margin: 1rem 0; font-family: system-ui, sans-serif; font-size: 1rem; }
        .unavailable { color: var(--muted); }
        button, input { font: inherit; min-height: 44px; padding: .25rem .75rem; }
        input { max-width: 100%; }
        label { display: block; margin-top: 1rem; }
        @media (prefers-reduced-motion: reduce) { * { scroll-behavior: auto !important; transition: none !important; animation: none !important; } }

        """

    public static let script = """
        // ChooseYourDestiny's browser reader: what a page needs a memory for. Every page works
        // without this script; with it, the reader's place, endings found and name are kept in
        // this browser (localStorage), number keys take choices, and a story once opened can be
        // read offline (sw.js). It only ever sets textContent and checked attributes: no story
        // text is parsed as HTML here.
        (function () {
          "use strict";
          var body = document.body;
          var story = body.getAttribute("data-story");
          // The folder of the page's own language (the place is kept under the story as written).
          var folderHere = body.getAttribute("data-folder") || story;
          var root = body.getAttribute("data-root") || "./";
          var pageName = /^[A-Za-z0-9_-]+\\.html$/;
          // The page's words for what this script writes, in the page's language (data-words,
          // a JSON object by phrase); English where the page has none.
          var words = {};
          try { words = JSON.parse(body.getAttribute("data-words") || "{}") || {}; } catch (error) { words = {}; }
          function word(phrase, english, values) {
            var text = typeof words[phrase] === "string" ? words[phrase] : english;
            return text.replace(/\\[\\[([a-z]+)\\]\\]/g, function (all, slot) {
              return values && Object.prototype.hasOwnProperty.call(values, slot) ? String(values[slot]) : all;
            });
          }

          function load(key, fallback) {
            try {
              var value = localStorage.getItem(key);
              return value === null ? fallback : JSON.parse(value);
            } catch (error) { return fallback; }
          }
          function save(key, value) {
            try { localStorage.setItem(key, JSON.stringify(value)); } catch (error) { /* storage full or off: pages still work */ }
          }

          var name = load("cyd:name", "");
          function showName() {
            if (typeof name !== "string" || name === "") return;
            var spans = document.querySelectorAll(".reader-name");
            for (var i = 0; i < spans.length; i++) spans[i].textContent = name;
          }
          showName();

          var key = story ? "cyd:story:" + story : null;
          var place = key ? load(key, null) : null;
          if (!place || typeof place !== "object") place = { page: null, path: [], endings: [] };
          if (!Array.isArray(place.path)) place.path = [];
          if (!Array.isArray(place.endings)) place.endings = [];

          if (key && body.hasAttribute("data-chapter")) {
            var page = location.pathname.split("/").pop() || "";
            if (pageName.test(page)) {
              if (place.page !== page) {
                place.path.push(page);
                if (place.path.length > 500) place.path.shift();
              }
              place.page = page;
              var heading = document.querySelector("main h1");
              place.title = heading ? heading.textContent : page;
              if (body.getAttribute("data-ending") === "true" && place.endings.indexOf(page) < 0) place.endings.push(page);
              save(key, place);
            }
          }

          function endingsLine(kept, total) {
            var count = kept && Array.isArray(kept.endings) ? kept.endings.length : 0;
            return word("page.endings-found", "Endings found: [[found]] of [[total]].", { found: count, total: total });
          }

          // An ending says how many of the story's endings this browser has found.
          if (key && body.getAttribute("data-ending") === "true") {
            var foundHere = document.querySelector(".the-end .found");
            if (foundHere) foundHere.textContent = endingsLine(place, Number(body.getAttribute("data-endings")) || 0);
          }

          // The library says where this browser is in each story.
          var shelves = document.querySelectorAll("li[data-story]");
          for (var s = 0; s < shelves.length; s++) {
            var folder = shelves[s].getAttribute("data-story");
            var kept = load("cyd:story:" + folder, null);
            var line = shelves[s].querySelector(".place");
            if (!line) continue;
            var total = Number(shelves[s].getAttribute("data-endings")) || 0;
            if (kept && typeof kept === "object" && typeof kept.page === "string" && pageName.test(kept.page)) {
              line.textContent = word("page.you-are-at", "You are at “[[chapter]]”.", { chapter: typeof kept.title === "string" && kept.title ? kept.title : kept.page }) + " " + endingsLine(kept, total);
            } else if (kept && Array.isArray(kept.endings) && kept.endings.length > 0) {
              line.textContent = endingsLine(kept, total);
            } else {
              line.textContent = word("page.not-started", "Not started.");
            }
            line.hidden = false;
          }

          // Start again asks first: the path taken is cleared (the endings found are kept).
          function startAgain(event) {
            if (!window.confirm(word("site.confirm-restart", "Start again from the first chapter? The path you took is cleared; the endings you found are kept."))) {
              event.preventDefault();
              return false;
            }
            place.page = null;
            place.path = [];
            save(key, place);
            return true;
          }
          var restartLinks = key ? document.querySelectorAll("a.restart") : [];
          for (var r = 0; r < restartLinks.length; r++) restartLinks[r].addEventListener("click", startAgain);

          var progress = document.querySelector(".progress");
          if (key && progress) {
            var total = Number(body.getAttribute("data-endings")) || 0;
            var found = document.querySelector(".found");
            if (found) found.textContent = endingsLine(place, total);
            var resume = document.querySelector(".resume");
            if (resume && typeof place.page === "string" && pageName.test(place.page)) {
              resume.setAttribute("href", place.page);
              progress.hidden = false;
            } else if (place.endings.length > 0) {
              if (resume) resume.parentNode.hidden = true;
              progress.hidden = false;
            }
            var restart = document.querySelector(".restart");
            if (restart) restart.addEventListener("click", function (event) {
              if (!startAgain(event)) return;
              var first = body.getAttribute("data-first");
              location.href = pageName.test(first || "") ? first : "index.html";
            });
          }

          var form = document.querySelector("form.name");
          if (form) {
            var input = form.querySelector("input");
            if (typeof name === "string") input.value = name;
            form.hidden = false;
            form.addEventListener("submit", function (event) {
              event.preventDefault();
              name = input.value.trim().slice(0, 60);
              save("cyd:name", name);
              var status = document.querySelector(".found");
              if (status) status.textContent = name ? word("site.called", "You will be called [[name]].", { name: name }) : word("site.called-reader", "You will be called Reader.");
            });
          }

          document.addEventListener("keydown", function (event) {
            if (event.altKey || event.ctrlKey || event.metaKey) return;
            var target = event.target;
            if (target && (target.tagName === "INPUT" || target.tagName === "TEXTAREA" || target.isContentEditable)) return;
            if (event.key < "1" || event.key > "9" || event.key.length !== 1) return;
            var links = document.querySelectorAll(".choices a");
            var link = links[Number(event.key) - 1];
            if (link) {
              event.preventDefault();
              link.click();
            }
          });

          if ("serviceWorker" in navigator && (location.protocol === "https:" || location.hostname === "127.0.0.1" || location.hostname === "localhost")) {
            navigator.serviceWorker.register(root + "sw.js").then(function () {
              return navigator.serviceWorker.ready;
            }).then(function (registration) {
              if (folderHere && registration.active) registration.active.postMessage({ keep: folderHere });
            }).catch(function () { /* offline reading is a bonus */ });
          }
        })();

        """

    public static let serviceWorker = """
        // Keeps a story readable offline once it has been opened: pages are fetched from the
        // network when there is one (so a rebuilt site is seen at once) and from this cache when
        // there is not. Opening a story asks for all its files (its offline.json).
        "use strict";
        var CACHE = "cyd-site-2";
        var folderName = /^[A-Za-z0-9_-]+$/;

        self.addEventListener("install", function (event) {
          event.waitUntil(caches.open(CACHE).then(function (cache) {
            // The library under both its names: a reader who first came by a deep link still
            // finds it offline at the site's bare address.
            return cache.addAll(["./", "index.html", "cyd.css", "cyd.js", "offline.html", "manifest.webmanifest", "icon-192.png"]);
          }));
          self.skipWaiting();
        });

        self.addEventListener("activate", function (event) {
          event.waitUntil(caches.keys().then(function (names) {
            return Promise.all(names.filter(function (name) { return name.indexOf("cyd-site-") === 0 && name !== CACHE; }).map(function (name) { return caches.delete(name); }));
          }).then(function () { return self.clients.claim(); }));
        });

        // A story is fetched whole once; after that its pages are kept fresh one by one as they
        // are read online (the fetch handler below), not all again at every page.
        function keep(folder) {
          var base = new URL(folder + "/", self.registration.scope);
          var list = new URL("offline.json", base).href;
          return caches.open(CACHE).then(function (cache) {
            return cache.match(list).then(function (kept) {
              if (kept) return undefined;
              return fetch(list).then(function (response) {
                var copy = response.clone();
                return response.json().then(function (contents) {
                  var files = Array.isArray(contents.files) ? contents.files : [];
                  return cache.addAll(files.map(function (file) { return new URL(file, base).href; }));
                }).then(function () { return cache.put(list, copy); });
              });
            });
          }).catch(function () { /* kept at the next visit */ });
        }

        self.addEventListener("message", function (event) {
          var folder = event.data && event.data.keep;
          if (typeof folder === "string" && folderName.test(folder)) event.waitUntil(keep(folder));
        });

        self.addEventListener("fetch", function (event) {
          var request = event.request;
          if (request.method !== "GET" || new URL(request.url).origin !== self.location.origin) return;
          event.respondWith(fetch(request).then(function (response) {
            if (response.ok) {
              var copy = response.clone();
              caches.open(CACHE).then(function (cache) { cache.put(request, copy); });
            }
            return response;
          }).catch(function () {
            return caches.match(request, { ignoreSearch: true }).then(function (cached) {
              if (cached) return cached;
              var url = new URL(request.url);
              var folderPage = url.pathname.slice(-1) === "/" ? caches.match(new URL("index.html", url).href) : Promise.resolve(undefined);
              return folderPage.then(function (page) {
                if (page) return page;
                // A page never kept: our own page that says so, not the browser's error.
                if (request.mode === "navigate") return Response.redirect(new URL("offline.html", self.registration.scope).href, 302);
                return Response.error();
              });
            });
          }));
        });

        """
}
