extension TieredCount {
    /// One paragraph: the winner, whether it beat every other place head-to-head, and which tie-break decided.
    func reasoning(winner: Int, schulzeWinners: [Int], steps: [(step: TieBreakStep, kept: [Int])]) -> String {
        let n = candidates.count
        let id = candidates[winner]
        let ballots = "\(ballotCount) \(ballotCount == 1 ? "ballot" : "ballots")"
        var text = "\(id) wins the tiered vote (\(ballots) over \(n) \(n == 1 ? "place" : "places"), Schulze method, margins)."
        if n == 1 { return text + " It was the only candidate." }
        let beatsAll = (0..<n).allSatisfy { $0 == winner || preferences[winner * n + $0] > preferences[$0 * n + winner] }
        if beatsAll {
            return text + " It beat every other place head-to-head, so no tie-break was needed."
        }
        if schulzeWinners.count == 1 {
            return text + " No place beat every other head-to-head, but \(id) is the only place that no other place beats by the"
                + " strongest paths of margins, so no tie-break was needed."
        }
        let tied = schulzeWinners.sorted().map { candidates[$0] }
        text += " No place beat every other head-to-head; \(list(tied)) tied as Schulze winners (none beats another by the strongest"
            + " paths of margins)."
        var group = schulzeWinners
        for (step, kept) in steps {
            switch step {
            case .none:
                break
            case .lot:
                text += " They tied on every score, so a lot decided: \(id) has the smallest SHA-256 of the lot seed followed by its id."
            case .marginSum, .borda, .firstChoices:
                let score: (Int) -> Int = step == .marginSum ? { marginSums[$0] } : step == .borda ? { borda[$0] } : { firstChoices[$0] }
                let best = score(kept[0])
                if kept.count == 1 {
                    let others = group.filter { $0 != winner }.map(score).max() ?? best
                    text += " \(id) came out ahead on \(step.phrase) (\(best), against at most \(others) for the others)."
                } else {
                    let names = list(kept.sorted().map { candidates[$0] })
                    text += " \(kept.count == group.count ? "All" : names) tied on \(step.phrase) at \(best)"
                        + "\(kept.count == group.count ? "" : ", ahead of the rest")."
                }
            }
            group = kept
        }
        return text
    }

    private func list(_ names: [String]) -> String {
        guard names.count > 1 else { return names.first ?? "" }
        return names.dropLast().joined(separator: ", ") + " and " + (names.last ?? "")
    }
}
