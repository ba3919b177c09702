/// A reproducible random draw among candidate places, uniform or weighted, that anyone can re-run by hand.
///
/// The draw, exactly:
/// 1. Put the candidates in ascending id order (UTF-8 byte order; for ASCII ids the same as Swift's `String <`).
///    Each has a weight: 1 for a uniform draw, else its given weight (finite, > 0).
/// 2. Start `SplitMix64(seed:)` from the 64-bit seed.
/// 3. Total the weights, adding them in that order. Take `u = Double(next() >> 11) * 2⁻⁵³` (uniform in [0, 1)) and
///    the roll `r = u * total`, in [0, total).
/// 4. Walk the candidates in that order, adding up their weights; the winner is the first whose cumulative weight
///    is greater than `r` (should rounding ever leave none, the last candidate).
/// 5. The full ranking continues without replacement from the same generator: drop the drawn candidate, total the
///    remaining weights again in ascending order, roll `r = nextUnitDouble() * remaining total`, and apply the same
///    rule over the remaining candidates; repeat until none is left.
public struct RandomDraw: Sendable, Hashable {
    /// The candidates in ascending id order.
    public let candidates: [String]
    /// Each candidate's weight, in the order of `candidates` (all 1 for a uniform draw).
    public let weights: [Double]
    /// What the weights measure (for example "rating score"); nil for a uniform draw.
    public let weightedBy: String?

    /// Checks the candidates and weights; `weights` nil or empty means a uniform draw.
    ///
    /// When weights are given, every candidate needs one (finite and greater than 0) and no other id may have one.
    public init(candidates: [String], weights: [String: Double]? = nil, weightedBy: String? = nil) throws(PlacesError) {
        guard !candidates.isEmpty else { throw .invalid("candidates", "a draw needs at least one candidate") }
        if let empty = candidates.firstIndex(of: "") { throw .invalid("candidates", "candidates[\(empty)] is an empty id") }
        let sorted = CandidateOrder.sorted(candidates)
        for (previous, id) in zip(sorted, sorted.dropFirst()) where previous == id {
            throw .invalid("candidates", "candidate \(PlacesError.quoted(id)) is listed twice")
        }
        self.candidates = sorted
        guard let weights, !weights.isEmpty else {
            self.weights = Array(repeating: 1, count: sorted.count)
            self.weightedBy = nil
            return
        }
        let known = Set(sorted)
        if let unknown = CandidateOrder.sorted(weights.keys).first(where: { !known.contains($0) }) {
            throw .invalid("weights", "weight for \(PlacesError.quoted(unknown)), which is not a candidate")
        }
        var list: [Double] = []
        list.reserveCapacity(sorted.count)
        for id in sorted {
            guard let weight = weights[id] else {
                throw .invalid("weights", "no weight for candidate \(PlacesError.quoted(id)); give every candidate a weight or none")
            }
            guard weight.isFinite, weight > 0 else {
                throw .invalid("weights", "the weight of \(PlacesError.quoted(id)) must be a finite number greater than 0")
            }
            list.append(weight)
        }
        guard list.reduce(0, +).isFinite else { throw .invalid("weights", "the weights add up to more than a Double holds") }
        self.weights = list
        self.weightedBy = weightedBy ?? "the given weights"
    }

    /// Runs the draw from `seed`: the winner, the full ranking and how it came about.
    public func draw(seed: UInt64) -> RandomDrawResult {
        var generator = SplitMix64(seed: seed)
        var remaining = Array(candidates.indices)
        var ranking: [String] = []
        ranking.reserveCapacity(candidates.count)
        var firstRoll = 0.0
        var firstTotal = 0.0
        var winnerSpan = (from: 0.0, to: 0.0)
        while !remaining.isEmpty {
            let total = remaining.reduce(0.0) { $0 + weights[$1] }
            let roll = generator.nextUnitDouble() * total
            var cumulative = 0.0
            var chosen = remaining.count - 1
            for (position, index) in remaining.enumerated() {
                let before = cumulative
                cumulative += weights[index]
                if cumulative > roll {
                    chosen = position
                    if ranking.isEmpty { winnerSpan = (before, cumulative) }
                    break
                }
            }
            if ranking.isEmpty {
                firstRoll = roll
                firstTotal = total
                if chosen == remaining.count - 1 { winnerSpan = (total - weights[remaining[chosen]], total) }
            }
            ranking.append(candidates[remaining[chosen]])
            remaining.remove(at: chosen)
        }
        let winner = ranking[0]
        let how = weightedBy.map { "weighted by \($0)" } ?? "uniformly"
        let from = CandidateOrder.format(winnerSpan.from)
        let to = CandidateOrder.format(winnerSpan.to)
        let reasoning =
            "Drew one of \(candidates.count) \(candidates.count == 1 ? "place" : "places") at random, \(how), with seed \(seed): "
            + "with the candidates in ascending id order and SplitMix64 from the seed, the roll \(CandidateOrder.format(firstRoll)) "
            + "of a total weight of \(CandidateOrder.format(firstTotal)) fell on \(winner), whose cumulative weights span \(from)–\(to). "
            + "The rest of the ranking was drawn the same way, without replacement."
        return RandomDrawResult(
            winner: winner,
            ranking: ranking,
            seed: seed,
            weightedBy: weightedBy,
            weights: zip(candidates, weights).map { RandomDrawResult.CandidateWeight(placeId: $0, weight: $1) },
            totalWeight: firstTotal,
            roll: firstRoll,
            reasoning: reasoning
        )
    }
}
