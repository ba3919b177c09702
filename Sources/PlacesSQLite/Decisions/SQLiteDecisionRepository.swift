import Foundation
import GRDB
import PlacesCore

/// Decisions, their participants and ballots in SQLite.
public struct SQLiteDecisionRepository: DecisionRepository {
    let database: PlacesDatabase

    public func insert(_ decision: Decision, notifications: [UserNotification]) async throws {
        try await database.write { db in
            try db.execute(
                sql: """
                    INSERT INTO decision (id, group_id, created_by, title, method, status, candidates, weighted, scheduled, seed,
                        deadline, visit_date, created_at, swipe_rule, visit_at, meet_without)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [
                    decision.id, decision.groupId, decision.createdBy, decision.title, decision.method.rawValue,
                    decision.status.rawValue, try StoredJSON.text(decision.candidates), decision.weighted, decision.scheduled,
                    String(decision.seed), decision.deadline.map(Timestamp.text), decision.visitDate,
                    Timestamp.text(decision.createdAt), try decision.swipe.map(StoredJSON.text),
                    decision.visitAt.map(Timestamp.text), decision.meetWithout.isEmpty ? nil : try StoredJSON.text(decision.meetWithout),
                ]
            )
            try db.execute(
                sql: "INSERT INTO decision_participant (decision_id, user_id) SELECT ?, value FROM json_each(?)",
                arguments: [decision.id, SQLiteAccountRepository.jsonArray(decision.participants)]
            )
            try SQLiteNotificationRepository.insert(notifications, in: db)
        }
    }

    public func state(decisionID: String) async throws -> DecisionState? {
        try await database.readStatement { db in
            try Row.fetchOne(db, sql: "\(SQLiteDecisionRepository.stateQuery) WHERE d.id = ?", arguments: [decisionID])
                .map(SQLiteDecisionRepository.state)
        }
    }

    public func decisions(visibleTo userID: String, groupIDs: [String], page: PageRequest) async throws -> Page<DecisionState> {
        let after = try Keyset([.init(sql: "d.created_at", descending: true), .init(sql: "d.id", descending: true)], page: page)
        return try await database.readStatement { db in
            try after.page(
                page,
                """
                \(SQLiteDecisionRepository.stateQuery)
                WHERE (d.created_by = ? OR d.id IN (SELECT decision_id FROM decision_participant WHERE user_id = ?)
                    OR d.group_id IN (SELECT value FROM json_each(?)))
                """,
                arguments: [userID, userID, SQLiteAccountRepository.jsonArray(groupIDs)],
                in: db
            ) { row in (try SQLiteDecisionRepository.state(row), [row["created_at"], row["id"]]) }
        }
    }

    /// Raised inside `save` when what the change depends on was saved since it was read: the transaction rolls back.
    private struct VersionMoved: Error {}

    public func save(_ state: DecisionState, replacing previous: DecisionState) async throws -> SavedDecision? {
        let id = previous.decision.id
        let decisionChanged = state.decision != previous.decision
        do {
            return try await database.write { db in
                // The first statement takes the write lock and checks the version the change depends on.
                let current = try SQLiteDecisionRepository.saveChanges(
                    decisionChanged ? state.decision : nil,
                    of: id,
                    over: decisionChanged ? .version(previous.version) : .decisionVersion(previous.decisionVersion),
                    in: db
                )
                guard let current else {
                    guard try Bool.fetchOne(db, sql: "SELECT 1 FROM decision WHERE id = ?", arguments: [id]) != nil else {
                        throw PlacesError.notFound("no decision with id \(PlacesError.quoted(id))")
                    }
                    throw VersionMoved()
                }
                let leaving = Set(previous.decision.participants).subtracting(state.decision.participants)
                if !leaving.isEmpty {
                    for table in ["decision_participant", "swipe"] {
                        try db.execute(
                            sql: "DELETE FROM \(table) WHERE decision_id = ? AND user_id IN (SELECT value FROM json_each(?))",
                            arguments: [id, SQLiteAccountRepository.jsonArray(Array(leaving))]
                        )
                    }
                }
                let withdrawn = Set(previous.ballots.map(\.userId)).subtracting(state.ballots.map(\.userId))
                if !withdrawn.isEmpty {
                    try db.execute(
                        sql: "DELETE FROM ballot WHERE decision_id = ? AND user_id IN (SELECT value FROM json_each(?))",
                        arguments: [id, SQLiteAccountRepository.jsonArray(Array(withdrawn))]
                    )
                }
                let cast = try state.ballots.filter { !previous.ballots.contains($0) }.map { ballot in
                    [ballot.userId, try StoredJSON.text(ballot.ranking), Timestamp.text(ballot.castAt), Timestamp.text(ballot.updatedAt)]
                }
                if !cast.isEmpty {
                    try db.execute(
                        sql: """
                            INSERT INTO ballot (decision_id, user_id, ranking, cast_at, updated_at)
                            SELECT ?, value ->> '$[0]', value ->> '$[1]', value ->> '$[2]', value ->> '$[3]' FROM json_each(?) WHERE true
                            ON CONFLICT (decision_id, user_id) DO UPDATE SET ranking = excluded.ranking, updated_at = excluded.updated_at
                            """,
                        arguments: [id, StoredJSON.plainText(cast)]
                    )
                }
                let answers = state.swipes.filter { !previous.swipes.contains($0) }.map { swipe in
                    [swipe.userId, swipe.placeId, swipe.answer.rawValue, Timestamp.text(swipe.updatedAt)]
                }
                if !answers.isEmpty {
                    try db.execute(
                        sql: """
                            INSERT INTO swipe (decision_id, user_id, place_id, answer, updated_at)
                            SELECT ?, value ->> '$[0]', value ->> '$[1]', value ->> '$[2]', value ->> '$[3]' FROM json_each(?) WHERE true
                            ON CONFLICT (decision_id, user_id, place_id) DO UPDATE SET answer = excluded.answer, updated_at = excluded.updated_at
                            """,
                        arguments: [id, StoredJSON.plainText(answers)]
                    )
                }
                try SQLiteNotificationRepository.insert(state.notifications, in: db)
                // Read last, so that of two last ballots saved at once the second sees both.
                let voters = try String.fetchAll(db, sql: "SELECT user_id FROM ballot WHERE decision_id = ?", arguments: [id])
                // Answers are counted only in a decision that has a swipe round (a ballot's save costs no statement more).
                let answered = state.decision.swipe == nil ? [] : try Row.fetchAll(
                    db,
                    sql: "SELECT user_id, count(*) AS answers FROM swipe WHERE decision_id = ? GROUP BY user_id",
                    arguments: [id]
                ).map { row -> (String, Int) in (row["user_id"], row["answers"]) }
                return SavedDecision(
                    version: current.version,
                    decisionVersion: current.decisionVersion,
                    voters: Set(voters),
                    answered: Dictionary(answered, uniquingKeysWith: { first, _ in first })
                )
            }
        } catch is VersionMoved {
            return nil
        }
    }

    public func activeCount() async throws -> Int {
        try await database.read { db in
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM decision WHERE status = 'active'") ?? 0
        }
    }

    public func activeCount(startedBy userID: String) async throws -> Int {
        try await database.read { db in
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM decision WHERE created_by = ? AND status = 'active'", arguments: [userID]) ?? 0
        }
    }

    public func activeDecisions(groupID: String, participant userID: String) async throws -> [String] {
        try await database.read { db in
            try String.fetchAll(
                db,
                sql: """
                    SELECT d.id FROM decision d JOIN decision_participant p ON p.decision_id = d.id
                    WHERE d.group_id = ? AND d.status = 'active' AND p.user_id = ?
                    ORDER BY d.created_at, d.id
                    """,
                arguments: [groupID, userID]
            )
        }
    }

    public func activeDecisions(dueBy date: Date) async throws -> [String] {
        try await database.read { db in
            try String.fetchAll(
                db,
                sql: "SELECT d.id FROM decision d WHERE d.status = 'active' AND (d.deadline <= ? \(StoredDecisionRows.mayBeDue)",
                arguments: [Timestamp.text(date)]
            )
        }
    }

    public func recentWinners(groupID: String?, createdBy userID: String, since: Date) async throws -> Set<String> {
        try await database.read { db in
            let scope = groupID == nil ? "group_id IS NULL AND created_by = ?" : "group_id = ?"
            return Set(
                try String.fetchAll(
                    db,
                    sql: """
                        SELECT json_extract(result, '$.winner') FROM decision
                        WHERE status = 'completed' AND \(scope) AND ended_at >= ? AND json_extract(result, '$.winner') IS NOT NULL
                        """,
                    arguments: [groupID ?? userID, Timestamp.text(since)]
                )
            )
        }
    }

    /// Which version a save checks: every save's, or the decision's own.
    enum VersionCheck {
        case version(Int64)
        case decisionVersion(Int64)
    }

    /// Counts a save of the decision `id` when the version it checks is still the one given, writing what changes over
    /// a decision's life (status, ending, reminder, result and departures; participants and ballots are rows of their
    /// own) when `decision` is given; answers the versions after it, or nil when the check failed.
    static func saveChanges(
        _ decision: Decision?,
        of id: String,
        over check: VersionCheck,
        in db: Database
    ) throws -> (version: Int64, decisionVersion: Int64)? {
        let condition: String
        let expected: Int64
        switch check {
        case .version(let version): (condition, expected) = ("version = ?", version)
        case .decisionVersion(let version): (condition, expected) = ("decision_version = ?", version)
        }
        var assignments = "version = version + 1"
        var arguments: StatementArguments = []
        if let decision {
            assignments += """
                , decision_version = decision_version + 1, status = ?, ended_at = ?, reminder_sent_at = ?, result = ?, departures = ?,
                round_result = ?
                """
            arguments += [
                decision.status.rawValue, decision.endedAt.map(Timestamp.text), decision.reminderSentAt.map(Timestamp.text),
                try decision.result.map(StoredJSON.text), decision.departures.isEmpty ? nil : try StoredJSON.text(decision.departures),
                try decision.round.map(StoredJSON.text),
            ]
        }
        arguments += [id, expected]
        let row = try Row.fetchOne(
            db,
            sql: "UPDATE decision SET \(assignments) WHERE id = ? AND \(condition) RETURNING version, decision_version",
            arguments: arguments
        )
        return row.map { ($0[0], $0[1]) }
    }

    /// A decision's row with its participants (those who are no longer members of its group apart), its ballots and the
    /// people it names (participants and those who left) as JSON lists: a decision, or a page of them, in one statement.
    static let stateQuery = """
        SELECT d.*,
            (SELECT json_group_array(p.user_id) FROM decision_participant p WHERE p.decision_id = d.id) AS participant_ids,
            (SELECT json_group_array(p.user_id) FROM decision_participant p WHERE p.decision_id = d.id AND d.group_id IS NOT NULL
                AND NOT EXISTS (SELECT 1 FROM group_member m WHERE m.group_id = d.group_id AND m.user_id = p.user_id)
            ) AS former_member_ids,
            (SELECT json_group_array(json_array(b.user_id, b.ranking, b.cast_at, b.updated_at))
                FROM ballot b WHERE b.decision_id = d.id) AS ballot_list,
            (SELECT json_group_array(json_array(s.user_id, s.place_id, s.answer, s.updated_at))
                FROM swipe s WHERE s.decision_id = d.id) AS swipe_list,
            (SELECT json_group_array(json_array(u.id, u.username, u.display_name, u.bio, u.city, u.avatar_url, u.picture_id))
                FROM user_account u
                WHERE u.id IN (SELECT p.user_id FROM decision_participant p WHERE p.decision_id = d.id)
                    OR u.id IN (SELECT value ->> '$.userId' FROM json_each(coalesce(d.departures, '[]')))
            ) AS people
        FROM decision d
        """

    static func state(_ row: Row) throws -> DecisionState {
        let id: String = row["id"]
        let seedText: String = row["seed"]
        guard let method = Decision.Method(rawValue: row["method"]), let status = Decision.Status(rawValue: row["status"]),
            let seed = UInt64(seedText)
        else { throw PlacesError(.internalError, "stored decision '\(id)' is unreadable") }
        let resultText: String? = row["result"]
        let departuresText: String? = row["departures"]
        var decision = Decision(
            id: id,
            groupId: row["group_id"],
            createdBy: row["created_by"],
            title: row["title"],
            method: method,
            status: status,
            candidates: try StoredJSON.value([String].self, from: row["candidates"]),
            participants: try StoredJSON.value([String].self, from: row["participant_ids"]).sorted(),
            weighted: row["weighted"],
            scheduled: row["scheduled"],
            seed: seed,
            deadline: (row["deadline"] as String?).flatMap(Timestamp.date),
            visitDate: row["visit_date"],
            createdAt: row.date("created_at"),
            endedAt: (row["ended_at"] as String?).flatMap(Timestamp.date),
            reminderSentAt: (row["reminder_sent_at"] as String?).flatMap(Timestamp.date),
            result: try resultText.map { try StoredJSON.value(DecisionResult.self, from: $0) }
        )
        decision.departures = try departuresText.map { try StoredJSON.value([Departure].self, from: $0) } ?? []
        decision.swipe = try (row["swipe_rule"] as String?).map { try StoredJSON.value(SwipeRule.self, from: $0) }
        decision.round = try (row["round_result"] as String?).map { try StoredJSON.value(RoundResult.self, from: $0) }
        decision.visitAt = (row["visit_at"] as String?).flatMap(Timestamp.date)
        decision.meetWithout = try (row["meet_without"] as String?).map { try StoredJSON.value([String].self, from: $0) } ?? []
        return DecisionState(
            decision: decision,
            ballots: try StoredDecisionRows.ballots(of: id, from: row["ballot_list"]),
            swipes: try StoredDecisionRows.swipes(of: id, from: row["swipe_list"]),
            formerMembers: Set(try StoredJSON.value([String].self, from: row["former_member_ids"])),
            people: try StoredDecisionRows.people(namedBy: id, from: row["people"]),
            version: row["version"],
            decisionVersion: row["decision_version"]
        )
    }
}

extension PlacesDatabase {
    /// The decision repository over this database.
    public var decisions: SQLiteDecisionRepository { SQLiteDecisionRepository(database: self) }
}
