import Crypto

/// The arithmetic of one tiered count: the pairwise matrix, strongest paths, the cascade's scores and the ranking.
///
/// Candidates are numbered in ascending id order; matrices are flat, row-major `n × n` arrays.
struct TieredCount {
    let candidates: [String]
    let ballotCount: Int
    let seed: [UInt8]
    /// `preferences[a * n + b]`: ballots preferring a over b.
    private(set) var preferences: [Int]
    /// `paths[a * n + b]`: the strongest path strength from a to b, by margins (0: no path).
    private(set) var paths: [Int]
    private(set) var marginSums: [Int]
    private(set) var borda: [Int]
    private(set) var firstChoices: [Int]
    private(set) var lots: [[UInt8]]

    /// Counts `ballots` (already checked) over `candidates` (ascending, unique).
    init(candidates: [String], ballots: [[String]], seed: [UInt8]) {
        let n = candidates.count
        self.candidates = candidates
        self.ballotCount = ballots.count
        self.seed = seed
        var number: [String: Int] = [:]
        for (index, id) in candidates.enumerated() { number[id] = index }

        // A candidate ranked i-th beats everyone but those ranked at or above it: add 1 to its whole row once
        // per ballot ranking it, and take 1 back for each candidate at or above it (itself included).
        var preferences = Array(repeating: 0, count: n * n)
        var rankedCount = Array(repeating: 0, count: n)
        var borda = Array(repeating: 0, count: n)
        var firstChoices = Array(repeating: 0, count: n)
        var ranked: [Int] = []
        for ballot in ballots {
            ranked.removeAll(keepingCapacity: true)
            for id in ballot { if let index = number[id] { ranked.append(index) } }
            if let first = ranked.first { firstChoices[first] += 1 }
            for (position, a) in ranked.enumerated() {
                rankedCount[a] += 1
                borda[a] += n - 1 - position
                for above in ranked[...position] { preferences[a * n + above] -= 1 }
            }
        }
        for a in 0..<n where rankedCount[a] > 0 {
            for b in 0..<n { preferences[a * n + b] += rankedCount[a] }
        }

        var paths = Array(repeating: 0, count: n * n)
        var marginSums = Array(repeating: 0, count: n)
        for a in 0..<n {
            for b in 0..<n where a != b {
                let margin = preferences[a * n + b] - preferences[b * n + a]
                marginSums[a] += margin
                if margin > 0 { paths[a * n + b] = margin }
            }
        }
        // Floyd–Warshall for the widest path: a path is as strong as its weakest link.
        for k in 0..<n {
            for i in 0..<n where i != k {
                let viaK = paths[i * n + k]
                if viaK == 0 { continue }
                for j in 0..<n where j != i && j != k {
                    let strength = min(viaK, paths[k * n + j])
                    if strength > paths[i * n + j] { paths[i * n + j] = strength }
                }
            }
        }
        self.preferences = preferences
        self.paths = paths
        self.marginSums = marginSums
        self.borda = borda
        self.firstChoices = firstChoices
        self.lots = candidates.map { Array(SHA256.hash(data: seed + Array($0.utf8))) }
    }

    /// True when a beats b in the Schulze relation.
    func beats(_ a: Int, _ b: Int) -> Bool {
        let n = candidates.count
        return paths[a * n + b] > paths[b * n + a]
    }

    /// True when the cascade puts a before b (the id decides only if two lots ever collided).
    func precedes(_ a: Int, _ b: Int) -> Bool {
        if marginSums[a] != marginSums[b] { return marginSums[a] > marginSums[b] }
        if borda[a] != borda[b] { return borda[a] > borda[b] }
        if firstChoices[a] != firstChoices[b] { return firstChoices[a] > firstChoices[b] }
        if lots[a] != lots[b] { return lots[a].lexicographicallyPrecedes(lots[b]) }
        return CandidateOrder.precedes(candidates[a], candidates[b])
    }

    /// The candidates among `group` that no member of `group` beats (all of `group` should that ever be none).
    func unbeaten(in group: [Int]) -> [Int] {
        let top = group.filter { c in !group.contains { other in other != c && beats(other, c) } }
        return top.isEmpty ? group : top
    }

    /// The steps of the cascade over `tied`: each step's name and the candidates it kept, until one is left.
    func cascade(_ tied: [Int]) -> [(step: TieBreakStep, kept: [Int])] {
        guard tied.count > 1 else { return [] }
        let scores: [(TieBreakStep, (Int) -> Int)] = [
            (.marginSum, { marginSums[$0] }), (.borda, { borda[$0] }), (.firstChoices, { firstChoices[$0] }),
        ]
        var steps: [(step: TieBreakStep, kept: [Int])] = []
        var kept = tied
        for (step, score) in scores {
            let best = kept.map(score).max() ?? 0
            kept = kept.filter { score($0) == best }
            steps.append((step, kept))
            if kept.count == 1 { return steps }
        }
        steps.append((.lot, [kept.min(by: precedes) ?? kept[0]]))
        return steps
    }

    /// The whole result.
    func result() -> TieredResult {
        var remaining = Array(candidates.indices)
        var ranking: [Int] = []
        var schulzeWinners: [Int] = []
        while !remaining.isEmpty {
            let top = unbeaten(in: remaining)
            if ranking.isEmpty { schulzeWinners = top }
            ranking += top.sorted(by: precedes)
            let taken = Set(top)
            remaining.removeAll { taken.contains($0) }
        }
        let steps = cascade(schulzeWinners)
        return TieredResult(
            count: self,
            ranking: ranking,
            schulzeWinners: schulzeWinners,
            tieBreak: steps.last?.step ?? .none,
            reasoning: reasoning(winner: ranking[0], schulzeWinners: schulzeWinners, steps: steps)
        )
    }
}
