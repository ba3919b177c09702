import Foundation

/// Turns a decision and its ballots into its result, with the one implementation of each method that the server,
/// the recount and `places tally` share.
enum DecisionTally {
    /// The result of a random or tiered decision. `weights` are the candidates' rating scores for a weighted draw
    /// (read when the decision ends, and taken from the stored result by a recount).
    static func result(
        _ decision: Decision,
        ballots: [Ballot],
        endedBy: DecisionResult.Ending,
        names: [String: String],
        weights: [String: Double]?
    ) throws(PlacesError) -> DecisionResult {
        switch decision.method {
        case .random:
            let draw = try RandomDraw(
                candidates: decision.candidates,
                weights: decision.weighted ? weights : nil,
                weightedBy: decision.weighted ? "rating score" : nil
            ).draw(seed: decision.seed)
            var result = DecisionResult(
                method: .random,
                winner: draw.winner,
                ranking: draw.ranking,
                tieBreak: draw.tieBreak,
                reasoning: draw.reasoning,
                seed: decision.seed,
                ballotCount: 0,
                endedBy: endedBy,
                standings: draw.ranking.map { id in
                    DecisionResult.Standing(placeId: id, name: names[id], weight: draw.weights.first { $0.placeId == id }?.weight)
                }
            )
            result.totalWeight = draw.totalWeight
            result.roll = draw.roll
            return result
        case .tiered:
            let tally = try TieredTally(candidates: decision.candidates, ballots: ballots.map(\.ranking))
                .result(seed: TieredTally.seedBytes(decision.seed))
            var result = DecisionResult(
                method: .tiered,
                winner: tally.winner,
                ranking: tally.ranking,
                tieBreak: tally.tieBreak,
                reasoning: tally.reasoning,
                seed: decision.seed,
                ballotCount: ballots.count,
                endedBy: endedBy,
                standings: tally.scores.map { score in
                    DecisionResult.Standing(
                        placeId: score.placeId,
                        name: names[score.placeId],
                        marginSum: score.marginSum,
                        borda: score.borda,
                        firstChoices: score.firstChoices
                    )
                }
            )
            result.pairwise = tally.pairwise
            result.strongestPaths = tally.strongestPaths
            result.schulzeWinners = tally.schulzeWinners
            return result
        case .manual:
            throw PlacesError(.conflict, "a manual decision has no count: an admin picks its place")
        }
    }

    /// The result of a manual decision: the place an admin picked.
    static func manual(_ decision: Decision, winner: String, pickedBy username: String, names: [String: String]) -> DecisionResult {
        let ranking = [winner] + decision.candidates.filter { $0 != winner }
        return DecisionResult(
            method: .manual,
            winner: winner,
            ranking: ranking,
            tieBreak: .none,
            reasoning: "\(username), an admin, picked \(names[winner] ?? winner) from \(decision.candidates.count) candidates.",
            seed: decision.seed,
            ballotCount: 0,
            endedBy: .adminPick,
            standings: ranking.map { DecisionResult.Standing(placeId: $0, name: names[$0]) }
        )
    }
}
