import PlacesCore
import PostgresNIO

extension PostgresPlacesDatabase {
    /// One step of the schema's history: its version, a name, and its statements, run in order in one transaction.
    struct Migration {
        let version: Int
        let name: String
        let statements: [String]
    }

    /// Text compared byte by byte, as SQLite compares it, whatever the database's locale: ids, names and timestamps
    /// then sort alike on both engines, and `lower()` folds ASCII only, as SQLite's NOCASE does.
    private static let text = #"TEXT COLLATE "C""#

    /// `CREATE FUNCTION places_feed_<name>()`: a trigger function of the change feed that runs `insert` and returns
    /// NULL. With `changed` (a table), the row the trigger fired for is `changed`: the old row for a delete, else the
    /// new one. Migrations call it, so its text must stay what shipped migrations ran.
    private static func feedFunction(_ name: String, changed table: String? = nil, inserting insert: String) -> String {
        let declare = table.map { "DECLARE\n    changed \($0);\n" } ?? ""
        let pick = table == nil ? "" : "    IF TG_OP = 'DELETE' THEN changed := OLD; ELSE changed := NEW; END IF;\n"
        return """
            CREATE FUNCTION places_feed_\(name)() RETURNS trigger LANGUAGE plpgsql AS $$
            \(declare)BEGIN
            \(pick)    \(insert);
                RETURN NULL;
            END $$
            """
    }

    /// `CREATE FUNCTION <signature>`: a read that runs `query` (its parameters `$1`, `$2`, …) and returns its rows, named
    /// as `columns` says, with sequential scans and parallel workers off, so that the plan PostgreSQL keeps for it on a
    /// connection reads ranges of a table through its index whatever the table's size when it was planned (see
    /// `PreparedStatement`). Migrations call it, so its text must stay what shipped migrations ran.
    private static func keptPlanRead(_ signature: String, returning columns: String, query: String, replacing: Bool = false) -> String {
        """
        CREATE \(replacing ? "OR REPLACE " : "")FUNCTION \(signature)
        RETURNS TABLE (
        \(columns)
        ) LANGUAGE plpgsql STABLE SET enable_seqscan = off SET max_parallel_workers_per_gather = 0 AS $$
        #variable_conflict use_column
        BEGIN
            RETURN QUERY \(query);
        END $$
        """
    }

