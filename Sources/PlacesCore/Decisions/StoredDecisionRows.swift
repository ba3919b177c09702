import Foundation

/// The rows a decision's read gathers as JSON lists (both engines build the same lists in SQL): its ballots and the
/// people it names, checked and read here once.
public enum StoredDecisionRows {
    /// The ballots of the decision `id` from their JSON list of [user id, ranking (JSON text), cast at, updated at],
    /// by user id.
    public static func ballots(of id: String, from text: String) throws -> [Ballot] {
        try StoredJSON.value([[String]].self, from: text).map { fields in
            guard fields.count == 4 else { throw PlacesError(.internalError, "a stored ballot of decision '\(id)' is unreadable") }
            return Ballot(
                userId: fields[0],
                ranking: try StoredJSON.value([String].self, from: fields[1]),
                castAt: Timestamp.date(fields[2]) ?? Date(timeIntervalSince1970: 0),
                updatedAt: Timestamp.date(fields[3]) ?? Date(timeIntervalSince1970: 0)
            )
        }
        .sorted { $0.userId < $1.userId }
    }

    /// The swipes of the decision `id` from their JSON list of [user id, place id, answer, updated at], by user id
    /// then place id.
    public static func swipes(of id: String, from text: String) throws -> [Swipe] {
        try StoredJSON.value([[String]].self, from: text).map { fields in
            guard fields.count == 4, let answer = SwipeAnswer(rawValue: fields[2]) else {
                throw PlacesError(.internalError, "a stored answer of decision '\(id)' is unreadable")
            }
            return Swipe(userId: fields[0], placeId: fields[1], answer: answer, updatedAt: Timestamp.date(fields[3]) ?? Date(timeIntervalSince1970: 0))
        }
        .sorted { ($0.userId, $0.placeId) < ($1.userId, $1.placeId) }
    }

    /// The people the decision `id` names, by id, from their JSON list of [id, username, display name, bio, city,
    /// avatar URL, picture id]: the public columns, some of them null.
    public static func people(namedBy id: String, from text: String) throws -> [String: PublicUser] {
        let people = try StoredJSON.value([[String?]].self, from: text).map { fields in
            guard fields.count == 7, let userID = fields[0], let username = fields[1] else {
                throw PlacesError(.internalError, "a person named by decision '\(id)' is unreadable")
            }
            let profile = User.Profile(
                displayName: fields[2],
                bio: fields[3],
                city: fields[4],
                avatarURL: fields[5],
                pictureURL: fields[6].map(Photo.url(id:))
            )
            return PublicUser(id: userID, username: username, profile: profile)
        }
        return Dictionary(people.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// What makes an active decision `d` worth a look for what may be due, besides a deadline the engine compares
    /// itself (`DecisionRepository.activeDecisions(dueBy:)`), and their order: the same SQL on both engines.
    public static let mayBeDue = """
        OR (d.swipe_rule IS NOT NULL AND d.round_result IS NULL)
        OR (d.group_id IS NOT NULL AND EXISTS (
            SELECT 1 FROM decision_participant p WHERE p.decision_id = d.id
                AND NOT EXISTS (SELECT 1 FROM group_member m WHERE m.group_id = d.group_id AND m.user_id = p.user_id)))
        OR (d.method = 'tiered' AND EXISTS (SELECT 1 FROM ballot b WHERE b.decision_id = d.id) AND NOT EXISTS (
            SELECT 1 FROM decision_participant p WHERE p.decision_id = d.id
                AND NOT EXISTS (SELECT 1 FROM ballot b WHERE b.decision_id = d.id AND b.user_id = p.user_id)))
        ) ORDER BY d.deadline IS NULL, d.deadline, d.id
        """
}
