import Foundation

/// A group (or one person) settling where to go: candidate places, a method, participants, and in the end a
/// result that explains itself.
@PublicInit
public struct Decision: Sendable, Hashable {
    /// How the winner is chosen.
    public enum Method: String, Sendable, Hashable, Codable, CaseIterable {
        /// A draw, uniform or weighted by rating score, from a stored seed.
        case random
        /// Ranked ballots, counted by the Schulze method.
        case tiered
        /// An admin picks the place.
        case manual
    }

    /// Where a decision is in its life.
    public enum Status: String, Sendable, Hashable, Codable {
        /// Open: swipes (in a round) or ballots are taken.
        case active
        /// Ended with a winner.
        case completed
        /// The deadline passed with no ballot.
        case expired
        /// An admin cancelled it.
        case closed
    }

    /// `d-` and 16 hex digits.
    public var id: String
    /// The group deciding; nil for a decision of one's own.
    public var groupId: String?
    /// Who started it.
    public var createdBy: String
    /// What is being decided ("Friday dinner"), up to 120 characters.
    public var title: String?
    /// Random, tiered or manual.
    public var method: Method
    /// Where it is in its life.
    public var status: Status
    /// The candidate place ids, in ascending id order.
    public var candidates: [String]
    /// Who may vote (user ids, ascending).
    public var participants: [String]
    /// For random: weighted by rating score instead of uniform.
    public var weighted: Bool
    /// For random: the draw waits for an admin (or the deadline) instead of happening at creation.
    public var scheduled: Bool
    /// The 64-bit seed the draw (random) or the lot of the tie-break (tiered) uses; stored from the start.
    public var seed: UInt64
    /// When voting ends, if set.
    public var deadline: Date?
    /// The day the group means to go (`YYYY-MM-DD`), if set.
    public var visitDate: String?
    /// When the group means to go, if set (instead of `visitDate`): its candidates from nearby or meet were open then.
    public var visitAt: Date? = nil
    /// Candidates from meet with `fromParticipants`: the participants (user ids, ascending) whose location it went
    /// without, since they share none for meeting.
    public var meetWithout: [String] = []
    /// When it started.
    public var createdAt: Date
    /// When it ended.
    public var endedAt: Date?
    /// When the reminder to those who have not voted went out.
    public var reminderSentAt: Date?
    /// The result, once completed.
    public var result: DecisionResult?
    /// Participants who left the group (or were removed from it) while the decision was open, in the order they left.
    public var departures: [Departure] = []
    /// The swipe round before the method, when the decision has one.
    public var swipe: SwipeRule?
    /// The round's result, once it ended.
    public var round: RoundResult?

    /// True while the decision's swipe round is open: answers are taken, ballots and picks are not.
    public var inRound: Bool { status == .active && swipe != nil && round == nil }
    /// The candidates the method chooses among: the round's survivors once it ended, or every candidate.
    public var survivors: [String] { round?.survivors ?? candidates }
}