    /// The schema's history. Never edit a shipped migration: add a new one. Timestamps are ISO-8601 text (as on
    /// SQLite), so a page's cursor and `places copy` carry them unchanged.
    static let migrations: [Migration] = [
        Migration(
            version: 1,
            name: "places-people-together-decisions",
            statements: [
                """
                CREATE TABLE change_counter (
                    id INTEGER PRIMARY KEY CHECK (id = 1),
                    value BIGINT NOT NULL,
                    generation \(text) NOT NULL
                )
                """,
                "INSERT INTO change_counter (id, value, generation) VALUES (1, 0, gen_random_uuid()::text)",
                """
                CREATE TABLE place (
                    id \(text) PRIMARY KEY,
                    kind \(text) NOT NULL CHECK (kind IN ('gem', 'restaurant')),
                    name \(text) NOT NULL,
                    description \(text) NOT NULL DEFAULT '',
                    latitude DOUBLE PRECISION NOT NULL CHECK (latitude BETWEEN -90 AND 90),
                    longitude DOUBLE PRECISION NOT NULL CHECK (longitude BETWEEN -180 AND 180),
                    address \(text),
                    city \(text),
                    tags \(text) NOT NULL DEFAULT '[]',
                    cuisine \(text),
                    price_level INTEGER CHECK (price_level BETWEEN 1 AND 4),
                    phone \(text),
                    website \(text),
                    opening_hours \(text),
                    time_zone \(text),
                    owner_id \(text),
                    seed_source \(text),
                    created_at \(text) NOT NULL,
                    updated_at \(text) NOT NULL,
                    deleted_at \(text),
                    revision BIGINT NOT NULL,
                    rating_count INTEGER NOT NULL DEFAULT 0,
                    rating_sum INTEGER NOT NULL DEFAULT 0,
                    -- The words of the place's fields as search sees them (SearchText, folded in Swift), each marked
                    -- with its field: n.word (name), l.word (tags and cuisine), d.word (description).
                    search TSVECTOR NOT NULL DEFAULT ''
                )
                """,
                "CREATE INDEX place_revision ON place (revision)",
                "CREATE INDEX place_owner ON place (owner_id) WHERE owner_id IS NOT NULL",
                "CREATE INDEX place_search ON place USING gin (search)",
                // A place's relevance for the query's words, as SearchText defines it: per word, 10 when it begins a
                // word of the name, 4 of the labels, 1 of the description, added up; 0 when some word begins none.
                """
                CREATE FUNCTION places_relevance(search TSVECTOR, words TEXT[]) RETURNS INTEGER
                LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
                    SELECT CASE WHEN bool_and(weight > 0) THEN sum(weight)::integer ELSE 0 END FROM (
                        SELECT 10 * (search @@ ('''n.' || word || ''':*')::tsquery)::integer
                            + 4 * (search @@ ('''l.' || word || ''':*')::tsquery)::integer
                            + (search @@ ('''d.' || word || ''':*')::tsquery)::integer AS weight
                        FROM unnest(words) AS word
                    ) AS per_word
                $$
                """,
                """
                CREATE TABLE user_account (
                    id \(text) PRIMARY KEY,
                    username \(text) NOT NULL,
                    username_key \(text) NOT NULL UNIQUE,
                    email \(text) UNIQUE,
                    phone \(text) UNIQUE,
                    password_hash \(text) NOT NULL,
                    display_name \(text),
                    -- The display name folded in Swift (case, accents, width) as user search folds its text.
                    display_name_folded \(text),
                    bio \(text),
                    city \(text),
                    avatar_url \(text),
                    created_at \(text) NOT NULL,
                    updated_at \(text) NOT NULL,
                    CHECK (email IS NOT NULL OR phone IS NOT NULL)
                )
                """,
                """
                CREATE TABLE session (
                    token_hash \(text) PRIMARY KEY,
                    user_id \(text) NOT NULL REFERENCES user_account (id) ON DELETE CASCADE,
                    created_at \(text) NOT NULL,
                    expires_at \(text) NOT NULL
                )
                """,
                "CREATE INDEX session_of_user ON session (user_id)",
                """
                CREATE TABLE user_settings (
                    user_id \(text) PRIMARY KEY REFERENCES user_account (id) ON DELETE CASCADE,
                    settings \(text) NOT NULL,
                    updated_at \(text) NOT NULL
                )
                """,
                """
                CREATE TABLE favorite (
                    user_id \(text) NOT NULL REFERENCES user_account (id) ON DELETE CASCADE,
                    place_id \(text) NOT NULL REFERENCES place (id),
                    created_at \(text) NOT NULL,
                    PRIMARY KEY (user_id, place_id)
                )
                """,
                """
                CREATE TABLE rating (
                    user_id \(text) NOT NULL REFERENCES user_account (id) ON DELETE CASCADE,
                    place_id \(text) NOT NULL REFERENCES place (id),
                    stars INTEGER NOT NULL CHECK (stars BETWEEN 1 AND 5),
                    review \(text),
                    created_at \(text) NOT NULL,
                    updated_at \(text) NOT NULL,
                    PRIMARY KEY (user_id, place_id)
                )
                """,
                "CREATE INDEX rating_place ON rating (place_id)",
                // One row per pair whichever way the request went: the unique index on (least, greatest) forbids a
                // request A→B beside one B→A.
                """
                CREATE TABLE friendship (
                    requester_id \(text) NOT NULL REFERENCES user_account (id) ON DELETE CASCADE,
                    addressee_id \(text) NOT NULL REFERENCES user_account (id) ON DELETE CASCADE,
                    status \(text) NOT NULL CHECK (status IN ('pending', 'accepted')),
                    created_at \(text) NOT NULL,
                    accepted_at \(text),
                    PRIMARY KEY (requester_id, addressee_id),
                    CHECK (requester_id <> addressee_id),
                    CHECK ((status = 'accepted') = (accepted_at IS NOT NULL))
                )
                """,
                "CREATE UNIQUE INDEX friendship_pair ON friendship (least(requester_id, addressee_id), greatest(requester_id, addressee_id))",
                "CREATE INDEX friendship_addressee ON friendship (addressee_id)",
                """
                CREATE TABLE place_group (
                    id \(text) PRIMARY KEY,
                    name \(text) NOT NULL,
                    description \(text),
                    picture_url \(text),
                    created_at \(text) NOT NULL,
                    updated_at \(text) NOT NULL
                )
                """,
                """
                CREATE TABLE group_member (
                    group_id \(text) NOT NULL REFERENCES place_group (id) ON DELETE CASCADE,
                    user_id \(text) NOT NULL REFERENCES user_account (id) ON DELETE CASCADE,
                    role \(text) NOT NULL CHECK (role IN ('admin', 'member')),
                    joined_at \(text) NOT NULL,
                    PRIMARY KEY (group_id, user_id)
                )
                """,
                "CREATE INDEX group_member_user ON group_member (user_id)",
                """
                CREATE TABLE group_invitation (
                    group_id \(text) NOT NULL REFERENCES place_group (id) ON DELETE CASCADE,
                    invitee_id \(text) NOT NULL REFERENCES user_account (id) ON DELETE CASCADE,
                    inviter_id \(text) NOT NULL REFERENCES user_account (id) ON DELETE CASCADE,
                    created_at \(text) NOT NULL,
                    PRIMARY KEY (group_id, invitee_id)
                )
                """,
                "CREATE INDEX group_invitation_invitee ON group_invitation (invitee_id)",
                "CREATE INDEX group_invitation_inviter ON group_invitation (inviter_id)",
                """
                CREATE TABLE place_collection (
                    id \(text) PRIMARY KEY,
                    owner_id \(text) REFERENCES user_account (id) ON DELETE CASCADE,
                    group_id \(text) REFERENCES place_group (id) ON DELETE CASCADE,
                    name \(text) NOT NULL,
                    description \(text),
                    created_at \(text) NOT NULL,
                    updated_at \(text) NOT NULL,
                    CHECK ((owner_id IS NULL) <> (group_id IS NULL))
                )
                """,
                "CREATE INDEX place_collection_owner ON place_collection (owner_id) WHERE owner_id IS NOT NULL",
                "CREATE INDEX place_collection_group ON place_collection (group_id) WHERE group_id IS NOT NULL",
                // Positions run 0..<count in each collection; writes keep them dense.
                """
                CREATE TABLE collection_entry (
                    collection_id \(text) NOT NULL REFERENCES place_collection (id) ON DELETE CASCADE,
                    place_id \(text) NOT NULL REFERENCES place (id),
                    position INTEGER NOT NULL CHECK (position >= 0),
                    added_by \(text) REFERENCES user_account (id) ON DELETE SET NULL,
                    added_at \(text) NOT NULL,
                    PRIMARY KEY (collection_id, place_id)
                )
                """,
                "CREATE INDEX collection_entry_position ON collection_entry (collection_id, position)",
                "CREATE INDEX collection_entry_place ON collection_entry (place_id)",
                "CREATE INDEX collection_entry_added_by ON collection_entry (added_by) WHERE added_by IS NOT NULL",
                """
                CREATE TABLE notification (
                    id \(text) PRIMARY KEY,
                    recipient_id \(text) NOT NULL REFERENCES user_account (id) ON DELETE CASCADE,
                    kind \(text) NOT NULL,
                    message \(text) NOT NULL,
                    subject \(text) NOT NULL,
                    channels \(text) NOT NULL,
                    created_at \(text) NOT NULL,
                    read_at \(text)
                )
                """,
                "CREATE INDEX notification_recipient ON notification (recipient_id, created_at)",
                """
                CREATE TABLE decision (
                    id \(text) PRIMARY KEY,
                    group_id \(text) REFERENCES place_group (id) ON DELETE CASCADE,
                    created_by \(text) NOT NULL,
                    title \(text),
                    method \(text) NOT NULL CHECK (method IN ('random', 'tiered', 'manual')),
                    status \(text) NOT NULL CHECK (status IN ('active', 'completed', 'expired', 'closed')),
                    candidates \(text) NOT NULL,
                    weighted BOOLEAN NOT NULL,
                    scheduled BOOLEAN NOT NULL,
                    seed \(text) NOT NULL,
                    deadline \(text),
                    visit_date \(text),
                    created_at \(text) NOT NULL,
                    ended_at \(text),
                    reminder_sent_at \(text),
                    result \(text),
                    -- Participants who left a group while its decision was open (JSON list of {userId, at, ballotWithdrawn}).
                    departures \(text),
                    -- Optimistic concurrency: `version` counts every save, `decision_version` those of the decision itself.
                    version BIGINT NOT NULL DEFAULT 0,
                    decision_version BIGINT NOT NULL DEFAULT 0
                )
                """,
                "CREATE INDEX decision_due ON decision (deadline) WHERE status = 'active' AND deadline IS NOT NULL",
                "CREATE INDEX decision_group ON decision (group_id, created_at)",
                "CREATE INDEX decision_starter ON decision (created_by, created_at)",
                """
                CREATE TABLE decision_participant (
                    decision_id \(text) NOT NULL REFERENCES decision (id) ON DELETE CASCADE,
                    user_id \(text) NOT NULL,
                    PRIMARY KEY (decision_id, user_id)
                )
                """,
                "CREATE INDEX decision_participant_user ON decision_participant (user_id)",
                // A ballot outlives its voter's account: the result must stay recountable.
                """
                CREATE TABLE ballot (
                    decision_id \(text) NOT NULL REFERENCES decision (id) ON DELETE CASCADE,
                    user_id \(text) NOT NULL,
                    ranking \(text) NOT NULL,
                    cast_at \(text) NOT NULL,
                    updated_at \(text) NOT NULL,
                    PRIMARY KEY (decision_id, user_id)
                )
                """,
                // The last time someone declined a friend request (subject: the requester) or a group invitation
                // (subject: the group): asking again soon after is stored, but does not notify them again.
                """
                CREATE TABLE declined_request (
                    kind \(text) NOT NULL CHECK (kind IN ('friend', 'group')),
                    subject_id \(text) NOT NULL,
                    recipient_id \(text) NOT NULL REFERENCES user_account (id) ON DELETE CASCADE,
                    declined_at \(text) NOT NULL,
                    PRIMARY KEY (kind, subject_id, recipient_id)
                )
                """,
            ]
        ),
        Migration(
            version: 2,
            name: "throttle-and-leases",
            statements: [
                // The login throttle's attempts, one row per key an attempt is counted under (the database is where every
                // instance counts); a row expires when it leaves its key's window, and is then deleted.
                """
                CREATE TABLE throttle_attempt (
                    attempt_id \(text) NOT NULL,
                    key \(text) NOT NULL,
                    counted_at \(text) NOT NULL,
                    expires_at \(text) NOT NULL,
                    PRIMARY KEY (attempt_id, key)
                )
                """,
                "CREATE INDEX throttle_attempt_key ON throttle_attempt (key, counted_at)",
                "CREATE INDEX throttle_attempt_expiry ON throttle_attempt (expires_at)",
                // Who runs a task that runs on one instance at a time, until when.
                """
                CREATE TABLE lease (
                    name \(text) PRIMARY KEY,
                    holder \(text) NOT NULL,
                    expires_at \(text) NOT NULL
                )
                """,
            ]
        ),
        Migration(
            version: 3,
            name: "change-feed",
            statements: [
                // The change feed: one row for every change another instance or a client must hear of, written by the
                // triggers below in the writer's own transaction (whoever the writer is: an instance, a command, psql).
                // `xid` is the writing transaction's id, taken before it commits: a reader reads only below the oldest
                // transaction still running (the horizon), where nothing can commit any more, and re-reads the current
                // rows of what changed rather than trusting the order of the ids. `position` orders the rows of one
                // transaction; `version` is the decision's version (saves of one decision are ordered by its row lock).
                """
                CREATE TABLE feed (
                    position BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
                    xid XID8 NOT NULL DEFAULT pg_current_xact_id(),
                    kind \(text) NOT NULL,
                    subject \(text) NOT NULL,
                    detail \(text),
                    version BIGINT,
                    created_at TIMESTAMPTZ NOT NULL DEFAULT now()
                )
                """,
                "CREATE INDEX feed_xid ON feed (xid)",
                // Rows older than a day are pruned; an index that has not read as far as this must load everything.
                "ALTER TABLE change_counter ADD COLUMN feed_pruned_below BIGINT NOT NULL DEFAULT 0",
                // The place rows' `revision` is now the id of the transaction that last wrote them (a seed tells its own
                // rows by it); the feed, not the column, says what changed.
                "DROP INDEX place_revision",
                feedFunction("place", inserting: "INSERT INTO feed (kind, subject) SELECT 'place', id FROM changed"),
                "CREATE TRIGGER place_feed_insert AFTER INSERT ON place REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION places_feed_place()",
                "CREATE TRIGGER place_feed_update AFTER UPDATE ON place REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION places_feed_place()",
                "CREATE TRIGGER place_feed_delete AFTER DELETE ON place REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION places_feed_place()",
                // A decision started, saved (a ballot, a departure) or ended: its status and version.
                feedFunction(
                    "decision",
                    inserting: "INSERT INTO feed (kind, subject, detail, version) VALUES ('decision', NEW.id, NEW.status, NEW.version)"
                ),
                "CREATE TRIGGER decision_feed AFTER INSERT OR UPDATE ON decision FOR EACH ROW EXECUTE FUNCTION places_feed_decision()",
                // A ballot arrived, changed or was withdrawn: who (never what), at the decision's version.
                feedFunction(
                    "ballot",
                    changed: "ballot",
                    inserting: """
                        INSERT INTO feed (kind, subject, detail, version)
                            VALUES ('ballot', changed.decision_id, changed.user_id, (SELECT version FROM decision WHERE id = changed.decision_id))
                        """
                ),
                "CREATE TRIGGER ballot_feed AFTER INSERT OR UPDATE OR DELETE ON ballot FOR EACH ROW EXECUTE FUNCTION places_feed_ballot()",
                // A notification for its recipient.
                feedFunction("notification", inserting: "INSERT INTO feed (kind, subject, detail) VALUES ('notification', NEW.recipient_id, NEW.id)"),
                "CREATE TRIGGER notification_feed AFTER INSERT ON notification FOR EACH ROW EXECUTE FUNCTION places_feed_notification()",
                // Who may see what: a member joined or left a group, an account was deleted, a session revoked.
                feedFunction(
                    "member",
                    changed: "group_member",
                    inserting: "INSERT INTO feed (kind, subject, detail) VALUES ('member', changed.group_id, changed.user_id)"
                ),
                "CREATE TRIGGER member_feed AFTER INSERT OR DELETE ON group_member FOR EACH ROW EXECUTE FUNCTION places_feed_member()",
                feedFunction("account", inserting: "INSERT INTO feed (kind, subject) VALUES ('account', OLD.id)"),
                "CREATE TRIGGER account_feed AFTER DELETE ON user_account FOR EACH ROW EXECUTE FUNCTION places_feed_account()",
                feedFunction("session", inserting: "INSERT INTO feed (kind, subject, detail) VALUES ('session', OLD.user_id, OLD.token_hash)"),
                "CREATE TRIGGER session_feed AFTER DELETE ON session FOR EACH ROW EXECUTE FUNCTION places_feed_session()",
            ]
        ),
        Migration(
            version: 4,
            name: "one-statement-saves",
            statements: [
                // A save that needs several statements in order (a lock, then what the lock guards) runs them in one of
                // these functions, called as one statement outside a transaction: the whole save is then one round trip,
                // and the rows it locks are held for as long as the database takes to write them and commit, never while
                // an answer travels back to the instance and the next statement comes. (Under load an instance takes
                // milliseconds to send the next statement; a decision that every ballot locks was held that long.) In a
                // function each statement sees what was committed before it started, as it would if sent on its own.
                """
                CREATE FUNCTION places_recount_ratings(counted_place TEXT, OUT rating_count INTEGER, OUT rating_sum INTEGER)
                LANGUAGE plpgsql AS $$
                #variable_conflict use_column
                BEGIN
                    UPDATE place SET (rating_count, rating_sum) = (
                        SELECT count(*), coalesce(sum(stars), 0) FROM rating WHERE rating.place_id = counted_place
                    ), revision = pg_current_xact_id()::text::bigint
                    WHERE place.id = counted_place
                    RETURNING place.rating_count, place.rating_sum INTO rating_count, rating_sum;
                END $$
                """,
                // The rater's account (KEY SHARE, as the rating's foreign key would), then the place's row, as account
                // deletion takes them; the recount, a statement of its own, sees every rating saved before the lock.
                """
                CREATE FUNCTION places_save_rating(
                    rater TEXT, rated_place TEXT, given_stars INTEGER, given_review TEXT, given_created TEXT, given_updated TEXT,
                    removing BOOLEAN,
                    OUT rating_count INTEGER, OUT rating_sum INTEGER, OUT changed BOOLEAN
                ) LANGUAGE plpgsql AS $$
                BEGIN
                    PERFORM 1 FROM user_account WHERE id = rater FOR KEY SHARE;
                    PERFORM 1 FROM place WHERE id = rated_place FOR NO KEY UPDATE;
                    IF removing THEN
                        DELETE FROM rating WHERE user_id = rater AND place_id = rated_place;
                    ELSE
                        INSERT INTO rating (user_id, place_id, stars, review, created_at, updated_at)
                        VALUES (rater, rated_place, given_stars, given_review, given_created, given_updated)
                        ON CONFLICT (user_id, place_id) DO UPDATE SET stars = excluded.stars, review = excluded.review,
                            updated_at = excluded.updated_at;
                    END IF;
                    changed := FOUND;
                    IF changed THEN
                        SELECT recount.rating_count, recount.rating_sum INTO rating_count, rating_sum
                        FROM places_recount_ratings(rated_place) AS recount;
                    END IF;
                END $$
                """,
                """
                CREATE FUNCTION places_insert_notifications(
                    ids TEXT[], recipients TEXT[], kinds TEXT[], messages TEXT[], subjects TEXT[], channels TEXT[],
                    created_times TEXT[], read_times TEXT[]
                ) RETURNS void LANGUAGE sql AS $$
                    INSERT INTO notification (id, recipient_id, kind, message, subject, channels, created_at, read_at)
                    SELECT id, recipient_id, kind, message, subject, channels, created_at, nullif(read_at, '')
                    FROM unnest(ids, recipients, kinds, messages, subjects, channels, created_times, read_times)
                        WITH ORDINALITY AS n(id, recipient_id, kind, message, subject, channels, created_at, read_at, position)
                    ORDER BY position
                $$
                """,
                // A decision's save: the first statement locks the decision's row (saves of one decision run one after
                // the other, each seeing those before it) and checks the version the change depends on; no row comes
                // back when that check failed or there is no such decision. Who is left to vote is read last, so of two
                // last ballots saved at once the second finds nobody left.
                """
                CREATE FUNCTION places_save_decision(
                    saved_id TEXT, previous_version BIGINT, previous_decision_version BIGINT, writes_decision BOOLEAN,
                    new_status TEXT, new_ended_at TEXT, new_reminder_sent_at TEXT, new_result TEXT, new_departures TEXT,
                    leaving TEXT[], withdrawn TEXT[], voters TEXT[], rankings TEXT[], cast_times TEXT[], updated_times TEXT[],
                    note_ids TEXT[], note_recipients TEXT[], note_kinds TEXT[], note_messages TEXT[], note_subjects TEXT[],
                    note_channels TEXT[], note_created TEXT[], note_read TEXT[], counts_waiting BOOLEAN,
                    OUT saved_version BIGINT, OUT saved_decision_version BIGINT, OUT not_yet_voted TEXT[]
                ) RETURNS SETOF record LANGUAGE plpgsql AS $$
                BEGIN
                    IF writes_decision THEN
                        UPDATE decision SET version = decision.version + 1, decision_version = decision.decision_version + 1,
                            status = new_status, ended_at = new_ended_at, reminder_sent_at = new_reminder_sent_at,
                            result = new_result, departures = new_departures
                        WHERE decision.id = saved_id AND decision.version = previous_version
                        RETURNING decision.version, decision.decision_version INTO saved_version, saved_decision_version;
                    ELSE
                        UPDATE decision SET version = decision.version + 1
                        WHERE decision.id = saved_id AND decision.decision_version = previous_decision_version
                        RETURNING decision.version, decision.decision_version INTO saved_version, saved_decision_version;
                    END IF;
                    IF NOT FOUND THEN RETURN; END IF;
                    IF cardinality(leaving) > 0 THEN
                        DELETE FROM decision_participant WHERE decision_id = saved_id AND user_id = ANY(leaving);
                    END IF;
                    IF cardinality(withdrawn) > 0 THEN
                        DELETE FROM ballot WHERE decision_id = saved_id AND user_id = ANY(withdrawn);
                    END IF;
                    IF cardinality(voters) > 0 THEN
                        -- A changed ballot keeps the time it was first cast.
                        INSERT INTO ballot (decision_id, user_id, ranking, cast_at, updated_at)
                        SELECT saved_id, b.user_id, b.ranking, b.cast_at, b.updated_at
                        FROM unnest(voters, rankings, cast_times, updated_times) AS b(user_id, ranking, cast_at, updated_at)
                        ON CONFLICT (decision_id, user_id) DO UPDATE SET ranking = excluded.ranking, updated_at = excluded.updated_at;
                    END IF;
                    IF cardinality(note_ids) > 0 THEN
                        PERFORM places_insert_notifications(note_ids, note_recipients, note_kinds, note_messages, note_subjects,
                            note_channels, note_created, note_read);
                    END IF;
                    not_yet_voted := CASE WHEN counts_waiting THEN ARRAY(
                        SELECT p.user_id FROM decision_participant p WHERE p.decision_id = saved_id
                        AND NOT EXISTS (SELECT 1 FROM ballot b WHERE b.decision_id = p.decision_id AND b.user_id = p.user_id)
                    ) ELSE '{}' END;
                    RETURN NEXT;
                END $$
                """,
            ]
        ),
        Migration(
            version: 5,
            name: "late-commits",
            statements: [
                // A transaction that writes the feed but must not hold its horizon back (a seed into a live database runs
                // for as long as its file: a million rows take twenty seconds) runs under a name the horizon leaves out
                // and records its transaction id here, in the same transaction. Readers have read past that id by the
                // time it commits, so after it commits it is announced: whoever sees its row first (the seed itself, or
                // any instance's next read of the feed) deletes it and appends one feed row of kind `late` naming it, at
                // the head of the feed. Readers take the late transaction's own rows through that announcement, at its
                // position, and never on their own: once each, in the order of the commits. Nothing
                // of a transaction that rolls back is left here, and one that commits is announced even if its writer
                // stops just after.
                "CREATE TABLE feed_late_commit (xid XID8 PRIMARY KEY, created_at TIMESTAMPTZ NOT NULL DEFAULT now())",
                // The daily limit on additions reads a person's newest additions by time: at most as many entries as the
                // limit allows, however many places they added (the index on owner alone read every one).
                "CREATE INDEX place_owner_added ON place (owner_id, created_at) WHERE owner_id IS NOT NULL",
                "DROP INDEX place_owner",
                // A rating's save tells whether the place is live (`live`), so a rating needs no read of the place
                // first: a new rating of a place that is not stored, or deleted, is refused and changes nothing. (An
                // instance of the release before reads the columns it knows.)
                "DROP FUNCTION places_save_rating(TEXT, TEXT, INTEGER, TEXT, TEXT, TEXT, BOOLEAN)",
                """
                CREATE FUNCTION places_save_rating(
                    rater TEXT, rated_place TEXT, given_stars INTEGER, given_review TEXT, given_created TEXT, given_updated TEXT,
                    removing BOOLEAN,
                    OUT rating_count INTEGER, OUT rating_sum INTEGER, OUT changed BOOLEAN, OUT live BOOLEAN
                ) LANGUAGE plpgsql AS $$
                BEGIN
                    PERFORM 1 FROM user_account WHERE id = rater FOR KEY SHARE;
                    SELECT place.deleted_at IS NULL INTO live FROM place WHERE id = rated_place FOR NO KEY UPDATE;
                    live := coalesce(live, false);
                    changed := false;
                    IF removing THEN
                        DELETE FROM rating WHERE user_id = rater AND place_id = rated_place;
                    ELSIF live THEN
                        INSERT INTO rating (user_id, place_id, stars, review, created_at, updated_at)
                        VALUES (rater, rated_place, given_stars, given_review, given_created, given_updated)
                        ON CONFLICT (user_id, place_id) DO UPDATE SET stars = excluded.stars, review = excluded.review,
                            updated_at = excluded.updated_at;
                    ELSE
                        RETURN;
                    END IF;
                    changed := FOUND;
                    IF changed THEN
                        SELECT recount.rating_count, recount.rating_sum INTO rating_count, rating_sum
                        FROM places_recount_ratings(rated_place) AS recount;
                    END IF;
                END $$
                """,
            ]
        ),
        Migration(
            version: 6,
            name: "live-streams",
            statements: [
                // An open live stream counts among its person's streams while its lease runs: its instance renews the
                // leases of all its streams together, and those of an instance that died lapse on their own.
                """
                CREATE TABLE live_stream (
                    id \(text) PRIMARY KEY,
                    user_id \(text) NOT NULL,
                    holder \(text) NOT NULL,
                    expires_at \(text) NOT NULL
                )
                """,
                "CREATE INDEX live_stream_user ON live_stream (user_id)",
                "CREATE INDEX live_stream_holder ON live_stream (holder)",
                // Opens a stream when its person holds fewer than `allowed` unexpired: one statement, and one opening at
                // a time per person (the advisory lock, released at commit), so two instances never both take the last.
                """
                CREATE FUNCTION places_open_stream(stream_id TEXT, person TEXT, held_by TEXT, now_text TEXT, until_text TEXT, allowed INTEGER)
                RETURNS BOOLEAN LANGUAGE plpgsql AS $$
                BEGIN
                    PERFORM pg_advisory_xact_lock(hashtextextended('places/live_stream/' || person, 0));
                    DELETE FROM live_stream WHERE user_id = person AND expires_at <= now_text;
                    IF (SELECT count(*) FROM live_stream WHERE user_id = person) >= allowed THEN
                        RETURN false;
                    END IF;
                    INSERT INTO live_stream (id, user_id, holder, expires_at) VALUES (stream_id, person, held_by, until_text);
                    RETURN true;
                END $$
                """,
                // A stream that resumes reads what its topic missed: the feed's rows of one decision or recipient, from
                // an index of those kinds alone (seeds' place rows add nothing to it).
                "CREATE INDEX feed_topic ON feed (subject, xid, position) WHERE kind IN ('decision', 'ballot', 'notification')",
            ]
        ),
        Migration(
            version: 7,
            name: "search-from-the-index",
            statements: [
                // Search is answered from the in-memory index (SearchPostings), as nearby is: the marked words' index
                // and the relevance function go, and with them their cost on every write. The `search` column itself
                // stays, empty (its default) in every row written from now on, for one more release: instances of the
                // release before, still serving during a rolling upgrade, write it. A later release drops it.
                "DROP INDEX place_search",
                "DROP FUNCTION places_relevance(TSVECTOR, TEXT[])",
            ]
        ),
        Migration(
            version: 8,
            name: "swipe-rounds",
            statements: [
                // A decision's swipe round: its rule (JSON {vetoes, minYes, deadline}) fixed at the start, and its result
                // (JSON) once it ended.
                "ALTER TABLE decision ADD COLUMN swipe_rule \(text)",
                "ALTER TABLE decision ADD COLUMN round_result \(text)",
                // One participant's answer on one candidate. Like a ballot, it outlives its author's account: the
                // result must stay recountable.
                """
                CREATE TABLE swipe (
                    decision_id \(text) NOT NULL REFERENCES decision (id) ON DELETE CASCADE,
                    user_id \(text) NOT NULL,
                    place_id \(text) NOT NULL,
                    answer \(text) NOT NULL,
                    updated_at \(text) NOT NULL,
                    PRIMARY KEY (decision_id, user_id, place_id)
                )
                """,
                // An answer given, changed or withdrawn: who (never what, never which place), at the decision's version.
                """
                CREATE FUNCTION places_feed_swipe() RETURNS trigger LANGUAGE plpgsql AS $$
                DECLARE
                    changed swipe;
                BEGIN
                    IF TG_OP = 'DELETE' THEN changed := OLD; ELSE changed := NEW; END IF;
                    INSERT INTO feed (kind, subject, detail, version)
                    VALUES ('swipe', changed.decision_id, changed.user_id, (SELECT version FROM decision WHERE id = changed.decision_id));
                    RETURN NULL;
                END $$
                """,
                "CREATE TRIGGER swipe_feed AFTER INSERT OR UPDATE OR DELETE ON swipe FOR EACH ROW EXECUTE FUNCTION places_feed_swipe()",
                // A decision's row as before, and, when its round has just ended, a `round` row after it.
                """
                CREATE OR REPLACE FUNCTION places_feed_decision() RETURNS trigger LANGUAGE plpgsql AS $$
                BEGIN
                    INSERT INTO feed (kind, subject, detail, version) VALUES ('decision', NEW.id, NEW.status, NEW.version);
                    IF TG_OP = 'UPDATE' AND OLD.round_result IS NULL AND NEW.round_result IS NOT NULL THEN
                        INSERT INTO feed (kind, subject, version) VALUES ('round', NEW.id, NEW.version);
                    END IF;
                    RETURN NULL;
                END $$
                """,
                "DROP INDEX feed_topic",
                "CREATE INDEX feed_topic ON feed (subject, xid, position) WHERE kind IN ('decision', 'ballot', 'notification', 'swipe', 'round')",
                // A decision's save, now with the round's result and answers. It answers who has a ballot, and how many
                // answers each participant has, once it is in (Core decides whether that is everyone), rather than who
                // is left to vote: the rule lives in Core alone. The save of version 4 (one more argument,
                // `counts_waiting`) stays for one more release, for instances of the release before that still serve
                // during a rolling upgrade; a later release drops it.
                """
                CREATE FUNCTION places_save_decision(
                    saved_id TEXT, previous_version BIGINT, previous_decision_version BIGINT, writes_decision BOOLEAN,
                    new_status TEXT, new_ended_at TEXT, new_reminder_sent_at TEXT, new_result TEXT, new_departures TEXT,
                    new_round_result TEXT, leaving TEXT[], withdrawn TEXT[], voters TEXT[], rankings TEXT[], cast_times TEXT[],
                    updated_times TEXT[], swipe_users TEXT[], swipe_places TEXT[], swipe_answers TEXT[], swipe_times TEXT[],
                    note_ids TEXT[], note_recipients TEXT[], note_kinds TEXT[], note_messages TEXT[], note_subjects TEXT[],
                    note_channels TEXT[], note_created TEXT[], note_read TEXT[],
                    OUT saved_version BIGINT, OUT saved_decision_version BIGINT, OUT saved_voters TEXT[],
                    OUT answered_users TEXT[], OUT answered_counts BIGINT[]
                ) RETURNS SETOF record LANGUAGE plpgsql AS $$
                BEGIN
                    IF writes_decision THEN
                        UPDATE decision SET version = decision.version + 1, decision_version = decision.decision_version + 1,
                            status = new_status, ended_at = new_ended_at, reminder_sent_at = new_reminder_sent_at,
                            result = new_result, departures = new_departures, round_result = new_round_result
                        WHERE decision.id = saved_id AND decision.version = previous_version
                        RETURNING decision.version, decision.decision_version INTO saved_version, saved_decision_version;
                    ELSE
                        UPDATE decision SET version = decision.version + 1
                        WHERE decision.id = saved_id AND decision.decision_version = previous_decision_version
                        RETURNING decision.version, decision.decision_version INTO saved_version, saved_decision_version;
                    END IF;
                    IF NOT FOUND THEN RETURN; END IF;
                    IF cardinality(leaving) > 0 THEN
                        DELETE FROM decision_participant WHERE decision_id = saved_id AND user_id = ANY(leaving);
                        DELETE FROM swipe WHERE decision_id = saved_id AND user_id = ANY(leaving);
                    END IF;
                    IF cardinality(withdrawn) > 0 THEN
                        DELETE FROM ballot WHERE decision_id = saved_id AND user_id = ANY(withdrawn);
                    END IF;
                    IF cardinality(voters) > 0 THEN
                        -- A changed ballot keeps the time it was first cast.
                        INSERT INTO ballot (decision_id, user_id, ranking, cast_at, updated_at)
                        SELECT saved_id, b.user_id, b.ranking, b.cast_at, b.updated_at
                        FROM unnest(voters, rankings, cast_times, updated_times) AS b(user_id, ranking, cast_at, updated_at)
                        ON CONFLICT (decision_id, user_id) DO UPDATE SET ranking = excluded.ranking, updated_at = excluded.updated_at;
                    END IF;
                    IF cardinality(swipe_users) > 0 THEN
                        INSERT INTO swipe (decision_id, user_id, place_id, answer, updated_at)
                        SELECT saved_id, s.user_id, s.place_id, s.answer, s.updated_at
                        FROM unnest(swipe_users, swipe_places, swipe_answers, swipe_times) AS s(user_id, place_id, answer, updated_at)
                        ON CONFLICT (decision_id, user_id, place_id) DO UPDATE SET answer = excluded.answer, updated_at = excluded.updated_at;
                    END IF;
                    IF cardinality(note_ids) > 0 THEN
                        PERFORM places_insert_notifications(note_ids, note_recipients, note_kinds, note_messages, note_subjects,
                            note_channels, note_created, note_read);
                    END IF;
                    -- Read last, so that of two last ballots (or answers) saved at once the second sees both.
                    saved_voters := ARRAY(SELECT b.user_id FROM ballot b WHERE b.decision_id = saved_id);
                    SELECT coalesce(array_agg(s.user_id), '{}'), coalesce(array_agg(s.answers), '{}')
                    INTO answered_users, answered_counts
                    FROM (SELECT user_id, count(*) AS answers FROM swipe WHERE decision_id = saved_id GROUP BY user_id) s;
                    RETURN NEXT;
                END $$
                """,
            ]
        ),
        Migration(
            version: 9,
            name: "conversations",
            statements: [
                // A decision's conversation. A message leaves with its decision and with its author's account.
                """
                CREATE TABLE decision_message (
                    id \(text) PRIMARY KEY,
                    decision_id \(text) NOT NULL REFERENCES decision (id) ON DELETE CASCADE,
                    author_id \(text) NOT NULL REFERENCES user_account (id) ON DELETE CASCADE,
                    text \(text) NOT NULL,
                    created_at \(text) NOT NULL
                )
                """,
                // A decision's messages newest first; one person's, for the bound a minute and their export.
                "CREATE INDEX decision_message_page ON decision_message (decision_id, created_at DESC, id DESC)",
                "CREATE INDEX decision_message_author ON decision_message (author_id, created_at)",
                // A message posted: the decision, and the message's id.
                feedFunction(
                    "decision_message",
                    inserting: "INSERT INTO feed (kind, subject, detail) VALUES ('message', NEW.decision_id, NEW.id)"
                ),
                "CREATE TRIGGER decision_message_feed AFTER INSERT ON decision_message FOR EACH ROW EXECUTE FUNCTION places_feed_decision_message()",
                "DROP INDEX feed_topic",
                "CREATE INDEX feed_topic ON feed (subject, xid, position) WHERE kind IN ('decision', 'ballot', 'swipe', 'round', 'message', 'notification')",
            ]
        ),
        Migration(
            version: 10,
            name: "blocks-and-status",
            statements: [
                // Who blocks whom (one way; each person's block is their own). Both sides leave with either account.
                """
                CREATE TABLE user_block (
                    blocker_id \(text) NOT NULL REFERENCES user_account (id) ON DELETE CASCADE,
                    blocked_id \(text) NOT NULL REFERENCES user_account (id) ON DELETE CASCADE,
                    created_at \(text) NOT NULL,
                    PRIMARY KEY (blocker_id, blocked_id),
                    CHECK (blocker_id <> blocked_id)
                )
                """,
                "CREATE INDEX user_block_blocked ON user_block (blocked_id, blocker_id)",
                // A person's status line, shown until it expires (none: until cleared).
                """
                CREATE TABLE user_status (
                    user_id \(text) PRIMARY KEY REFERENCES user_account (id) ON DELETE CASCADE,
                    text \(text) NOT NULL,
                    expires_at \(text)
                )
                """,
            ]
        ),
        Migration(
            version: 11,
            name: "admin-alerts",
            statements: [
                // Alerts admins sent to their groups: who sent one to which group and when, what the bound on alerts a
                // group an hour counts (the words reach members as notifications). An alert leaves with its group;
                // its sender's account leaving keeps it, without a sender, so the bound still counts it.
                """
                CREATE TABLE group_alert (
                    id \(text) PRIMARY KEY,
                    group_id \(text) NOT NULL REFERENCES place_group (id) ON DELETE CASCADE,
                    sender_id \(text) REFERENCES user_account (id) ON DELETE SET NULL,
                    created_at \(text) NOT NULL
                )
                """,
                // A group's alerts newest first, for the bound an hour; one sender's, for deleting their account.
                "CREATE INDEX group_alert_recent ON group_alert (group_id, created_at)",
                "CREATE INDEX group_alert_sender ON group_alert (sender_id) WHERE sender_id IS NOT NULL",
            ]
        ),
        Migration(
            version: 12,
            name: "visit-times-and-meet",
            statements: [
                // When the group means to go (an instant, instead of the visit day), and whom a meet from the
                // participants' locations went without (a JSON list of user ids). Never a location.
                "ALTER TABLE decision ADD COLUMN visit_at \(text)",
                "ALTER TABLE decision ADD COLUMN meet_without \(text)",
            ]
        ),
        Migration(
            version: 13,
            name: "photos",
            statements: [
                // Photos' bytes, stored once per content (the SHA-256 of the cleaned bytes, in hex), in chunks of
                // 256 KiB, so that serving one holds a chunk in memory at a time; they go with their last photo. The
                // chunks are stored without compression (pictures do not compress).
                """
                CREATE TABLE photo_content (
                    hash \(text) PRIMARY KEY,
                    byte_count INTEGER NOT NULL,
                    chunk_count INTEGER NOT NULL
                )
                """,
                """
                CREATE TABLE photo_chunk (
                    hash \(text) NOT NULL REFERENCES photo_content (hash) ON DELETE CASCADE,
                    seq INTEGER NOT NULL,
                    bytes BYTEA NOT NULL,
                    PRIMARY KEY (hash, seq)
                )
                """,
                "ALTER TABLE photo_chunk ALTER COLUMN bytes SET STORAGE EXTERNAL",
                // A photo of a place (place_id) or a person's picture (no place; user_account.picture_id names it).
                """
                CREATE TABLE photo (
                    id \(text) PRIMARY KEY,
                    place_id \(text) REFERENCES place (id) ON DELETE CASCADE,
                    user_id \(text) NOT NULL REFERENCES user_account (id) ON DELETE CASCADE,
                    hash \(text) NOT NULL REFERENCES photo_content (hash),
                    format \(text) NOT NULL,
                    width INTEGER NOT NULL,
                    height INTEGER NOT NULL,
                    byte_count INTEGER NOT NULL,
                    caption \(text),
                    created_at \(text) NOT NULL
                )
                """,
                // A place's photos newest first; a person's in the window of the daily bound; a content's users.
                "CREATE INDEX photo_place ON photo (place_id, created_at, id) WHERE place_id IS NOT NULL",
                "CREATE INDEX photo_user ON photo (user_id, created_at)",
                "CREATE INDEX photo_hash ON photo (hash)",
                // What lists show of a place's photos, kept in the place's row (a photo change is a place change).
                "ALTER TABLE place ADD COLUMN photo_count INTEGER NOT NULL DEFAULT 0",
                "ALTER TABLE place ADD COLUMN cover_photo_id \(text)",
                "ALTER TABLE user_account ADD COLUMN picture_id \(text)",
            ]
        ),
        Migration(
            version: 14,
            name: "stream-holders",
            statements: [
                // A live stream counts while its holder's lease runs: one row per instance, renewed by one statement
                // whatever the number of its streams (before, every stream's row was rewritten at each renewal). When
                // an instance dies its row lapses, and all its streams stop counting at once.
                """
                CREATE TABLE live_holder (
                    holder \(text) PRIMARY KEY,
                    expires_at \(text) NOT NULL
                )
                """,
                // Opens a stream when its person holds fewer than `allowed` counting streams: one statement, and one
                // opening at a time per person (the same advisory lock as `places_open_stream`, released at commit), so
                // two instances never both take the last. A stream counts while its holder's lease runs; one with no
                // holder row (an instance of the release before, during a rolling upgrade, which renews its streams'
                // own rows) while its own `expires_at` runs, which this release writes too (the lease as it opens: that
                // release deletes such rows 20 s later, so while both run a person may briefly hold more than allowed).
                // One opening at a time (the try lock: the others go on without) deletes the holders whose leases lapsed
                // with their streams; two doing it at once could each wait for the rows the other deleted first.
                // `places_open_stream` stays for the release before, and goes with the next.
                """
                CREATE FUNCTION places_open_live_stream(stream_id TEXT, person TEXT, held_by TEXT, now_text TEXT, until_text TEXT, allowed INTEGER)
                RETURNS BOOLEAN LANGUAGE plpgsql AS $$
                BEGIN
                    PERFORM pg_advisory_xact_lock(hashtextextended('places/live_stream/' || person, 0));
                    IF pg_try_advisory_xact_lock(hashtextextended('places/live_holder', 0)) THEN
                        DELETE FROM live_stream WHERE holder IN (SELECT holder FROM live_holder WHERE expires_at <= now_text);
                        DELETE FROM live_holder WHERE expires_at <= now_text;
                    END IF;
                    DELETE FROM live_stream AS stream
                    WHERE stream.user_id = person AND stream.expires_at <= now_text
                        AND NOT EXISTS (SELECT 1 FROM live_holder WHERE live_holder.holder = stream.holder);
                    IF (
                        SELECT count(*) FROM live_stream AS stream LEFT JOIN live_holder ON live_holder.holder = stream.holder
                        WHERE stream.user_id = person AND coalesce(live_holder.expires_at, stream.expires_at) > now_text
                    ) >= allowed THEN
                        RETURN false;
                    END IF;
                    INSERT INTO live_holder (holder, expires_at) VALUES (held_by, until_text)
                    ON CONFLICT (holder) DO UPDATE SET expires_at = excluded.expires_at WHERE live_holder.expires_at < excluded.expires_at;
                    INSERT INTO live_stream (id, user_id, holder, expires_at) VALUES (stream_id, person, held_by, until_text);
                    RETURN true;
                END $$
                """,
            ]
        ),
        Migration(
            version: 15,
            name: "feed-reads-kept-plans",
            statements: [
                // The feed's two readers, the index's (`PostgresPlaceRepository.ChangesRead`) and the live streams'
                // (`PostgresLiveRepository.EventsRead`), each planned once per connection instead of at every read
                // (`keptPlanRead`): a plan made while the feed was small still reads it through its index on `xid` once a
                // seed has added a million rows. Parallel workers are off because a plan kept for any position started
                // them at every read (3 ms each) to look for a seed's announcements.
                feedRead(replacing: false),
                liveEventsRead(replacing: false),
            ]
        ),
        Migration(
            version: 16,
            name: "feed-horizon-leaves-out-autovacuum",
            statements: [
                // The feed's horizon no longer waits for autovacuum: its ANALYZE takes a transaction id to write its
                // statistics, and held every instance's feed back while it ran (`FeedHorizon.holdsFeed`). The two
                // readers' functions are made again with the horizon's new text.
                feedRead(replacing: true),
                liveEventsRead(replacing: true),
            ]
        ),
    ]

