import Foundation

/// How a decision ended and why its winner won: everything needed to check it by hand.
public struct DecisionResult: Sendable, Hashable, Codable {
    /// What ended the decision.
    public enum Ending: String, Sendable, Hashable, Codable {
        /// Every participant had voted.
        case allVoted
        /// An admin ended the voting.
        case adminClosed
        /// The deadline passed with at least one ballot.
        case deadline
        /// A random draw at creation, or when an admin or the deadline triggered a scheduled one.
        case draw
        /// An admin picked the place (manual).
        case adminPick
        /// No candidate survived the swipe round: there is no winner.
        case nothingSurvived
    }

    /// One candidate's line in the explanation.
    @PublicInit
    public struct Standing: Sendable, Hashable, Codable {
        /// The place.
        public var placeId: String
        /// Its name when the result was made.
        public var name: String?
        /// Tiered: the sum of its head-to-head margins against every other candidate.
        public var marginSum: Int?
        /// Tiered: its Borda score.
        public var borda: Int?
        /// Tiered: how many ballots rank it first.
        public var firstChoices: Int?
        /// Random: its weight in the draw.
        public var weight: Double?
    }

    /// Random, tiered or manual.
    public var method: Decision.Method
    /// The winning place's id; absent when no candidate survived the swipe round.
    public var winner: String?
    /// Every candidate the method ranked (the round's survivors), best first.
    public var ranking: [String]
    /// Which tie-break step decided.
    public var tieBreak: TieBreakStep
    /// One paragraph for people: the round's explanation first, when there was one, then the method's.
    public var reasoning: String
    /// The decision's seed, as decimal text (JSON numbers lose precision above 2^53).
    public var seed: String
    /// How many ballots were counted.
    public var ballotCount: Int
    /// What ended the decision.
    public var endedBy: Ending
    /// Per candidate, in ranking order: the figures the method used.
    public var standings: [Standing]
    /// Tiered: for each ordered pair, how many ballots prefer the one to the other.
    public var pairwise: [TieredResult.PairwiseCount]?
    /// Tiered: for each ordered pair, the Schulze strongest-path strength (by margins).
    public var strongestPaths: [TieredResult.PathStrength]?
    /// Tiered: the candidates the Schulze method alone could not separate.
    public var schulzeWinners: [String]?
    /// Random: the total weight and the roll in [0, total) that picked the winner.
    public var totalWeight: Double?
    /// Random: the first roll.
    public var roll: Double?
    /// Manual: who picked.
    public var pickedBy: String?
    /// The swipe round before the method, when the decision had one: what it removed and why.
    public var round: RoundResult?
    /// When the decision has a visit time: whether the winner is open then, by its hours when the result was made
    /// (absent when it has none). Hours change after a decision ends, so a recount leaves it out of its agreement.
    public var winnerOpen: Bool?

    /// The result without what depends on places as they are now rather than on the ballots and the seed.
    public var counted: DecisionResult {
        var counted = self
        counted.winnerOpen = nil
        return counted
    }

    /// Makes a result.
    public init(
        method: Decision.Method,
        winner: String?,
        ranking: [String],
        tieBreak: TieBreakStep,
        reasoning: String,
        seed: UInt64,
        ballotCount: Int,
        endedBy: Ending,
        standings: [Standing]
    ) {
        self.method = method
        self.winner = winner
        self.ranking = ranking
        self.tieBreak = tieBreak
        self.reasoning = reasoning
        self.seed = String(seed)
        self.ballotCount = ballotCount
        self.endedBy = endedBy
        self.standings = standings
    }
}
