/// The outcome of a random draw, with everything needed to re-run it by hand (see `RandomDraw`).
///
/// JSON: `{"method": "random", "winner", "ranking", "tieBreak": "none", "seed": "<decimal UInt64 as a string>",
/// "weightedBy", "weights": [{"placeId", "weight"}] (ascending id order), "totalWeight", "roll", "reasoning"}`.
/// The seed is a string because JSON numbers are doubles to most readers and lose precision above 2⁵³.
public struct RandomDrawResult: Sendable, Hashable, Encodable {
    /// One candidate and its weight.
    public struct CandidateWeight: Sendable, Hashable, Codable {
        /// The place's id.
        public var placeId: String
        /// Its weight (1 in a uniform draw).
        public var weight: Double
    }

    /// The drawn place.
    public var winner: String
    /// Every candidate in the order drawn, the winner first.
    public var ranking: [String]
    /// Always `none`: a draw has no tie to break (present so every result names its tie-break step).
    public var tieBreak: TieBreakStep = .none
    /// The 64-bit seed of the SplitMix64 generator (encoded as a decimal string).
    public var seed: UInt64
    /// What the weights measure; nil for a uniform draw.
    public var weightedBy: String?
    /// Each candidate's weight, in ascending id order (the order of the draw).
    public var weights: [CandidateWeight]
    /// The sum of all weights.
    public var totalWeight: Double
    /// The first roll, in [0, totalWeight): it picked the winner.
    public var roll: Double
    /// One paragraph for people: how the winner was drawn.
    public var reasoning: String

    private enum CodingKeys: String, CodingKey {
        case method, winner, ranking, tieBreak, seed, weightedBy, weights, totalWeight, roll, reasoning
    }

    /// Encodes the fields above, the seed as a decimal string.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode("random", forKey: .method)
        try container.encode(winner, forKey: .winner)
        try container.encode(ranking, forKey: .ranking)
        try container.encode(tieBreak, forKey: .tieBreak)
        try container.encode(String(seed), forKey: .seed)
        try container.encodeIfPresent(weightedBy, forKey: .weightedBy)
        try container.encode(weights, forKey: .weights)
        try container.encode(totalWeight, forKey: .totalWeight)
        try container.encode(roll, forKey: .roll)
        try container.encode(reasoning, forKey: .reasoning)
    }
}