    /// The index's read of the feed (`PostgresPlaceRepository.ChangesRead`), as a function that keeps its plan.
    private static func feedRead(replacing: Bool) -> String {
        keptPlanRead(
            "places_changes_read(ours TEXT, after_revision BIGINT, rereading TEXT[], row_limit BIGINT)",
            returning: """
                horizon BIGINT, xmax BIGINT, generation TEXT, feed_pruned_below BIGINT, total BIGINT, pending BOOLEAN,
                unannounced BOOLEAN, subject TEXT, last BIGINT, kind TEXT, name TEXT, latitude DOUBLE PRECISION,
                longitude DOUBLE PRECISION, city TEXT, tags TEXT, cuisine TEXT, price_level INTEGER, opening_hours TEXT,
                time_zone TEXT, rating_count INTEGER, rating_sum INTEGER, description TEXT, photo_count INTEGER,
                cover_photo_id TEXT, gone BOOLEAN, above BOOLEAN
                """,
            query: PostgresPlaceRepository.ChangesRead.query,
            replacing: replacing
        )
    }

    /// The live streams' read of the feed (`PostgresLiveRepository.EventsRead`), as a function that keeps its plan.
    private static func liveEventsRead(replacing: Bool) -> String {
        keptPlanRead(
            "places_live_events_read(ours TEXT, after_transaction TEXT, after_row BIGINT, row_limit BIGINT)",
            returning: """
                horizon BIGINT, generation TEXT, feed_pruned_below BIGINT, waiting BOOLEAN, xid BIGINT, "position" BIGINT,
                kind TEXT, subject TEXT, detail TEXT, version BIGINT
                """,
            query: PostgresLiveRepository.EventsRead.query,
            replacing: replacing
        )
    }

