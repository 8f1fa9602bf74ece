import GRDB
import StoryFormat

/// The database schema: named, append-only migrations. Never edit one that has shipped; add one.
enum Schema {
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1: stories, chapters, choices, pictures, profiles, progress, search") { db in
            try db.execute(
                sql: """
                    CREATE TABLE story (
                        id INTEGER PRIMARY KEY AUTOINCREMENT,   -- ids of removed stories are never reused
                        source TEXT NOT NULL UNIQUE,      -- how the story is keyed: kind:location
                        source_kind TEXT NOT NULL,        -- folder, git, url
                        location TEXT NOT NULL,           -- folder path or URL
                        story_key TEXT NOT NULL,          -- the author's id, not unique
                        title TEXT NOT NULL,
                        rating TEXT NOT NULL,
                        summary TEXT NOT NULL,
                        author TEXT,
                        pic_path TEXT,
                        version TEXT NOT NULL,            -- commit or content hash
                        first_chapter TEXT NOT NULL,
                        chapter_count INTEGER NOT NULL,
                        ending_count INTEGER NOT NULL,
                        added_at REAL NOT NULL,
                        updated_at REAL NOT NULL,
                        chapters_indexed INTEGER NOT NULL DEFAULT 0   -- chapter text is in chapter_search
                    );
                    CREATE TABLE chapter (
                        id INTEGER PRIMARY KEY,           -- the search index's rowid
                        story_id INTEGER NOT NULL REFERENCES story(id) ON DELETE CASCADE,
                        key TEXT NOT NULL,
                        position INTEGER NOT NULL,
                        name TEXT NOT NULL,
                        body TEXT NOT NULL,
                        pic_path TEXT,
                        vid_path TEXT,
                        is_ending INTEGER NOT NULL,
                        UNIQUE (story_id, key)
                    );
                    CREATE TABLE choice (
                        story_id INTEGER NOT NULL REFERENCES story(id) ON DELETE CASCADE,
                        chapter_key TEXT NOT NULL,
                        position INTEGER NOT NULL,
                        target TEXT NOT NULL,
                        label TEXT NOT NULL,
                        PRIMARY KEY (story_id, chapter_key, position)
                    ) WITHOUT ROWID;
                    CREATE TABLE picture (
                        story_id INTEGER NOT NULL REFERENCES story(id) ON DELETE CASCADE,
                        path TEXT NOT NULL,
                        data BLOB NOT NULL,
                        media_type TEXT,
                        fetched_at REAL NOT NULL,
                        PRIMARY KEY (story_id, path)
                    ) WITHOUT ROWID;
                    -- Reading state is keyed by the story's source, not its row: removing a story
                    -- and adding it again keeps the reader's place unless they chose to forget it.
                    CREATE TABLE profile (
                        name TEXT PRIMARY KEY,
                        first_name TEXT
                    );
                    CREATE TABLE progress (
                        profile TEXT NOT NULL,
                        story_source TEXT NOT NULL,
                        chapter_key TEXT NOT NULL,
                        history TEXT NOT NULL,          -- JSON array of chapter keys, oldest first
                        updated_at REAL NOT NULL,
                        PRIMARY KEY (profile, story_source)
                    ) WITHOUT ROWID;
                    CREATE TABLE ending_found (
                        profile TEXT NOT NULL,
                        story_source TEXT NOT NULL,
                        chapter_key TEXT NOT NULL,
                        found_at REAL NOT NULL,
                        PRIMARY KEY (profile, story_source, chapter_key)
                    ) WITHOUT ROWID;
                    CREATE TABLE bookmark (
                        profile TEXT NOT NULL,
                        story_source TEXT NOT NULL,
                        name TEXT NOT NULL,
                        chapter_key TEXT NOT NULL,
                        created_at REAL NOT NULL,
                        PRIMARY KEY (profile, story_source, name)
                    ) WITHOUT ROWID;
                    CREATE TABLE note (
                        id INTEGER PRIMARY KEY,
                        profile TEXT NOT NULL,
                        story_source TEXT NOT NULL,
                        chapter_key TEXT NOT NULL,
                        body TEXT NOT NULL,
                        created_at REAL NOT NULL
                    );
                    CREATE INDEX note_by_story ON note(profile, story_source);
                    -- Search indexes over the tables' own text (external content: nothing stored twice).
                    CREATE VIRTUAL TABLE story_search USING fts5(
                        title, summary, author, content = 'story', content_rowid = 'id',
                        tokenize = 'unicode61 remove_diacritics 2'
                    );
                    CREATE VIRTUAL TABLE chapter_search USING fts5(
                        name, body, content = 'chapter', content_rowid = 'id',
                        tokenize = 'unicode61 remove_diacritics 2'
                    );
                    """)
        }
        migrator.registerMigration("v2: the catalogue of available stories, and an HTTP cache") { db in
            try db.execute(
                sql: """
                    -- One row per story repository the catalogue knows of, downloaded or not.
                    CREATE TABLE catalogue_repo (
                        url TEXT PRIMARY KEY,             -- the git URL cloned from
                        author TEXT NOT NULL,             -- the authors.json name
                        name TEXT NOT NULL,               -- the repository's name
                        discovery TEXT NOT NULL,          -- 'listed' (authors.json repos) or 'github'
                        pushed_at TEXT,                   -- GitHub's pushed_at when last listed
                        is_story INTEGER,                 -- 1 story, 0 not a story, NULL not checked yet
                        story_key TEXT,
                        title TEXT,
                        rating TEXT,
                        summary TEXT,
                        chapter_count INTEGER,
                        head_commit TEXT,                 -- the remote HEAD the row describes
                        checked_at REAL,                  -- when the remote was last asked
                        last_error TEXT                   -- why the last check failed, NULL when it worked
                    ) WITHOUT ROWID;
                    CREATE INDEX catalogue_repo_by_author ON catalogue_repo(author);
                    CREATE TABLE catalogue_author (
                        name TEXT PRIMARY KEY,
                        checked_at REAL,
                        last_error TEXT
                    ) WITHOUT ROWID;
                    -- Conditional requests: the last good answer for a URL and its validators.
                    CREATE TABLE http_cache (
                        url TEXT PRIMARY KEY,
                        etag TEXT,
                        last_modified TEXT,
                        link TEXT,                        -- the Link header (pagination), as a 304 may omit it
                        body BLOB NOT NULL,
                        fetched_at REAL NOT NULL
                    ) WITHOUT ROWID;
                    """)
        }
        migrator.registerMigration("v3: typed check outcomes, pushed_at at the last good check, catalogue index entries") { db in
            try db.execute(
                sql: """
                    -- What the last check found, as a code ('story', 'no-readme', 'untagged', 'no-story-file',
                    -- 'invalid-story', 'failed'): decisions read this, never the wording in last_error.
                    ALTER TABLE catalogue_repo ADD COLUMN outcome TEXT;
                    -- GitHub's pushed_at when the repository was last checked successfully: while it has
                    -- not changed, the repository is not asked again (no ls-remote).
                    ALTER TABLE catalogue_repo ADD COLUMN checked_pushed_at TEXT;
                    -- A warning that does not stop the story (a listed repository without the tag).
                    ALTER TABLE catalogue_repo ADD COLUMN warning TEXT;
                    UPDATE catalogue_repo SET outcome = CASE
                        WHEN is_story = 1 THEN 'story'
                        WHEN last_error = 'no README' THEN 'no-readme'
                        WHEN last_error LIKE 'its README does not carry%' THEN 'untagged'
                        WHEN last_error IS NOT NULL THEN 'failed' END;
                    """)
        }
        migrator.registerMigration("v4: the fingerprint of the last index applied") { db in
            try db.execute(
                sql: """
                    -- An index whose bytes are the same as last time changes nothing: a no-op sync
                    -- reads the file and stops here, instead of comparing every entry again.
                    CREATE TABLE catalogue_index_state (
                        source TEXT PRIMARY KEY NOT NULL,
                        fingerprint TEXT NOT NULL,
                        applied_at REAL NOT NULL
                    ) WITHOUT ROWID;
                    """)
        }
        migrator.registerMigration("v5: catalogue warnings kept as codes") { db in
            try db.execute(
                sql: """
                    -- A listed repository's README warning was kept in words; it is kept as a code
                    -- ('untagged-listed', 'no-readme-listed'), which the sync reads back. The old
                    -- words are read this once.
                    UPDATE catalogue_repo SET warning = CASE
                        WHEN warning LIKE 'no README%' THEN 'no-readme-listed'
                        ELSE 'untagged-listed' END
                    WHERE warning IS NOT NULL AND warning != '';
                    """)
        }
        migrator.registerMigration("v6: choices kept with their chapter") { db in
            // Each chapter's choices, in their order, become its `choices` column; the choice
            // table goes. Grouped here rather than in SQL: json_group_array keeps a subquery's
            // order only by accident before SQLite 3.44.
            try db.execute(sql: "ALTER TABLE chapter ADD COLUMN choices TEXT NOT NULL DEFAULT '[]'")
            let rows = try Row.fetchCursor(db, sql: "SELECT story_id, chapter_key, target, label FROM choice ORDER BY story_id, chapter_key, position")
            let update = try db.makeStatement(sql: "UPDATE chapter SET choices = ? WHERE story_id = ? AND key = ?")
            var current: (story: Int64, chapter: String)?
            var choices: [Choice] = []
            func flush() throws {
                if let current {
                    try update.execute(arguments: [StoredChoices.encode(choices), current.story, current.chapter])
                }
                choices = []
            }
            while let row = try rows.next() {
                let owner = (story: row["story_id"] as Int64, chapter: row["chapter_key"] as String)
                if current.map({ $0.story != owner.story || $0.chapter != owner.chapter }) ?? true {
                    try flush()
                    current = owner
                }
                choices.append(Choice(chapterID: row["target"], text: row["label"]))
            }
            try flush()
            try db.execute(sql: "DROP TABLE choice")
        }
        migrator.registerMigration("v7: what a chapter's picture shows (pic_alt)") { db in
            // Stories stored before keep no alt text until they are next updated.
            try db.execute(sql: "ALTER TABLE chapter ADD COLUMN pic_alt TEXT")
        }
        migrator.registerMigration("v8: pinned catalogue content, kept last good versions, trusted catalogues") { db in
            try db.execute(
                sql: """
                    -- What the catalogue pins: the SHA-256 of story.json at head_commit, and of each
                    -- repository picture ({"path": "hex"}).
                    ALTER TABLE catalogue_repo ADD COLUMN story_sha256 TEXT;
                    ALTER TABLE catalogue_repo ADD COLUMN pictures_sha256 TEXT;
                    -- A story whose upstream is broken keeps its last good version (head_commit and
                    -- the rest); these say since when, at which commit, and why (last_error).
                    ALTER TABLE catalogue_repo ADD COLUMN broken_since REAL;
                    ALTER TABLE catalogue_repo ADD COLUMN broken_commit TEXT;
                    -- Since when every check has failed (unreachable, refused), NULL when the last worked.
                    ALTER TABLE catalogue_repo ADD COLUMN failing_since REAL;
                    -- When head_commit last changed, and the findings at it.
                    ALTER TABLE catalogue_repo ADD COLUMN changed_at REAL;
                    ALTER TABLE catalogue_repo ADD COLUMN error_count INTEGER;
                    ALTER TABLE catalogue_repo ADD COLUMN warning_count INTEGER;
                    -- A published catalogue a reader syncs from: the key it trusts (first use, or
                    -- given by the reader), and the highest version and latest expiry seen (rollback and replay).
                    CREATE TABLE catalogue_trust (
                        source TEXT PRIMARY KEY NOT NULL,
                        public_key TEXT,
                        version INTEGER NOT NULL,
                        root_sha256 TEXT NOT NULL,
                        expires_at REAL NOT NULL
                    ) WITHOUT ROWID;
                    """)
        }
        migrator.registerMigration("v9: translations, stored at add time") { db in
            try db.execute(
                sql: """
                    -- A language a story can be read in: its title and summary there, and how much
                    -- of it is translated (strings readers see translated, of all strings).
                    CREATE TABLE story_language (
                        story_id INTEGER NOT NULL REFERENCES story(id) ON DELETE CASCADE,
                        language TEXT NOT NULL,
                        title TEXT NOT NULL,
                        summary TEXT NOT NULL,
                        translated INTEGER NOT NULL,
                        total INTEGER NOT NULL,
                        PRIMARY KEY (story_id, language)
                    ) WITHOUT ROWID;
                    -- A chapter as readers of a language see it (missing strings already the
                    -- original's); only chapters with something translated have a row.
                    CREATE TABLE chapter_translation (
                        story_id INTEGER NOT NULL REFERENCES story(id) ON DELETE CASCADE,
                        language TEXT NOT NULL,
                        key TEXT NOT NULL,
                        name TEXT NOT NULL,
                        body TEXT NOT NULL,
                        pic_alt TEXT,
                        choices TEXT NOT NULL,
                        PRIMARY KEY (story_id, language, key)
                    ) WITHOUT ROWID;
                    -- The languages a catalogue story can be read in, {"fr": 100} (percent translated).
                    ALTER TABLE catalogue_repo ADD COLUMN languages TEXT;
                    """)
        }
        migrator.registerMigration("v10: stories downloaded at a catalogue's pinned commit, the catalogue in use") { db in
            try db.execute(
                sql: """
                    -- A git repository whose story was last stored at the commit a catalogue pinned:
                    -- while this row is here, the story is never taken at an unchecked commit
                    -- (the catalogue dropped it, say) unless the reader asks for that.
                    CREATE TABLE pinned_source (
                        location TEXT PRIMARY KEY NOT NULL,
                        commit_id TEXT NOT NULL,
                        pinned_at REAL NOT NULL
                    ) WITHOUT ROWID;
                    -- When a published root was last applied from this source; NULL once the
                    -- catalogue came from elsewhere (the applied one is the catalogue in use,
                    -- and its expiry is the one get and update honour).
                    ALTER TABLE catalogue_trust ADD COLUMN applied_at REAL;
                    """)
        }
        // A chapter key the format gained since: its column (and its translation's), made from
        // the field, under a name of its own so it runs once.
        for field in ChapterRow.fields where !ChapterRow.columnsBeforeKeyMigrations.contains(ChapterRow.column(field)) {
            migrator.registerMigration("chapter key \(field.key)") { db in
                try db.execute(sql: "ALTER TABLE chapter ADD COLUMN \(ChapterRow.declaration(field))")
                if field.isTranslated {
                    try db.execute(sql: "ALTER TABLE chapter_translation ADD COLUMN \(ChapterRow.declaration(field))")
                }
            }
        }
        return migrator
    }
}
