import Crypto

@testable import PlacesCore

/// An independent Schulze count for the tests: pairwise counts by comparing positions, strongest paths by
/// enumerating every simple path (no Floyd–Warshall), and the cascade applied one filter at a time.
/// Slow on purpose; for at most 6 candidates.
struct SchulzeReference {
    let ids: [String]
    var d: [String: [String: Int]] = [:]
    var p: [String: [String: Int]] = [:]
    var marginSum: [String: Int] = [:]
    var borda: [String: Int] = [:]
    var firsts: [String: Int] = [:]
    var lot: [String: [UInt8]] = [:]

    init(candidates: [String], ballots: [[String]], seed: [UInt8]) {
        ids = candidates.sorted()
        for a in ids {
            d[a] = [:]
            for b in ids { d[a, default: [:]][b] = 0 }
            borda[a] = 0
            firsts[a] = 0
            lot[a] = Array(SHA256.hash(data: seed + Array(a.utf8)))
        }
        for ballot in ballots {
            func position(_ id: String) -> Int { ballot.firstIndex(of: id) ?? Int.max }
            for a in ids {
                for b in ids where a != b && position(a) < position(b) {
                    d[a, default: [:]][b, default: 0] += 1
                    borda[a, default: 0] += 1
                }
            }
            if let first = ballot.first { firsts[first, default: 0] += 1 }
        }
        func margin(_ a: String, _ b: String) -> Int { (d[a]?[b] ?? 0) - (d[b]?[a] ?? 0) }
        for a in ids {
            marginSum[a] = ids.filter { $0 != a }.reduce(0) { $0 + margin(a, $1) }
            for b in ids where a != b { p[a, default: [:]][b] = Self.widest(from: a, to: b, ids: ids, margin: margin) }
        }
    }

    /// The strongest path strength from `a` to `b` over every simple path whose links all have a positive margin.
    static func widest(from a: String, to b: String, ids: [String], margin: (String, String) -> Int) -> Int {
        var best = 0
        func walk(_ at: String, _ visited: Set<String>, _ weakest: Int) {
            for next in ids where !visited.contains(next) && margin(at, next) > 0 {
                let strength = min(weakest, margin(at, next))
                if next == b {
                    best = max(best, strength)
                } else {
                    walk(next, visited.union([next]), strength)
                }
            }
        }
        walk(a, [a], Int.max)
        return best
    }

    func beats(_ a: String, _ b: String) -> Bool { (p[a]?[b] ?? 0) > (p[b]?[a] ?? 0) }

    func unbeaten(_ group: [String]) -> [String] {
        group.filter { c in !group.contains { beats($0, c) } }
    }

    var schulzeWinners: [String] { unbeaten(ids) }

    /// The winner and the step that decided, applying each step as a filter.
    func cascade(_ tied: [String]) -> (winner: String, step: TieBreakStep) {
        if tied.count == 1 { return (tied[0], .none) }
        var kept = tied
        let steps: [(TieBreakStep, [String: Int])] = [(.marginSum, marginSum), (.borda, borda), (.firstChoices, firsts)]
        for (step, score) in steps {
            let best = kept.map { score[$0] ?? 0 }.max() ?? 0
            kept = kept.filter { score[$0] == best }
            if kept.count == 1 { return (kept[0], step) }
        }
        let winner = kept.min { (lot[$0] ?? []).lexicographicallyPrecedes(lot[$1] ?? []) } ?? kept[0]
        return (winner, .lot)
    }

    /// The full ranking: unbeaten groups in turn, each ordered by repeatedly taking its cascade winner.
    var ranking: [String] {
        var remaining = ids
        var order: [String] = []
        while !remaining.isEmpty {
            var group = unbeaten(remaining)
            while !group.isEmpty {
                let next = cascade(group).winner
                order.append(next)
                group.removeAll { $0 == next }
                remaining.removeAll { $0 == next }
            }
        }
        return order
    }
}
