import Foundation

/// How a swipe round ended, and what it left: the survivors the method runs on, what it removed and why, and each
/// candidate's counts (never who answered what).
@PublicInit
public struct RoundResult: Sendable, Hashable, Codable {
    /// What ended the round.
    public enum Ending: String, Sendable, Hashable, Codable {
        /// Every participant answered every candidate.
        case allAnswered
        /// An admin closed the round.
        case adminClosed
        /// The round's deadline (or the decision's) passed.
        case deadline
    }

    /// Why a candidate did not survive.
    public enum Reason: String, Sendable, Hashable, Codable {
        /// Someone vetoed it.
        case vetoed
        /// Nobody answered it.
        case unanswered
        /// No `yes`, no more `yes` than `no`, or fewer `yes` than the round's minimum.
        case tooFewYes
    }

    /// One candidate's counts.
    @PublicInit
    public struct Count: Sendable, Hashable, Codable {
        public var placeId: String
        /// Its name when the round ended.
        public var name: String?
        public var yes: Int
        public var no: Int
        public var veto: Int
        /// Why it was removed; absent for a survivor.
        public var removedFor: Reason?
    }

    /// The candidates that go on to the method, in ascending id order.
    public var survivors: [String]
    /// Every candidate's counts, in ascending id order.
    public var counts: [Count]
    /// The rule the round counted by.
    public var vetoes: Int
    public var minYes: Int?
    /// How many participants the round counted.
    public var participants: Int
    /// One paragraph for people: what the round removed and why.
    public var reasoning: String
    /// What ended it.
    public var endedBy: Ending?
    /// When it ended.
    public var endedAt: Date?
}
