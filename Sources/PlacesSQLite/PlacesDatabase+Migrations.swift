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
        migrator.registerMigration("v3-together") { db in
            try db.execute(
                sql: """
                    -- One row per pair whichever way the request went: the unique index on (min, max) forbids a request
                    -- A→B beside one B→A.
                    CREATE TABLE friendship (
                        requester_id TEXT NOT NULL REFERENCES user_account (id) ON DELETE CASCADE,
                        addressee_id TEXT NOT NULL REFERENCES user_account (id) ON DELETE CASCADE,
                        status TEXT NOT NULL CHECK (status IN ('pending', 'accepted')),
                        created_at TEXT NOT NULL,
                        accepted_at TEXT,
                        PRIMARY KEY (requester_id, addressee_id),
                        CHECK (requester_id <> addressee_id),
                        CHECK ((status = 'accepted') = (accepted_at IS NOT NULL))
                    ) WITHOUT ROWID;
                    CREATE UNIQUE INDEX friendship_pair ON friendship (min(requester_id, addressee_id), max(requester_id, addressee_id));
                    CREATE INDEX friendship_addressee ON friendship (addressee_id);

                    CREATE TABLE place_group (
                        id TEXT PRIMARY KEY NOT NULL,
                        name TEXT NOT NULL,
                        description TEXT,
                        picture_url TEXT,
                        created_at TEXT NOT NULL,
                        updated_at TEXT NOT NULL
                    );

                    CREATE TABLE group_member (
                        group_id TEXT NOT NULL REFERENCES place_group (id) ON DELETE CASCADE,
                        user_id TEXT NOT NULL REFERENCES user_account (id) ON DELETE CASCADE,
                        role TEXT NOT NULL CHECK (role IN ('admin', 'member')),
                        joined_at TEXT NOT NULL,
                        PRIMARY KEY (group_id, user_id)
                    ) WITHOUT ROWID;
                    CREATE INDEX group_member_user ON group_member (user_id);

                    CREATE TABLE group_invitation (
                        group_id TEXT NOT NULL REFERENCES place_group (id) ON DELETE CASCADE,
                        invitee_id TEXT NOT NULL REFERENCES user_account (id) ON DELETE CASCADE,
                        inviter_id TEXT NOT NULL REFERENCES user_account (id) ON DELETE CASCADE,
                        created_at TEXT NOT NULL,
                        PRIMARY KEY (group_id, invitee_id)
                    ) WITHOUT ROWID;
                    CREATE INDEX group_invitation_invitee ON group_invitation (invitee_id);
                    CREATE INDEX group_invitation_inviter ON group_invitation (inviter_id);

                    CREATE TABLE place_collection (
                        id TEXT PRIMARY KEY NOT NULL,
                        owner_id TEXT REFERENCES user_account (id) ON DELETE CASCADE,
                        group_id TEXT REFERENCES place_group (id) ON DELETE CASCADE,
                        name TEXT NOT NULL,
                        description TEXT,
                        created_at TEXT NOT NULL,
                        updated_at TEXT NOT NULL,
                        CHECK ((owner_id IS NULL) <> (group_id IS NULL))
                    );
                    CREATE INDEX place_collection_owner ON place_collection (owner_id) WHERE owner_id IS NOT NULL;
                    CREATE INDEX place_collection_group ON place_collection (group_id) WHERE group_id IS NOT NULL;

                    -- Positions run 0..<count in each collection; writes keep them dense.
                    CREATE TABLE collection_entry (
                        collection_id TEXT NOT NULL REFERENCES place_collection (id) ON DELETE CASCADE,
                        place_id TEXT NOT NULL REFERENCES place (id),
                        position INTEGER NOT NULL CHECK (position >= 0),
                        added_by TEXT REFERENCES user_account (id) ON DELETE SET NULL,
                        added_at TEXT NOT NULL,
                        PRIMARY KEY (collection_id, place_id)
                    ) WITHOUT ROWID;
                    CREATE INDEX collection_entry_position ON collection_entry (collection_id, position);
                    CREATE INDEX collection_entry_place ON collection_entry (place_id);
                    CREATE INDEX collection_entry_added_by ON collection_entry (added_by) WHERE added_by IS NOT NULL;

                    CREATE TABLE notification (
                        id TEXT PRIMARY KEY NOT NULL,
                        recipient_id TEXT NOT NULL REFERENCES user_account (id) ON DELETE CASCADE,
                        kind TEXT NOT NULL,
                        message TEXT NOT NULL,
                        subject TEXT NOT NULL,
                        channels TEXT NOT NULL,
                        created_at TEXT NOT NULL,
                        read_at TEXT
                    );
                    CREATE INDEX notification_recipient ON notification (recipient_id, created_at);
                    """
            )
        }
        migrator.registerMigration("v4-decisions") { db in
            try db.execute(
                sql: """
                    CREATE TABLE decision (
                        id TEXT PRIMARY KEY NOT NULL,
                        group_id TEXT REFERENCES place_group (id) ON DELETE CASCADE,
                        created_by TEXT NOT NULL,
                        title TEXT,
                        method TEXT NOT NULL CHECK (method IN ('random', 'tiered', 'manual')),
                        status TEXT NOT NULL CHECK (status IN ('active', 'completed', 'expired', 'closed')),
                        candidates TEXT NOT NULL,
                        weighted INTEGER NOT NULL,
                        scheduled INTEGER NOT NULL,
                        seed TEXT NOT NULL,
                        deadline TEXT,
                        visit_date TEXT,
                        created_at TEXT NOT NULL,
                        ended_at TEXT,
                        reminder_sent_at TEXT,
                        result TEXT
                    );
                    CREATE INDEX decision_due ON decision (deadline) WHERE status = 'active' AND deadline IS NOT NULL;
                    CREATE INDEX decision_group ON decision (group_id, created_at);
                    CREATE INDEX decision_starter ON decision (created_by, created_at);

                    CREATE TABLE decision_participant (
                        decision_id TEXT NOT NULL REFERENCES decision (id) ON DELETE CASCADE,
                        user_id TEXT NOT NULL,
                        PRIMARY KEY (decision_id, user_id)
                    ) WITHOUT ROWID;
                    CREATE INDEX decision_participant_user ON decision_participant (user_id);

                    -- A ballot outlives its voter's account: the result must stay recountable.
                    CREATE TABLE ballot (
                        decision_id TEXT NOT NULL REFERENCES decision (id) ON DELETE CASCADE,
                        user_id TEXT NOT NULL,
                        ranking TEXT NOT NULL,
                        cast_at TEXT NOT NULL,
                        updated_at TEXT NOT NULL,
                        PRIMARY KEY (decision_id, user_id)
                    ) WITHOUT ROWID;
                    """
            )
        }
        migrator.registerMigration("v5-search-bulk-build") { db in
            // bm25 needs each hit's column sizes; without `columnsize = 0` the index stores them, a row per place,
            // which made a third of the index's bulk build. Now bm25 counts them from the hit's own text, which it
            // reads anyway: a 1M-place seed builds the index in ~1.5 s instead of ~2.3 s, and a search matching
            // 10% of those places takes ~20% longer.
            // A bulk load now sets the triggers aside instead of asking each row's trigger whether it is deferred,
            // so the triggers lose that condition and `search_state` goes.
            try db.execute(
                sql: """
                    DROP TRIGGER place_search_insert;
                    DROP TRIGGER place_search_update;
                    DROP TRIGGER place_search_delete;
                    DROP TABLE search_state;
                    DROP TABLE place_search;
                    CREATE VIRTUAL TABLE place_search USING fts5 (
                        name, description, tags, cuisine,
                        content = 'place', content_rowid = 'rowid',
                        tokenize = 'unicode61 remove_diacritics 2',
                        columnsize = 0
                    );
                    INSERT INTO place_search (place_search) VALUES ('rebuild');
                    CREATE TRIGGER place_search_insert AFTER INSERT ON place
                    BEGIN
                        INSERT INTO place_search (rowid, name, description, tags, cuisine)
                        VALUES (new.rowid, new.name, new.description, new.tags, new.cuisine);
                    END;
                    CREATE TRIGGER place_search_update AFTER UPDATE OF name, description, tags, cuisine ON place
                    WHEN old.name IS NOT new.name OR old.description IS NOT new.description
                        OR old.tags IS NOT new.tags OR old.cuisine IS NOT new.cuisine
                    BEGIN
                        INSERT INTO place_search (place_search, rowid, name, description, tags, cuisine)
                        VALUES ('delete', old.rowid, old.name, old.description, old.tags, old.cuisine);
                        INSERT INTO place_search (rowid, name, description, tags, cuisine)
                        VALUES (new.rowid, new.name, new.description, new.tags, new.cuisine);
                    END;
                    CREATE TRIGGER place_search_delete AFTER DELETE ON place
                    BEGIN
                        INSERT INTO place_search (place_search, rowid, name, description, tags, cuisine)
                        VALUES ('delete', old.rowid, old.name, old.description, old.tags, old.cuisine);
                    END;
                    """
            )
        }
        migrator.registerMigration("v6-departures-and-declines") { db in
            try db.execute(
                sql: """
                    -- Participants who left a group while its decision was open (JSON list of {userId, at, ballotWithdrawn}).
                    ALTER TABLE decision ADD COLUMN departures TEXT;

                    -- The last time someone declined a friend request (subject: the requester) or a group invitation
                    -- (subject: the group): asking again soon after is stored, but does not notify them again.
                    CREATE TABLE declined_request (
                        kind TEXT NOT NULL CHECK (kind IN ('friend', 'group')),
                        subject_id TEXT NOT NULL,
                        recipient_id TEXT NOT NULL REFERENCES user_account (id) ON DELETE CASCADE,
                        declined_at TEXT NOT NULL,
                        PRIMARY KEY (kind, subject_id, recipient_id)
                    ) WITHOUT ROWID;
                    """
            )
        }
        migrator.registerMigration("v7-decision-versions") { db in
            // A decision is read, changed in Core and saved only if what the change depends on was not saved since
            // (optimistic concurrency): `version` counts every save, `decision_version` those of the decision itself.
            try db.execute(sql: "ALTER TABLE decision ADD COLUMN version INTEGER NOT NULL DEFAULT 0")
            try db.execute(sql: "ALTER TABLE decision ADD COLUMN decision_version INTEGER NOT NULL DEFAULT 0")
        }
        migrator.registerMigration("v8-throttle-leases-generation") { db in
            try db.execute(
                sql: """
                    -- The login throttle's attempts, one row per key an attempt is counted under (the database is where every
                    -- instance counts); a row expires when it leaves its key's window, and is then deleted.
                    CREATE TABLE throttle_attempt (
                        attempt_id TEXT NOT NULL,
                        key TEXT NOT NULL,
                        counted_at TEXT NOT NULL,
                        expires_at TEXT NOT NULL,
                        PRIMARY KEY (attempt_id, key)
                    );
                    CREATE INDEX throttle_attempt_key ON throttle_attempt (key, counted_at);
                    CREATE INDEX throttle_attempt_expiry ON throttle_attempt (expires_at);

                    -- Who runs a task that runs on one instance at a time, until when.
                    CREATE TABLE lease (
                        name TEXT PRIMARY KEY NOT NULL,
                        holder TEXT NOT NULL,
                        expires_at TEXT NOT NULL
                    ) WITHOUT ROWID;

                    -- The database's generation: a copy or restore put in place of it carries a new one, so a running
                    -- instance knows its revisions no longer hold.
                    ALTER TABLE change_counter ADD COLUMN generation TEXT NOT NULL DEFAULT '';
                    UPDATE change_counter SET generation = lower(hex(randomblob(16)));
                    """
            )
        }
        migrator.registerMigration("v9-change-feed") { db in
            try db.execute(
                sql: """
                    -- The change feed: one row for every change another process or a client must hear of, written by the
                    -- triggers below in the writer's own transaction (whoever the writer is). One writer at a time makes
                    -- the order of positions the order of commits. AUTOINCREMENT never reuses a position, pruned or not,
                    -- and the first one follows the change counter this replaces, so revisions keep growing.
                    CREATE TABLE feed (
                        position INTEGER PRIMARY KEY AUTOINCREMENT,
                        kind TEXT NOT NULL,
                        subject TEXT NOT NULL,
                        detail TEXT,
                        version INTEGER,
                        created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
                    );
                    INSERT INTO sqlite_sequence (name, seq) SELECT 'feed', value FROM change_counter WHERE id = 1;
                    -- Rows older than a day are pruned; a reader that has not read as far as this must load everything.
                    ALTER TABLE change_counter ADD COLUMN feed_pruned_below INTEGER NOT NULL DEFAULT 0;

                    CREATE TRIGGER place_feed_insert AFTER INSERT ON place
                    BEGIN INSERT INTO feed (kind, subject) VALUES ('place', new.id); END;
                    CREATE TRIGGER place_feed_update AFTER UPDATE ON place
                    BEGIN INSERT INTO feed (kind, subject) VALUES ('place', new.id); END;
                    CREATE TRIGGER place_feed_delete AFTER DELETE ON place
                    BEGIN INSERT INTO feed (kind, subject) VALUES ('place', old.id); END;

                    -- A decision started, saved (a ballot, a departure) or ended: its status and version.
                    CREATE TRIGGER decision_feed_insert AFTER INSERT ON decision
                    BEGIN INSERT INTO feed (kind, subject, detail, version) VALUES ('decision', new.id, new.status, new.version); END;
                    CREATE TRIGGER decision_feed_update AFTER UPDATE ON decision
                    BEGIN INSERT INTO feed (kind, subject, detail, version) VALUES ('decision', new.id, new.status, new.version); END;
                    -- A ballot arrived, changed or was withdrawn: who (never what), at the decision's version.
                    CREATE TRIGGER ballot_feed_insert AFTER INSERT ON ballot
                    BEGIN
                        INSERT INTO feed (kind, subject, detail, version)
                        VALUES ('ballot', new.decision_id, new.user_id, (SELECT version FROM decision WHERE id = new.decision_id));
                    END;
                    CREATE TRIGGER ballot_feed_update AFTER UPDATE ON ballot
                    BEGIN
                        INSERT INTO feed (kind, subject, detail, version)
                        VALUES ('ballot', new.decision_id, new.user_id, (SELECT version FROM decision WHERE id = new.decision_id));
                    END;
                    CREATE TRIGGER ballot_feed_delete AFTER DELETE ON ballot
                    BEGIN
                        INSERT INTO feed (kind, subject, detail, version)
                        VALUES ('ballot', old.decision_id, old.user_id, (SELECT version FROM decision WHERE id = old.decision_id));
                    END;
                    -- A notification for its recipient.
                    CREATE TRIGGER notification_feed AFTER INSERT ON notification
                    BEGIN INSERT INTO feed (kind, subject, detail) VALUES ('notification', new.recipient_id, new.id); END;
                    -- Who may see what: a member joined or left a group, an account was deleted, a session revoked.
                    CREATE TRIGGER member_feed_insert AFTER INSERT ON group_member
                    BEGIN INSERT INTO feed (kind, subject, detail) VALUES ('member', new.group_id, new.user_id); END;
                    CREATE TRIGGER member_feed_delete AFTER DELETE ON group_member
                    BEGIN INSERT INTO feed (kind, subject, detail) VALUES ('member', old.group_id, old.user_id); END;
                    CREATE TRIGGER account_feed AFTER DELETE ON user_account
                    BEGIN INSERT INTO feed (kind, subject) VALUES ('account', old.id); END;
                    CREATE TRIGGER session_feed AFTER DELETE ON session
                    BEGIN INSERT INTO feed (kind, subject, detail) VALUES ('session', old.user_id, old.token_hash); END;
                    """
            )
        }
        migrator.registerMigration("v10-additions-by-owner-and-time") { db in
            // The daily limit on additions reads a person's newest additions by time: at most as many entries as the
            // limit allows, however many places they added (the index on owner alone read every one).
            try db.execute(
                sql: """
                    CREATE INDEX place_owner_added ON place (owner_id, created_at) WHERE owner_id IS NOT NULL;
                    DROP INDEX place_owner;
                    """
            )
        }
        migrator.registerMigration("v11-live-streams") { db in
            try db.execute(
                sql: """
                    -- An open live stream counts among its person's streams while its lease runs (see LiveRepository).
                    CREATE TABLE live_stream (
                        id TEXT PRIMARY KEY,
                        user_id TEXT NOT NULL,
                        holder TEXT NOT NULL,
                        expires_at TEXT NOT NULL
                    );
                    CREATE INDEX live_stream_user ON live_stream (user_id);
                    CREATE INDEX live_stream_holder ON live_stream (holder);
                    -- What a resuming stream missed: the feed's rows of one decision or recipient.
                    CREATE INDEX feed_topic ON feed (subject, position) WHERE kind IN ('decision', 'ballot', 'notification');
                    """
            )
        }
        migrator.registerMigration("v12-search-from-the-index") { db in
            // Search is answered from the in-memory index (SearchPostings), as nearby is: the full-text table and the
            // triggers that kept it in step with every write go.
            try db.execute(
                sql: """
                    DROP TRIGGER place_search_insert;
                    DROP TRIGGER place_search_update;
                    DROP TRIGGER place_search_delete;
                    DROP TABLE place_search;
                    """
            )
        }
        migrator.registerMigration("v13-swipe-rounds") { db in
            try db.execute(
                sql: """
                    -- A decision's swipe round: its rule (JSON {vetoes, minYes, deadline}) fixed at the start, and its result
                    -- (JSON) once it ended.
                    ALTER TABLE decision ADD COLUMN swipe_rule TEXT;
                    ALTER TABLE decision ADD COLUMN round_result TEXT;

                    -- One participant's answer on one candidate. Like a ballot, it outlives its author's account: the
                    -- result must stay recountable.
                    CREATE TABLE swipe (
                        decision_id TEXT NOT NULL REFERENCES decision (id) ON DELETE CASCADE,
                        user_id TEXT NOT NULL,
                        place_id TEXT NOT NULL,
                        answer TEXT NOT NULL,
                        updated_at TEXT NOT NULL,
                        PRIMARY KEY (decision_id, user_id, place_id)
                    ) WITHOUT ROWID;

                    -- The round ended (after the decision's own row of that save).
                    CREATE TRIGGER round_feed AFTER UPDATE OF round_result ON decision
                    WHEN old.round_result IS NULL AND new.round_result IS NOT NULL
                    BEGIN INSERT INTO feed (kind, subject, version) VALUES ('round', new.id, new.version); END;

                    DROP INDEX feed_topic;
                    CREATE INDEX feed_topic ON feed (subject, position) WHERE kind IN ('decision', 'ballot', 'notification', 'swipe', 'round');
                    """
            )
            // An answer given, changed or withdrawn: who (never what, never which place), at the decision's version.
            for (event, row) in [("INSERT", "new"), ("UPDATE", "new"), ("DELETE", "old")] {
                try db.execute(
                    sql: """
                        CREATE TRIGGER swipe_feed_\(event.lowercased()) AFTER \(event) ON swipe
                        BEGIN
                            INSERT INTO feed (kind, subject, detail, version)
                            VALUES ('swipe', \(row).decision_id, \(row).user_id, (SELECT version FROM decision WHERE id = \(row).decision_id));
                        END
                        """
                )
            }
        }
        migrator.registerMigration("v14-conversations") { db in
            try db.execute(
                sql: """
                    -- A decision's conversation. A message leaves with its decision and with its author's account.
                    CREATE TABLE decision_message (
                        id TEXT PRIMARY KEY,
                        decision_id TEXT NOT NULL REFERENCES decision (id) ON DELETE CASCADE,
                        author_id TEXT NOT NULL REFERENCES user_account (id) ON DELETE CASCADE,
                        text TEXT NOT NULL,
                        created_at TEXT NOT NULL
                    );
                    -- A decision's messages newest first; one person's, for the bound a minute and their export.
                    CREATE INDEX decision_message_page ON decision_message (decision_id, created_at DESC, id DESC);
                    CREATE INDEX decision_message_author ON decision_message (author_id, created_at);

                    -- A message posted: the decision, and the message's id.
                    CREATE TRIGGER decision_message_feed AFTER INSERT ON decision_message
                    BEGIN INSERT INTO feed (kind, subject, detail) VALUES ('message', new.decision_id, new.id); END;

                    DROP INDEX feed_topic;
                    CREATE INDEX feed_topic ON feed (subject, position)
                        WHERE kind IN ('decision', 'ballot', 'swipe', 'round', 'message', 'notification');
                    """
            )
        }
        migrator.registerMigration("v15-blocks-and-status") { db in
            try db.execute(
                sql: """
                    -- Who blocks whom (one way; each person's block is their own). Both sides leave with either account.
                    CREATE TABLE user_block (
                        blocker_id TEXT NOT NULL REFERENCES user_account (id) ON DELETE CASCADE,
                        blocked_id TEXT NOT NULL REFERENCES user_account (id) ON DELETE CASCADE,
                        created_at TEXT NOT NULL,
                        PRIMARY KEY (blocker_id, blocked_id),
                        CHECK (blocker_id <> blocked_id)
                    ) WITHOUT ROWID;
                    CREATE INDEX user_block_blocked ON user_block (blocked_id, blocker_id);

                    -- A person's status line, shown until it expires (none: until cleared).
                    CREATE TABLE user_status (
                        user_id TEXT PRIMARY KEY NOT NULL REFERENCES user_account (id) ON DELETE CASCADE,
                        text TEXT NOT NULL,
                        expires_at TEXT
                    ) WITHOUT ROWID;
                    """
            )
        }
        migrator.registerMigration("v16-admin-alerts") { db in
            try db.execute(
                sql: """
                    -- Alerts admins sent to their groups: who sent one to which group and when, what the bound on alerts
                    -- a group an hour counts (the words reach members as notifications). An alert leaves with its
                    -- group; its sender's account leaving keeps it, without a sender, so the bound still counts it.
                    CREATE TABLE group_alert (
                        id TEXT PRIMARY KEY,
                        group_id TEXT NOT NULL REFERENCES place_group (id) ON DELETE CASCADE,
                        sender_id TEXT REFERENCES user_account (id) ON DELETE SET NULL,
                        created_at TEXT NOT NULL
                    );
                    -- A group's alerts newest first, for the bound an hour; one sender's, for deleting their account.
                    CREATE INDEX group_alert_recent ON group_alert (group_id, created_at);
                    CREATE INDEX group_alert_sender ON group_alert (sender_id) WHERE sender_id IS NOT NULL;
                    """
            )
        }
        migrator.registerMigration("v17-visit-times-and-meet") { db in
            try db.execute(
                sql: """
                    -- When the group means to go (an instant, instead of the visit day), and whom a meet from the
                    -- participants' locations went without (a JSON list of user ids). Never a location.
                    ALTER TABLE decision ADD COLUMN visit_at TEXT;
                    ALTER TABLE decision ADD COLUMN meet_without TEXT;
                    """
            )
        }
        migrator.registerMigration("v18-photos") { db in
            try db.execute(
                sql: """
                    -- Photos' bytes, stored once per content (the SHA-256 of the cleaned bytes, in hex), in chunks of
                    -- 256 KiB, so that serving one holds a chunk in memory at a time; they go with their last photo.
                    CREATE TABLE photo_content (
                        hash TEXT PRIMARY KEY NOT NULL,
                        byte_count INTEGER NOT NULL,
                        chunk_count INTEGER NOT NULL
                    ) WITHOUT ROWID;
                    CREATE TABLE photo_chunk (
                        hash TEXT NOT NULL REFERENCES photo_content (hash) ON DELETE CASCADE,
                        seq INTEGER NOT NULL,
                        bytes BLOB NOT NULL,
                        PRIMARY KEY (hash, seq)
                    );
                    -- A photo of a place (place_id) or a person's picture (no place; user_account.picture_id names it).
                    CREATE TABLE photo (
                        id TEXT PRIMARY KEY NOT NULL,
                        place_id TEXT REFERENCES place (id) ON DELETE CASCADE,
                        user_id TEXT NOT NULL REFERENCES user_account (id) ON DELETE CASCADE,
                        hash TEXT NOT NULL REFERENCES photo_content (hash),
                        format TEXT NOT NULL,
                        width INTEGER NOT NULL,
                        height INTEGER NOT NULL,
                        byte_count INTEGER NOT NULL,
                        caption TEXT,
                        created_at TEXT NOT NULL
                    );
                    -- A place's photos newest first; a person's in the window of the daily bound; a content's users.
                    CREATE INDEX photo_place ON photo (place_id, created_at, id) WHERE place_id IS NOT NULL;
                    CREATE INDEX photo_user ON photo (user_id, created_at);
                    CREATE INDEX photo_hash ON photo (hash);
                    -- What lists show of a place's photos, kept in the place's row (a photo change is a place change).
                    ALTER TABLE place ADD COLUMN photo_count INTEGER NOT NULL DEFAULT 0;
                    ALTER TABLE place ADD COLUMN cover_photo_id TEXT;
                    ALTER TABLE user_account ADD COLUMN picture_id TEXT;
                    """
            )
        }
        migrator.registerMigration("v19-stream-holders") { db in
            try db.execute(
                sql: """
                    -- A live stream counts while its holder's lease runs: one row per instance (process), renewed by one
                    -- statement whatever the number of its streams. A stream's own expires_at is still written (its lease
                    -- as it opens), so that a process of the release before, which counts by it, still counts it a while.
                    CREATE TABLE live_holder (
                        holder TEXT PRIMARY KEY NOT NULL,
                        expires_at TEXT NOT NULL
                    ) WITHOUT ROWID;
                    """
            )
        }
        return migrator
    }
}
