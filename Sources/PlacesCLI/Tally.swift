import ArgumentParser
import Foundation
import PlacesCore

extension Places {
    /// `places tally`: a decision's result computed offline from a file, with the server's own code.
    struct Tally: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Compute a tiered (Schulze) or random result from a JSON file of candidates and ballots.",
            discussion: """
                FILE is {"candidates": ["id", ...], "ballots": [["id", ...], ...]}: rankings, best first, no id twice. \
                For random the ballots are ignored and "weights": {"id": number} may be given. A swipe round, \
                "round": {"vetoes": 1, "minYes": 2, "swipes": [{"yes": [...], "no": [...], "veto": [...]}, ...]} (one \
                entry per participant), is counted first and the method runs on its survivors. Without --seed, a tiered \
                tally's lot uses the SHA-256 of the canonical ballots, and a random draw a seed from the system's \
                generator (printed, so the draw can be repeated).
                """
        )

        @Option(name: .long, help: "tiered or random.")
        var method: String

        @Argument(help: "The tally file.")
        var file: String

        @Option(name: .long, help: "The 64-bit seed (0...18446744073709551615).")
        var seed: String?

        @Flag(name: .long, help: "Print the result as JSON (winner, ranking, tieBreak and the figures behind them).")
        var json = false

        func run() async throws {
            do {
                guard method == "tiered" || method == "random" else {
                    throw PlacesError.invalid("method", "--method must be tiered or random")
                }
                let seedValue = try seed.map { text throws(PlacesError) -> UInt64 in
                    guard let value = UInt64(text) else { throw PlacesError.invalid("seed", "--seed must be a whole number from 0 to 2^64-1") }
                    return value
                }
                guard let data = FileManager.default.contents(atPath: file) else {
                    throw PlacesError.invalid("file", "cannot read the tally file '\(file)'")
                }
                let tally = try TallyFile.parse(Array(data))
                // A swipe round first, when the file has one: the method runs on its survivors.
                let round = tally.round?.result()
                let candidates = round?.survivors ?? tally.candidates
                if let round {
                    if json, candidates.isEmpty { return try printJSON(["round": round]) }
                    if !json { print(round.reasoning) }
                    if candidates.isEmpty { return print("winner: none (nothing survived the swipe round)") }
                }
                if method == "tiered" {
                    let count = try TieredTally(candidates: candidates, ballots: tally.ballots)
                    let lot = seedValue.map(TieredTally.seedBytes) ?? TieredTally.canonicalSeed(candidates: candidates, ballots: tally.ballots)
                    let result = count.result(seed: lot)
                    try show(result, round: round, winner: result.winner, ranking: result.ranking, tieBreak: result.tieBreak, reasoning: result.reasoning)
                } else {
                    let survivors = Set(candidates)
                    let draw = try RandomDraw(candidates: candidates, weights: tally.weights?.filter { survivors.contains($0.key) })
                    let result = draw.draw(seed: seedValue ?? DecisionService.secureSeed())
                    try show(result, round: round, winner: result.winner, ranking: result.ranking, tieBreak: result.tieBreak, reasoning: result.reasoning)
                }
            } catch {
                throw Failure.exit(error)
            }
        }

        /// The result as JSON (with the round's beside it, when there was one), or as lines.
        private func show(
            _ result: some Encodable & Sendable,
            round: RoundResult?,
            winner: String,
            ranking: [String],
            tieBreak: TieBreakStep,
            reasoning: String
        ) throws {
            if json {
                if let round { return try printJSON(RoundAndResult(round: round, result: result)) }
                try printJSON(result)
                return
            }
            print("winner: \(winner)")
            for (place, id) in ranking.enumerated() { print("  \(place + 1). \(id)") }
            print("tie-break: \(tieBreak.rawValue)")
            print(reasoning)
        }
    }
}

/// A tally's JSON when its file had a swipe round: the round's result, then the method's on the survivors.
private struct RoundAndResult<Result: Encodable>: Encodable {
    var round: RoundResult
    var result: Result
}
