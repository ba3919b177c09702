import Foundation

/// A decision and its ballots as one read saw them, at a version; a change is decided on a copy and saved over it.
public struct DecisionState: Sendable {
    /// The decision.
    public var decision: Decision
    /// Its ballots, one per participant who voted, by user id.
    public var ballots: [Ballot]
    /// Notifications to store in the same transaction as the change.
    public var notifications: [UserNotification] = []
    /// Participants who are no longer members of the decision's group (empty for a decision without a group).
    public var formerMembers: Set<String>
    /// How many times the decision was changed; a save over an older version is refused.
    public var version: Int64

    /// Makes a state.
    public init(decision: Decision, ballots: [Ballot], formerMembers: Set<String> = [], version: Int64 = 0) {
        self.decision = decision
        self.ballots = ballots
        self.formerMembers = formerMembers
        self.version = version
    }
}

/// Stores decisions and ballots. A decision changes by optimistic concurrency: it is read with its version, the
/// change is decided in Core on a copy, and `save` writes the copy in one transaction only when nobody saved the
/// decision since; concurrent ballots are thus applied one after another, and exactly one of them can complete it.
public protocol DecisionRepository: Sendable {
    /// Stores a new decision and the notifications that announce it.
    func insert(_ decision: Decision, notifications: [UserNotification]) async throws
    /// The decision with this id (its participants by user id), its ballots and version, in one read; nil when there
    /// is none.
    func state(decisionID: String) async throws -> DecisionState?
    /// A page of the decisions the person takes part in, started, or that belong to one of `groupIDs`, with their
    /// ballots; newest first (then by id, descending), after the page's cursor.
    func decisions(visibleTo userID: String, groupIDs: [String], page: PageRequest) async throws -> Page<DecisionState>
    /// Writes `state` over `previous` in one transaction: the decision's status, end, reminder time, result and
    /// departures (the rest is fixed when it starts), the participants and ballots it removed, the ballots it added or
    /// changed, and its notifications; false (writing nothing) when the decision was saved since `previous` was read,
    /// `not_found` when it no longer exists.
    func save(_ state: DecisionState, replacing previous: DecisionState) async throws -> Bool
    /// Ids of the group's active decisions in which the person is a participant.
    func activeDecisions(groupID: String, participant userID: String) async throws -> [String]
    /// Ids of active decisions whose deadline is at or before `date`, soonest first.
    func activeDecisions(deadlineBefore date: Date) async throws -> [String]
    /// Winners of the group's (or, without a group, the person's own) decisions completed at or after `since`.
    func recentWinners(groupID: String?, createdBy userID: String, since: Date) async throws -> Set<String>
    /// How many decisions are active.
    func activeCount() async throws -> Int
    /// How many active decisions the person started.
    func activeCount(startedBy userID: String) async throws -> Int
}
