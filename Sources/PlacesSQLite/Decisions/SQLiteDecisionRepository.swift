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
                        deadline, visit_date, created_at)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [
                    decision.id, decision.groupId, decision.createdBy, decision.title, decision.method.rawValue,
                    decision.status.rawValue, try StoredJSON.text(decision.candidates), decision.weighted, decision.scheduled,
                    String(decision.seed), decision.deadline.map(Timestamp.text), decision.visitDate,
                    Timestamp.text(decision.createdAt),
                ]
            )
            for participant in decision.participants {
                try db.execute(
                    sql: "INSERT INTO decision_participant (decision_id, user_id) VALUES (?, ?)",
                    arguments: [decision.id, participant]
                )
            }
            try SQLiteNotificationRepository.insert(notifications, in: db)
            try SQLiteDecisionRepository.save(decision, in: db)
        }
    }

    public func decision(id: String) async throws -> Decision? {
        try await database.read { db in try SQLiteDecisionRepository.load(id, in: db) }
    }

    public func ballots(decisionID: String) async throws -> [Ballot] {
        try await database.read { db in try SQLiteDecisionRepository.ballots(decisionID, in: db) }
    }

    public func decisions(visibleTo userID: String, groupIDs: [String], page: PageRequest) async throws -> [Decision] {
        try await database.read { db in
            let groups = groupIDs.isEmpty ? "" : " OR group_id IN (\(databaseQuestionMarks(count: groupIDs.count)))"
            let ids = try String.fetchAll(
                db,
                sql: """
                    SELECT id FROM decision
                    WHERE created_by = ? OR id IN (SELECT decision_id FROM decision_participant WHERE user_id = ?)\(groups)
                    ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?
                    """,
                arguments: StatementArguments([userID, userID] + groupIDs) + [page.limit, page.offset]
            )
            return try ids.compactMap { try SQLiteDecisionRepository.load($0, in: db) }
        }
    }

    public func update<T: Sendable>(decisionID: String, _ body: @Sendable (inout DecisionState) throws -> T) async throws -> T {
        try await database.write { db in
            guard let decision = try SQLiteDecisionRepository.load(decisionID, in: db) else {
                throw PlacesError.notFound("no decision with id \(PlacesError.quoted(decisionID))")
            }
            let before = try SQLiteDecisionRepository.ballots(decisionID, in: db)
            var state = DecisionState(decision: decision, ballots: before)
            let outcome = try body(&state)
            if state.decision != decision { try SQLiteDecisionRepository.save(state.decision, in: db) }
            for userID in Set(decision.participants).subtracting(state.decision.participants) {
                try db.execute(
                    sql: "DELETE FROM decision_participant WHERE decision_id = ? AND user_id = ?",
                    arguments: [decisionID, userID]
                )
            }
            for userID in Set(before.map(\.userId)).subtracting(state.ballots.map(\.userId)) {
                try db.execute(sql: "DELETE FROM ballot WHERE decision_id = ? AND user_id = ?", arguments: [decisionID, userID])
            }
            for ballot in state.ballots where !before.contains(ballot) {
                try db.execute(
                    sql: """
                        INSERT INTO ballot (decision_id, user_id, ranking, cast_at, updated_at) VALUES (?, ?, ?, ?, ?)
                        ON CONFLICT (decision_id, user_id) DO UPDATE SET ranking = excluded.ranking, updated_at = excluded.updated_at
                        """,
                    arguments: [
                        decisionID, ballot.userId, try StoredJSON.text(ballot.ranking), Timestamp.text(ballot.castAt),
                        Timestamp.text(ballot.updatedAt),
                    ]
                )
            }
            try SQLiteNotificationRepository.insert(state.notifications, in: db)
            return outcome
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

    public func activeDecisions(deadlineBefore date: Date) async throws -> [String] {
        try await database.read { db in
            try String.fetchAll(
                db,
                sql: "SELECT id FROM decision WHERE status = 'active' AND deadline IS NOT NULL AND deadline <= ? ORDER BY deadline, id",
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
                        WHERE status = 'completed' AND \(scope) AND ended_at >= ? AND result IS NOT NULL
                        """,
                    arguments: [groupID ?? userID, Timestamp.text(since)]
                )
            )
        }
    }

    /// Writes what changes over a decision's life: status, ending, reminder, result and departures (participants
    /// and ballots are rows of their own).
    static func save(_ decision: Decision, in db: Database) throws {
        try db.execute(
            sql: "UPDATE decision SET status = ?, ended_at = ?, reminder_sent_at = ?, result = ?, departures = ? WHERE id = ?",
            arguments: [
                decision.status.rawValue, decision.endedAt.map(Timestamp.text), decision.reminderSentAt.map(Timestamp.text),
                try decision.result.map(StoredJSON.text), decision.departures.isEmpty ? nil : try StoredJSON.text(decision.departures),
                decision.id,
            ]
        )
    }

    static func load(_ id: String, in db: Database) throws -> Decision? {
        guard let row = try Row.fetchOne(db, sql: "SELECT * FROM decision WHERE id = ?", arguments: [id]) else { return nil }
        let participants = try String.fetchAll(
            db,
            sql: "SELECT user_id FROM decision_participant WHERE decision_id = ? ORDER BY user_id",
            arguments: [id]
        )
        let seedText: String = row["seed"]
        guard let method = Decision.Method(rawValue: row["method"]), let status = Decision.Status(rawValue: row["status"]),
            let seed = UInt64(seedText)
        else { throw PlacesError(.internalError, "stored decision '\(id)' is unreadable") }
        let resultText: String? = row["result"]
        let departuresText: String? = row["departures"]
        var decision = Decision(
            id: row["id"],
            groupId: row["group_id"],
            createdBy: row["created_by"],
            title: row["title"],
            method: method,
            status: status,
            candidates: try StoredJSON.value([String].self, from: row["candidates"]),
            participants: participants,
            weighted: row["weighted"],
            scheduled: row["scheduled"],
            seed: seed,
            deadline: (row["deadline"] as String?).flatMap(Timestamp.date),
            visitDate: row["visit_date"],
            createdAt: Timestamp.date(row["created_at"]) ?? Date(timeIntervalSince1970: 0),
            endedAt: (row["ended_at"] as String?).flatMap(Timestamp.date),
            reminderSentAt: (row["reminder_sent_at"] as String?).flatMap(Timestamp.date),
            result: try resultText.map { try StoredJSON.value(DecisionResult.self, from: $0) }
        )
        decision.departures = try departuresText.map { try StoredJSON.value([Departure].self, from: $0) } ?? []
        return decision
    }

    static func ballots(_ decisionID: String, in db: Database) throws -> [Ballot] {
        try Row.fetchAll(db, sql: "SELECT * FROM ballot WHERE decision_id = ? ORDER BY user_id", arguments: [decisionID]).map { row in
            Ballot(
                userId: row["user_id"],
                ranking: try StoredJSON.value([String].self, from: row["ranking"]),
                castAt: Timestamp.date(row["cast_at"]) ?? Date(timeIntervalSince1970: 0),
                updatedAt: Timestamp.date(row["updated_at"]) ?? Date(timeIntervalSince1970: 0)
            )
        }
    }
}

/// Values stored as JSON text in a column: written with the API's encoder, read back strictly.
enum StoredJSON {
    static func text(_ value: some Encodable) throws -> String {
        String(decoding: try PlacesJSON.makeEncoder().encode(value), as: UTF8.self)
    }

    static func value<T: Decodable>(_ type: T.Type, from text: String) throws -> T {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        do {
            return try decoder.decode(type, from: Data(text.utf8))
        } catch {
            throw PlacesError(.internalError, "a stored \(type) is unreadable")
        }
    }
}

extension PlacesDatabase {
    /// The decision repository over this database.
    public var decisions: SQLiteDecisionRepository { SQLiteDecisionRepository(database: self) }
}
