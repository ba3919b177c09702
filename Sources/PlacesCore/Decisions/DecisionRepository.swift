import Foundation

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
    /// then id: a deadline at or before `date`, an open swipe round (its deadline, or everyone's answers), a participant
    /// who is no longer a member of the decision's group, or a tiered decision in which no participant is without a
    /// ballot. Core decides what is due; this only finds them.
    func activeDecisions(dueBy date: Date) async throws -> [String]
    /// Winners of the group's (or, without a group, the person's own) decisions completed at or after `since`.
    func recentWinners(groupID: String?, createdBy userID: String, since: Date) async throws -> Set<String>
    /// How many decisions are active.
    func activeCount() async throws -> Int
    /// How many active decisions the person started.
    func activeCount(startedBy userID: String) async throws -> Int
}
