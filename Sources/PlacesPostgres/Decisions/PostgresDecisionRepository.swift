import Foundation
import PlacesCore
import PostgresNIO

/// Decisions, their participants and ballots in PostgreSQL.
public struct PostgresDecisionRepository: DecisionRepository {
    let database: PostgresPlacesDatabase

    public func insert(_ decision: Decision, notifications: [UserNotification]) async throws {
        let candidates = try StoredJSON.text(decision.candidates)
        let swipeRule = try decision.swipe.map(StoredJSON.text)
        let meetWithout = decision.meetWithout.isEmpty ? nil : try StoredJSON.text(decision.meetWithout)
        try await database.write { connection in
            try await connection.execute(
                """
                INSERT INTO decision (id, group_id, created_by, title, method, status, candidates, weighted, scheduled, seed,
                    deadline, visit_date, created_at, swipe_rule, visit_at, meet_without)
                VALUES (\(decision.id), \(decision.groupId), \(decision.createdBy), \(decision.title), \(decision.method.rawValue),
                    \(decision.status.rawValue), \(candidates), \(decision.weighted), \(decision.scheduled), \(String(decision.seed)),
                    \(decision.deadline.map(Timestamp.text)), \(decision.visitDate), \(Timestamp.text(decision.createdAt)), \(swipeRule),
                    \(decision.visitAt.map(Timestamp.text)), \(meetWithout))
                """,
                logger: database.logger
            )
            try await connection.execute(
                "INSERT INTO decision_participant (decision_id, user_id) SELECT \(decision.id), unnest(\(decision.participants)::text[])",
                logger: database.logger
            )
            try await PostgresNotificationRepository.insert(notifications, on: connection, database: database)
        }
    }

    public func state(decisionID: String) async throws -> DecisionState? {
        let row = try await database.read { connection in
            try await connection.row(StateLookup(decisionID: decisionID), logger: database.logger)
        }
        return try row.map(PostgresDecisionRepository.state)
    }

    public func decisions(visibleTo userID: String, groupIDs: [String], page: PageRequest) async throws -> Page<DecisionState> {
        let after = try Keyset([.init(sql: "d.created_at", descending: true), .init(sql: "d.id", descending: true)], page: page)
        let rows = try await database.read { connection in
            try await connection.rows(
                """
                \(unescaped: PostgresDecisionRepository.stateQuery)
                WHERE (d.created_by = \(userID) OR d.id IN (SELECT decision_id FROM decision_participant WHERE user_id = \(userID))
                    OR d.group_id = ANY(\(groupIDs)::text[]))
                AND \(after) \(orderBy: after) LIMIT \(page.fetchLimit)
                """,
                logger: database.logger
            )
        }
        return try page.page(rows) { row in
            (try PostgresDecisionRepository.state(row), [try row.get("created_at"), try row.get("id")])
        }
    }

    public func save(_ state: DecisionState, replacing previous: DecisionState) async throws -> SavedDecision? {
        let id = previous.decision.id
        let changedDecision = state.decision != previous.decision ? state.decision : nil
        let leaving = Array(Set(previous.decision.participants).subtracting(state.decision.participants))
        let withdrawn = Array(Set(previous.ballots.map(\.userId)).subtracting(state.ballots.map(\.userId)))
        let cast = state.ballots.filter { !previous.ballots.contains($0) }
        let result = try changedDecision?.result.map(StoredJSON.text)
        let departures = try changedDecision.flatMap { $0.departures.isEmpty ? nil : try StoredJSON.text($0.departures) }
        let rankings = try cast.map { try StoredJSON.text($0.ranking) }
        let roundResult = try changedDecision?.round.map(StoredJSON.text)
        let answers = state.swipes.filter { !previous.swipes.contains($0) }
        let notes = try PostgresNotificationRepository.NotificationColumns(state.notifications)
        // One statement (`places_save_decision`): it locks the decision's row, checks the version the change depends on
        // (every save's when the decision itself changes, the decision's own when not), writes, and reads who has voted.
        let row = try await database.change { [database] connection in
            try await connection.row(
                Save(
                    id: id, previous: previous, changedDecision: changedDecision, result: result, departures: departures,
                    roundResult: roundResult, leaving: leaving, withdrawn: withdrawn, cast: cast, rankings: rankings, answers: answers,
                    notes: notes
                ),
                logger: database.logger
            )
        }
        guard let row else {
            let exists = try await database.read { [database] connection in
                try await connection.value("SELECT true FROM decision WHERE id = \(id)", as: Bool.self, logger: database.logger) != nil
            }
            guard exists else { throw PlacesError.notFound("no decision with id \(PlacesError.quoted(id))") }
            // Nothing was written: what the change depends on was saved since it was read.
            return nil
        }
        return SavedDecision(
            version: try row.get("saved_version"),
            decisionVersion: try row.get("saved_decision_version"),
            voters: Set(try row.get("saved_voters", as: [String].self)),
            answered: Dictionary(
                zip(try row.get("answered_users", as: [String].self), try row.get("answered_counts", as: [Int].self)),
                uniquingKeysWith: { first, _ in first }
            )
        )
    }

