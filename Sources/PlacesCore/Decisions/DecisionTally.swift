import Foundation

/// Turns a decision and its ballots into its result, with the one implementation of each method that the server,
/// the recount and `places tally` share.
enum DecisionTally {
    /// The result of a random or tiered decision. `weights` are the candidates' rating scores for a weighted draw
    /// (read when the decision ends, and taken from the stored result by a recount).
    ///
    /// After a swipe round the method runs on the round's survivors, and the result starts with the round's
    /// explanation; when nothing survived there is no winner (`nothingSurvived`).
    static func result(
        _ decision: Decision,
        ballots: [Ballot],
        endedBy: DecisionResult.Ending,
        names: [String: String],
        weights: [String: Double]?
    ) throws(PlacesError) -> DecisionResult {
        guard let round = decision.round else { return try method(decision, ballots: ballots, endedBy: endedBy, names: names, weights: weights) }
        guard !round.survivors.isEmpty else {
            var result = DecisionResult(
                method: decision.method,
                winner: nil,
                ranking: [],
                tieBreak: .none,
                reasoning: round.reasoning + " Nothing is left to decide, so the decision ends without a winner.",
                seed: decision.seed,
                ballotCount: 0,
                endedBy: .nothingSurvived,
                standings: []
            )
            result.round = round
            return result
        }
        var result = try method(decision, ballots: ballots, endedBy: endedBy, names: names, weights: weights)
        result.reasoning = round.reasoning + " " + result.reasoning
        result.round = round
        return result
    }

    /// The round of `decision` counted from its participants' swipes (those who left have none), ended by `ending`.
    static func round(_ decision: Decision, swipes: [Swipe], names: [String: String], endedBy ending: RoundResult.Ending?, at date: Date?) -> RoundResult? {
        guard let rule = decision.swipe else { return nil }
        let answers = decision.participants.map { participant in
            Dictionary(swipes.filter { $0.userId == participant }.map { ($0.placeId, $0.answer) }, uniquingKeysWith: { _, last in last })
        }
        var round = SwipeTally(candidates: decision.candidates, vetoes: rule.vetoes, minYes: rule.minYes, answers: answers).result(names: names)
        round.endedBy = ending
        round.endedAt = date
        return round
    }

    /// The method's own result, among the decision's survivors.
    private static func method(_ decision: Decision, ballots: [Ballot], endedBy: DecisionResult.Ending, names: [String: String], weights: [String: Double]?)
        throws(PlacesError) -> DecisionResult
    {
        switch decision.method {
        case .random:
            let survivors = Set(decision.survivors)
            let draw = try RandomDraw(
                candidates: decision.survivors,
                weights: decision.weighted ? weights?.filter { survivors.contains($0.key) } : nil,
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
            let tally = try TieredTally(candidates: decision.survivors, ballots: ballots.map(\.ranking))
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
        let ranking = [winner] + decision.survivors.filter { $0 != winner }
        var result = DecisionResult(
            method: .manual,
            winner: winner,
            ranking: ranking,
            tieBreak: .none,
            reasoning: "\(username), an admin, picked \(names[winner] ?? winner) from \(decision.survivors.count) candidates.",
            seed: decision.seed,
            ballotCount: 0,
            endedBy: .adminPick,
            standings: ranking.map { DecisionResult.Standing(placeId: $0, name: names[$0]) }
        )
        if let round = decision.round {
            result.reasoning = round.reasoning + " " + result.reasoning
            result.round = round
        }
        return result
    }
}
