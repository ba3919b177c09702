import Foundation

/// A decision and its ballots as one write transaction sees them; what the body changes is saved together.
public struct DecisionState: Sendable {
    /// The decision.
    public var decision: Decision
    /// Its ballots, one per participant who voted.
    public var ballots: [Ballot]
    /// Notifications to store in the same transaction.
    public var notifications: [UserNotification] = []

    /// Makes a state.
    public init(decision: Decision, ballots: [Ballot]) {
        self.decision = decision
        self.ballots = ballots
    }
}

/// Stores decisions and ballots. `update` is the one way to change a decision: it runs its body inside one write
/// transaction, so concurrent ballots are applied one after another and exactly one of them can complete it.
public protocol DecisionRepository: Sendable {
    /// Stores a new decision and the notifications that announce it.
    func insert(_ decision: Decision, notifications: [UserNotification]) async throws
    /// The decision with this id.
    func decision(id: String) async throws -> Decision?
    /// Its ballots, by user id.
    func ballots(decisionID: String) async throws -> [Ballot]
    /// A page of the decisions the person takes part in, started, or that belong to one of `groupIDs`; newest first.
    func decisions(visibleTo userID: String, groupIDs: [String], page: PageRequest) async throws -> [Decision]
    /// Runs `body` on the decision and its ballots in one write transaction and saves what it changed (participants
    /// and ballots it removed are deleted); `not_found` when there is no such decision.
    func update<T: Sendable>(decisionID: String, _ body: @Sendable (inout DecisionState) throws -> T) async throws -> T
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