    public func activeCount() async throws -> Int {
        try await database.read { connection in
            try await connection.value("SELECT count(*) FROM decision WHERE status = 'active'", as: Int.self, logger: database.logger) ?? 0
        }
    }

    public func activeCount(startedBy userID: String) async throws -> Int {
        try await database.read { connection in
            try await connection.value(
                "SELECT count(*) FROM decision WHERE created_by = \(userID) AND status = 'active'",
                as: Int.self,
                logger: database.logger
            ) ?? 0
        }
    }

    public func activeDecisions(groupID: String, participant userID: String) async throws -> [String] {
        let rows = try await database.read { connection in
            try await connection.rows(
                """
                SELECT d.id FROM decision d JOIN decision_participant p ON p.decision_id = d.id
                WHERE d.group_id = \(groupID) AND d.status = 'active' AND p.user_id = \(userID)
                ORDER BY d.created_at, d.id
                """,
                logger: database.logger
            )
        }
        return try rows.map { try $0.get("id") }
    }

    public func activeDecisions(dueBy date: Date) async throws -> [String] {
        let rows = try await database.read { connection in
            try await connection.rows(
                """
                SELECT d.id FROM decision d WHERE d.status = 'active' AND (d.deadline <= \(Timestamp.text(date))
                \(unescaped: StoredDecisionRows.mayBeDue)
                """,
                logger: database.logger
            )
        }
        return try rows.map { try $0.get("id") }
    }

    public func recentWinners(groupID: String?, createdBy userID: String, since: Date) async throws -> Set<String> {
        let rows = try await database.read { connection in
            if let groupID {
                return try await connection.rows(
                    """
                    SELECT result::jsonb ->> 'winner' AS winner FROM decision
                    WHERE status = 'completed' AND group_id = \(groupID) AND ended_at >= \(Timestamp.text(since)) AND result IS NOT NULL
                    """,
                    logger: database.logger
                )
            }
            return try await connection.rows(
                """
                SELECT result::jsonb ->> 'winner' AS winner FROM decision
                WHERE status = 'completed' AND group_id IS NULL AND created_by = \(userID) AND ended_at >= \(Timestamp.text(since))
                    AND result IS NOT NULL
                """,
                logger: database.logger
            )
        }
        return Set(try rows.compactMap { try $0.get("winner", as: String?.self) })
    }

    /// A decision's state by its id (`stateQuery`): every ballot reads it.
    struct StateLookup: PreparedStatement {
        static let name = "places_decision_state"
        static let sql = stateQuery + " WHERE d.id = $1"
        static let bindingDataTypes: [PostgresDataType] = [.text]
        let decisionID: String
        var values: [(any PostgresThrowingDynamicTypeEncodable & Sendable)?] { [decisionID] }
    }

    /// `places_save_decision`: every ballot, and every other change of a decision, runs it.
    struct Save: PreparedStatement {
        static let name = "places_decision_save"
        static let sql = """
            SELECT saved_version, saved_decision_version, saved_voters, answered_users, answered_counts FROM places_save_decision(
                $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22, $23, $24, $25,
                $26, $27, $28)
            """
        static let bindingDataTypes: [PostgresDataType] =
            [.text, .int8, .int8, .bool, .text, .text, .text, .text, .text, .text] + Array(repeating: .textArray, count: 18)
        let id: String
        let previous: DecisionState
        /// The decision as it is to be saved, when it changed.
        let changedDecision: Decision?
        let result: String?
        let departures: String?
        let roundResult: String?
        let leaving: [String]
        let withdrawn: [String]
        let cast: [Ballot]
        let rankings: [String]
        let answers: [Swipe]
        let notes: PostgresNotificationRepository.NotificationColumns

        var values: [(any PostgresThrowingDynamicTypeEncodable & Sendable)?] {
            [
                id, previous.version, previous.decisionVersion, changedDecision != nil, changedDecision?.status.rawValue,
                changedDecision?.endedAt.map(Timestamp.text), changedDecision?.reminderSentAt.map(Timestamp.text), result, departures,
                roundResult, leaving, withdrawn, cast.map(\.userId), rankings, cast.map { Timestamp.text($0.castAt) },
                cast.map { Timestamp.text($0.updatedAt) }, answers.map(\.userId), answers.map(\.placeId), answers.map(\.answer.rawValue),
                answers.map { Timestamp.text($0.updatedAt) }, notes.ids, notes.recipients, notes.kinds, notes.messages, notes.subjects,
                notes.channels, notes.created, notes.read,
            ]
        }
    }

