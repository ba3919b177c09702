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
        return migrator
    }
}
