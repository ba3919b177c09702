/// The outcome of a tiered vote, with the numbers that explain it (see `TieredTally` for the rules).
///
/// JSON: `{"method": "tiered", "winner", "ranking", "schulzeWinners", "tieBreak", "ballotCount", "lotSeed" (hex),
/// "pairwise": [{"for", "against", "votes"}], "strongestPaths": [{"from", "to", "strength"}],
/// "scores": [{"placeId", "marginSum", "borda", "firstChoices"}], "reasoning"}`. The pairwise and path lists hold
/// every ordered pair of distinct candidates, in ascending id order of `for`/`from` then `against`/`to`; `scores`
/// follows the ranking.
public struct TieredResult: Sendable, Hashable, Encodable {
    /// How many ballots preferred one candidate over another.
    public struct PairwiseCount: Sendable, Hashable, Codable {
        /// The preferred candidate.
        public var forPlace: String
        /// The candidate it was preferred to.
        public var againstPlace: String
        /// The number of ballots with that preference.
        public var votes: Int

        private enum CodingKeys: String, CodingKey {
            case forPlace = "for"
            case againstPlace = "against"
            case votes
        }
    }

    /// The strength of the strongest path from one candidate to another (0: no path).
    public struct PathStrength: Sendable, Hashable, Codable {
        /// Where the path starts.
        public var from: String
        /// Where it ends.
        public var to: String
        /// Its weakest link's margin.
        public var strength: Int
    }

    /// One candidate's scores in the tie-break cascade.
    public struct CandidateScore: Sendable, Hashable, Codable {
        /// The place's id.
        public var placeId: String
        /// The sum of its head-to-head margins against every other candidate.
        public var marginSum: Int
        /// Its Borda score: over all ballots, the candidates it beats there.
        public var borda: Int
        /// How many ballots rank it first.
        public var firstChoices: Int
    }

    /// Always `tiered`: every result names its method (a draw's says `random`).
    public let method = Decision.Method.tiered
    /// The winning place: `ranking[0]`.
    public var winner: String
    /// Every candidate, best first.
    public var ranking: [String]
    /// The candidates no other beats by the Schulze method, in ascending id order (the set the cascade broke).
    public var schulzeWinners: [String]
    /// The cascade step that left one winner; `none` when there was a single Schulze winner.
    public var tieBreak: TieBreakStep
    /// How many ballots were counted.
    public var ballotCount: Int
    /// The lot's seed bytes, as lowercase hex.
    public var lotSeed: String
    /// `d[a][b]` for every ordered pair of distinct candidates.
    public var pairwise: [PairwiseCount]
    /// `p[a][b]` for every ordered pair of distinct candidates.
    public var strongestPaths: [PathStrength]
    /// Each candidate's cascade scores, in ranking order.
    public var scores: [CandidateScore]
    /// One paragraph for people: who won, whether it beat every other head-to-head, and what broke a tie.
    public var reasoning: String

    /// Builds the result of `count`; the candidates are given as their numbers in it.
    init(count: TieredCount, ranking: [Int], schulzeWinners: [Int], tieBreak: TieBreakStep, reasoning: String) {
        let ids = count.candidates
        let n = ids.count
        self.winner = ids[ranking[0]]
        self.ranking = ranking.map { ids[$0] }
        self.schulzeWinners = schulzeWinners.sorted().map { ids[$0] }
        self.tieBreak = tieBreak
        self.ballotCount = count.ballotCount
        self.lotSeed = Hex.text(count.seed)
        var pairwise: [PairwiseCount] = []
        var paths: [PathStrength] = []
        pairwise.reserveCapacity(n * (n - 1))
        paths.reserveCapacity(n * (n - 1))
        for a in 0..<n {
            for b in 0..<n where a != b {
                pairwise.append(PairwiseCount(forPlace: ids[a], againstPlace: ids[b], votes: count.preferences[a * n + b]))
                paths.append(PathStrength(from: ids[a], to: ids[b], strength: count.paths[a * n + b]))
            }
        }
        self.pairwise = pairwise
        self.strongestPaths = paths
        self.scores = ranking.map {
            CandidateScore(placeId: ids[$0], marginSum: count.marginSums[$0], borda: count.borda[$0], firstChoices: count.firstChoices[$0])
        }
        self.reasoning = reasoning
    }
}
