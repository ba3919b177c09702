import Foundation

/// A decision and its ballots as one read saw them, at a version; a change is decided on a copy and saved over it.
public struct DecisionState: Sendable {
    /// The decision.
    public var decision: Decision
    /// Its ballots, one per participant who voted, by user id.
    public var ballots: [Ballot]
    /// Its swipe round's answers, by user id then place id (none without a round).
    public var swipes: [Swipe]
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
        swipes: [Swipe] = [],
        formerMembers: Set<String> = [],
        people: [String: PublicUser] = [:],
        version: Int64 = 0,
        decisionVersion: Int64 = 0
    ) {
        self.decision = decision
        self.ballots = ballots
        self.swipes = swipes
        self.formerMembers = formerMembers
        self.people = people
        self.version = version
        self.decisionVersion = decisionVersion
    }
}
