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
    /// Everyone the decision names (its participants and those who left it), as others see them, by id: read with the
    /// decision, so that showing it costs no other read. A user whose account is gone is missing.
    public var people: [String: PublicUser]
    /// How many times the decision or its ballots were saved: a save that changes the decision itself (a count, a
    /// departure, an ending) is refused over an older one, so a result is never counted without a ballot saved since.
    public var version: Int64
    /// How many times the decision itself was saved: a save of ballots alone is refused only over an older one of
    /// these, so ballots of one decision cast at once do not refuse each other.
    public var decisionVersion: Int64

    /// Makes a state.
    public init(
        decision: Decision,
        ballots: [Ballot],
        formerMembers: Set<String> = [],
        people: [String: PublicUser] = [:],
        version: Int64 = 0,
        decisionVersion: Int64 = 0
    ) {
        self.decision = decision
        self.ballots = ballots
        self.formerMembers = formerMembers
        self.people = people
        self.version = version
        self.decisionVersion = decisionVersion
    }
}

/// What a save wrote: the versions it left, and who has voted once it is in.
@PublicInit
public struct SavedDecision: Sendable, Equatable {
    /// The decision's `version` after the save.
    public var version: Int64
    /// The decision's `decisionVersion` after the save.
    public var decisionVersion: Int64
    /// The participants with a ballot, as the save's own transaction sees them: of two last ballots saved at once, the
    /// one saved second finds everyone has voted (and so Core completes the decision).
    public var voters: Set<String>
}

/// Stores decisions and ballots. A decision changes by optimistic concurrency: it is read with its versions, the
/// change is decided in Core on a copy, and `save` writes the copy in one transaction only when nothing it depends on
/// was saved since: a change of the decision itself needs nothing saved at all, a save of ballots alone needs the
/// decision itself unchanged. Exactly one save can complete a decision, and it counts every ballot saved before it.
public protocol DecisionRepository: Sendable {
    /// Stores a new decision and the notifications that announce it.
    func insert(_ decision: Decision, notifications: [UserNotification]) async throws
    /// The decision with this id (its participants by user id), its ballots, the people it names and its versions, in
    /// one read; nil when there is none.
    func state(decisionID: String) async throws -> DecisionState?
    /// A page of the decisions the person takes part in, started, or that belong to one of `groupIDs`, with their
    /// ballots and people, in one read; newest first (then by id, descending), after the page's cursor.
    func decisions(visibleTo userID: String, groupIDs: [String], page: PageRequest) async throws -> Page<DecisionState>
    /// Writes `state` over `previous` in one transaction: the decision's status, end, reminder time, result and
    /// departures (the rest is fixed when it starts), the participants and ballots it removed, the ballots it added or
    /// changed, and its notifications. When the decision itself changed, only if its `version` is still `previous`'s;
    /// when only ballots did, only if its `decisionVersion` is. Nil (writing nothing) when that check fails,
    /// `not_found` when the decision no longer exists. Saves of one decision are ordered: each sees those before it.
    func save(_ state: DecisionState, replacing previous: DecisionState) async throws -> SavedDecision?
    /// Ids of the group's active decisions in which the person is a participant.
    func activeDecisions(groupID: String, participant userID: String) async throws -> [String]
    /// Ids of the active decisions that may have something due, by deadline (soonest first, then those without one),
    /// then id: a deadline at or before `date`, a participant who is no longer a member of the decision's group, or a
    /// tiered decision in which no participant is without a ballot. Core decides what is due; this only finds them.
    func activeDecisions(dueBy date: Date) async throws -> [String]
    /// Winners of the group's (or, without a group, the person's own) decisions completed at or after `since`.
    func recentWinners(groupID: String?, createdBy userID: String, since: Date) async throws -> Set<String>
    /// How many decisions are active.
    func activeCount() async throws -> Int
    /// How many active decisions the person started.
    func activeCount(startedBy userID: String) async throws -> Int
}
