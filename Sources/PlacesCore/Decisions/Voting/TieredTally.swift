import Crypto

/// A tiered (ranked) vote counted by the Schulze method, with path strengths measured by margins.
///
/// Each ballot ranks some or all candidates, best first; candidates a ballot leaves out tie below all it ranks.
/// `d[a][b]` counts the ballots preferring a over b and the margin is `m[a][b] = d[a][b] − d[b][a]`. A link a→b
/// has strength `m[a][b]` when that is positive; the strongest (widest) path strengths `p` come from
/// Floyd–Warshall. a beats b when `p[a][b] > p[b][a]`; the Schulze winners are those no one beats, so a place
/// that beats every other head-to-head always wins.
///
/// Several Schulze winners are separated by this cascade, each step keeping only those best on it:
/// (1) the larger margin sum `Σₓ m[c][x]`; (2) the higher Borda score (per ballot, one point for every candidate
/// c beats there: a ranked candidate beats those ranked below it and every unranked one); (3) more first choices;
/// (4) a lot: the smaller SHA-256 of the seed bytes followed by the id's UTF-8 bytes, compared byte by byte.
///
/// The full ranking repeats this: take the remaining candidates no remaining candidate beats, order them by the
/// cascade, append them, and go on with the rest. The order of ballots and of candidates never matters.
public struct TieredTally: Sendable, Hashable {
    /// The candidates in ascending id order (UTF-8 byte order).
    public let candidates: [String]
    /// The ballots as given, each a ranking best first.
    public let ballots: [[String]]

    /// Checks the input: unique, non-empty candidate ids, and ballots that name only candidates, each at most once.
    public init(candidates: [String], ballots: [[String]]) throws(PlacesError) {
        guard !candidates.isEmpty else { throw .invalid("candidates", "a vote needs at least one candidate") }
        if let empty = candidates.firstIndex(of: "") { throw .invalid("candidates", "candidates[\(empty)] is an empty id") }
        let sorted = CandidateOrder.sorted(candidates)
        for (previous, id) in zip(sorted, sorted.dropFirst()) where previous == id {
            throw .invalid("candidates", "candidate \(PlacesError.quoted(id)) is listed twice")
        }
        let known = Set(sorted)
        for (number, ballot) in ballots.enumerated() {
            var seen: Set<String> = []
            for id in ballot {
                guard known.contains(id) else {
                    throw .invalid("ballots", "ballots[\(number)] names \(PlacesError.quoted(id)), which is not a candidate")
                }
                guard seen.insert(id).inserted else {
                    throw .invalid("ballots", "ballots[\(number)] names \(PlacesError.quoted(id)) more than once")
                }
            }
        }
        self.candidates = sorted
        self.ballots = ballots
    }

    /// Counts the vote; `seed` feeds only the lot, the cascade's last step.
    public func result(seed: [UInt8]) -> TieredResult {
        TieredCount(candidates: candidates, ballots: ballots, seed: seed).result()
    }

    /// The lot seed used when none is given: SHA-256 of a text that depends on neither ballot nor candidate order.
    ///
    /// The text, in UTF-8: the candidate ids sorted by their UTF-8 bytes and joined by "\n"; then "\n\n"; then one
    /// line per ballot, its ids in ballot order joined by ",", the lines sorted by their UTF-8 bytes and joined by
    /// "\n" (no final line break). For candidates a, b, c and ballots [b, a] and [c]: "a\nb\nc\n\nb,a\nc".
    public static func canonicalSeed(candidates: [String], ballots: [[String]]) -> [UInt8] {
        let lines = CandidateOrder.sorted(ballots.map { $0.joined(separator: ",") })
        let text = CandidateOrder.sorted(candidates).joined(separator: "\n") + "\n\n" + lines.joined(separator: "\n")
        return Array(SHA256.hash(data: Array(text.utf8)))
    }

    /// A stored 64-bit seed as lot seed bytes: its 8 bytes, big-endian.
    public static func seedBytes(_ seed: UInt64) -> [UInt8] {
        (0..<8).map { UInt8(truncatingIfNeeded: seed >> (56 - 8 * $0)) }
    }
}