    /// The lock that makes instances starting together migrate once (any number, the same for every release).
    private static let migrationLock: Int64 = 0x706C_6163_6573  // "places"

    /// Brings the schema to the newest version this binary knows, in one transaction holding the migration lock;
    /// `unavailable` when the database is at a newer version than that (a newer release migrated it).
    func migrate() async throws {
        let known = PostgresPlacesDatabase.migrations.last?.version ?? 0
        try await write(within: .none) { [logger, schema] connection in
            try await connection.query("SELECT pg_advisory_xact_lock(\(PostgresPlacesDatabase.migrationLock))", logger: logger)
            if let schema {
                try await connection.query(PostgresQuery(unsafeSQL: "CREATE SCHEMA IF NOT EXISTS \(PostgresPlacesDatabase.quoted(schema))"), logger: logger)
            }
            try await connection.query(
                """
                CREATE TABLE IF NOT EXISTS schema_migration (
                    version INTEGER PRIMARY KEY,
                    name TEXT NOT NULL,
                    applied_at TIMESTAMPTZ NOT NULL DEFAULT now()
                )
                """,
                logger: logger
            )
            var current = 0
            for try await version in try await connection.query("SELECT coalesce(max(version), 0) FROM schema_migration", logger: logger)
                .decode(Int.self)
            {
                current = version
            }
            guard current <= known else {
                throw PlacesError(
                    .unavailable,
                    "the database's schema is at version \(current), newer than this release knows (\(known)): run the newer release of places"
                )
            }
            for migration in PostgresPlacesDatabase.migrations where migration.version > current {
                for statement in migration.statements {
                    try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger)
                }
                try await connection.query(
                    "INSERT INTO schema_migration (version, name) VALUES (\(migration.version), \(migration.name))",
                    logger: logger
                )
            }
        }
    }
}