    /// A decision's row with its participants and those of them who are no longer members of its group (as arrays),
    /// its ballots and the people it names (participants and those who left) as JSON lists: a decision, or a page of
    /// them, in one statement.
    static let stateQuery = """
        SELECT d.id, d.group_id, d.created_by, d.title, d.method, d.status, d.candidates, d.weighted, d.scheduled, d.seed,
            d.deadline, d.visit_date, d.created_at, d.ended_at, d.reminder_sent_at, d.result, d.departures, d.version,
            d.decision_version, d.swipe_rule, d.round_result, d.visit_at, d.meet_without,
            ARRAY(SELECT p.user_id FROM decision_participant p WHERE p.decision_id = d.id) AS participant_ids,
            ARRAY(SELECT p.user_id FROM decision_participant p WHERE p.decision_id = d.id AND d.group_id IS NOT NULL
                AND NOT EXISTS (SELECT 1 FROM group_member m WHERE m.group_id = d.group_id AND m.user_id = p.user_id)
            ) AS former_member_ids,
            (SELECT coalesce(json_agg(json_build_array(b.user_id, b.ranking, b.cast_at, b.updated_at)), '[]')::text
                FROM ballot b WHERE b.decision_id = d.id) AS ballot_list,
            (SELECT coalesce(json_agg(json_build_array(s.user_id, s.place_id, s.answer, s.updated_at)), '[]')::text
                FROM swipe s WHERE s.decision_id = d.id) AS swipe_list,
            (SELECT coalesce(json_agg(json_build_array(u.id, u.username, u.display_name, u.bio, u.city, u.avatar_url, u.picture_id)), '[]')::text
                FROM user_account u
                WHERE u.id IN (SELECT p.user_id FROM decision_participant p WHERE p.decision_id = d.id)
                    OR u.id IN (SELECT departure ->> 'userId' FROM jsonb_array_elements(coalesce(d.departures, '[]')::jsonb) AS departure)
            ) AS people
        FROM decision d
        """

    /// The decision state a row of `stateQuery` holds.
    static func state(_ row: PostgresRandomAccessRow) throws -> DecisionState {
        let id: String = try row.get("id")
        guard let method = Decision.Method(rawValue: try row.get("method")),
            let status = Decision.Status(rawValue: try row.get("status")),
            let seed = UInt64(try row.get("seed", as: String.self))
        else { throw PlacesError(.internalError, "stored decision '\(id)' is unreadable") }
        let resultText: String? = try row.get("result")
        let departuresText: String? = try row.get("departures")
        var decision = Decision(
            id: id,
            groupId: try row.get("group_id"),
            createdBy: try row.get("created_by"),
            title: try row.get("title"),
            method: method,
            status: status,
            candidates: try StoredJSON.value([String].self, from: try row.get("candidates")),
            participants: try row.get("participant_ids", as: [String].self).sorted(),
            weighted: try row.get("weighted"),
            scheduled: try row.get("scheduled"),
            seed: seed,
            deadline: try row.optionalDate("deadline"),
            visitDate: try row.get("visit_date"),
            createdAt: try row.date("created_at"),
            endedAt: try row.optionalDate("ended_at"),
            reminderSentAt: try row.optionalDate("reminder_sent_at"),
            result: try resultText.map { try StoredJSON.value(DecisionResult.self, from: $0) }
        )
        decision.departures = try departuresText.map { try StoredJSON.value([Departure].self, from: $0) } ?? []
        decision.swipe = try (try row.get("swipe_rule", as: String?.self)).map { try StoredJSON.value(SwipeRule.self, from: $0) }
        decision.round = try (try row.get("round_result", as: String?.self)).map { try StoredJSON.value(RoundResult.self, from: $0) }
        decision.visitAt = try row.optionalDate("visit_at")
        decision.meetWithout = try (try row.get("meet_without", as: String?.self)).map { try StoredJSON.value([String].self, from: $0) } ?? []
        return DecisionState(
            decision: decision,
            ballots: try StoredDecisionRows.ballots(of: id, from: try row.get("ballot_list")),
            swipes: try StoredDecisionRows.swipes(of: id, from: try row.get("swipe_list")),
            formerMembers: Set(try row.get("former_member_ids", as: [String].self)),
            people: try StoredDecisionRows.people(namedBy: id, from: try row.get("people")),
            version: try row.get("version"),
            decisionVersion: try row.get("decision_version")
        )
    }
}

extension PostgresPlacesDatabase {
    /// The decision repository over this database.
    public var decisions: PostgresDecisionRepository { PostgresDecisionRepository(database: self) }
}
