import GRDB

extension PlacesDatabase {
    /// The schema's history. Never edit a shipped migration: add a new one.
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1-places") { db in
            try db.execute(
                sql: """
                    CREATE TABLE change_counter (
                        id INTEGER PRIMARY KEY CHECK (id = 1),
                        value INTEGER NOT NULL
                    );
                    INSERT INTO change_counter (id, value) VALUES (1, 0);

                    CREATE TABLE place (
                        id TEXT PRIMARY KEY NOT NULL,
                        kind TEXT NOT NULL CHECK (kind IN ('gem', 'restaurant')),
                        name TEXT NOT NULL,
                        description TEXT NOT NULL DEFAULT '',
                        latitude REAL NOT NULL CHECK (latitude BETWEEN -90 AND 90),
                        longitude REAL NOT NULL CHECK (longitude BETWEEN -180 AND 180),
                        address TEXT,
                        city TEXT,
                        tags TEXT NOT NULL DEFAULT '[]',
                        cuisine TEXT,
                        price_level INTEGER CHECK (price_level BETWEEN 1 AND 4),
                        phone TEXT,
                        website TEXT,
                        opening_hours TEXT,
                        time_zone TEXT,
                        owner_id TEXT,
                        seed_source TEXT,
                        created_at TEXT NOT NULL,
                        updated_at TEXT NOT NULL,
                        deleted_at TEXT,
                        revision INTEGER NOT NULL
                    );
                    CREATE INDEX place_revision ON place (revision);
                    """
            )
        }
        migrator.registerMigration("v2-people") { db in
            try db.execute(
                sql: """
                    CREATE TABLE user_account (
                        id TEXT PRIMARY KEY NOT NULL,
                        username TEXT NOT NULL,
                        username_key TEXT NOT NULL UNIQUE,
                        email TEXT UNIQUE,
                        phone TEXT UNIQUE,
                        password_hash TEXT NOT NULL,
                        display_name TEXT,
                        bio TEXT,
                        city TEXT,
                        avatar_url TEXT,
                        created_at TEXT NOT NULL,
                        updated_at TEXT NOT NULL,
                        CHECK (email IS NOT NULL OR phone IS NOT NULL)
                    );

                    CREATE TABLE session (
                        token_hash TEXT PRIMARY KEY NOT NULL,
                        user_id TEXT NOT NULL REFERENCES user_account (id) ON DELETE CASCADE,
                        created_at TEXT NOT NULL,
                        expires_at TEXT NOT NULL
                    );
                    CREATE INDEX session_user ON session (user_id);

                    CREATE TABLE user_settings (
                        user_id TEXT PRIMARY KEY NOT NULL REFERENCES user_account (id) ON DELETE CASCADE,
                        settings TEXT NOT NULL,
                        updated_at TEXT NOT NULL
                    );

                    CREATE TABLE favorite (
                        user_id TEXT NOT NULL REFERENCES user_account (id) ON DELETE CASCADE,
                        place_id TEXT NOT NULL REFERENCES place (id),
                        created_at TEXT NOT NULL,
                        PRIMARY KEY (user_id, place_id)
                    ) WITHOUT ROWID;

                    CREATE TABLE rating (
                        user_id TEXT NOT NULL REFERENCES user_account (id) ON DELETE CASCADE,
                        place_id TEXT NOT NULL REFERENCES place (id),
                        stars INTEGER NOT NULL CHECK (stars BETWEEN 1 AND 5),
                        review TEXT,
                        created_at TEXT NOT NULL,
                        updated_at TEXT NOT NULL,
                        PRIMARY KEY (user_id, place_id)
                    ) WITHOUT ROWID;
                    CREATE INDEX rating_place ON rating (place_id);

                    ALTER TABLE place ADD COLUMN rating_count INTEGER NOT NULL DEFAULT 0;
                    ALTER TABLE place ADD COLUMN rating_sum INTEGER NOT NULL DEFAULT 0;
                    CREATE INDEX place_owner ON place (owner_id) WHERE owner_id IS NOT NULL;

                    -- Full-text search over the place table's own text (external content: nothing stored twice).
                    -- Triggers keep it in step; a bulk load into an empty table defers them and rebuilds once.
                    CREATE VIRTUAL TABLE place_search USING fts5 (
                        name, description, tags, cuisine,
                        content = 'place', content_rowid = 'rowid',
                        tokenize = 'unicode61 remove_diacritics 2'
                    );
                    INSERT INTO place_search (place_search) VALUES ('rebuild');
                    CREATE TABLE search_state (
                        id INTEGER PRIMARY KEY CHECK (id = 1),
                        deferred INTEGER NOT NULL
                    );
                    INSERT INTO search_state (id, deferred) VALUES (1, 0);
                    CREATE TRIGGER place_search_insert AFTER INSERT ON place
                    WHEN (SELECT deferred FROM search_state WHERE id = 1) = 0
                    BEGIN
                        INSERT INTO place_search (rowid, name, description, tags, cuisine)
                        VALUES (new.rowid, new.name, new.description, new.tags, new.cuisine);
                    END;
                    CREATE TRIGGER place_search_update AFTER UPDATE OF name, description, tags, cuisine ON place
                    WHEN (SELECT deferred FROM search_state WHERE id = 1) = 0
                        AND (old.name IS NOT new.name OR old.description IS NOT new.description
                            OR old.tags IS NOT new.tags OR old.cuisine IS NOT new.cuisine)
                    BEGIN
                        INSERT INTO place_search (place_search, rowid, name, description, tags, cuisine)
                        VALUES ('delete', old.rowid, old.name, old.description, old.tags, old.cuisine);
                        INSERT INTO place_search (rowid, name, description, tags, cuisine)
                        VALUES (new.rowid, new.name, new.description, new.tags, new.cuisine);
                    END;
                    CREATE TRIGGER place_search_delete AFTER DELETE ON place
                    WHEN (SELECT deferred FROM search_state WHERE id = 1) = 0
                    BEGIN
                        INSERT INTO place_search (place_search, rowid, name, description, tags, cuisine)
                        VALUES ('delete', old.rowid, old.name, old.description, old.tags, old.cuisine);
                    END;
                    """
            )
        }
        return migrator
    }
}
