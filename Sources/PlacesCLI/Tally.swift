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
                For random the ballots are ignored and "weights": {"id": number} may be given. Without --seed, a tiered \
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
                if method == "tiered" {
                    let count = try TieredTally(candidates: tally.candidates, ballots: tally.ballots)
                    let lot = seedValue.map(TieredTally.seedBytes) ?? TieredTally.canonicalSeed(candidates: tally.candidates, ballots: tally.ballots)
                    let result = count.result(seed: lot)
                    try show(result, winner: result.winner, ranking: result.ranking, tieBreak: result.tieBreak, reasoning: result.reasoning)
                } else {
                    let draw = try RandomDraw(candidates: tally.candidates, weights: tally.weights)
                    let result = draw.draw(seed: seedValue ?? DecisionService.secureSeed())
                    try show(result, winner: result.winner, ranking: result.ranking, tieBreak: result.tieBreak, reasoning: result.reasoning)
                }
            } catch {
                throw Failure.exit(error)
            }
        }

        private func show(_ result: some Encodable, winner: String, ranking: [String], tieBreak: TieBreakStep, reasoning: String) throws {
            if json {
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
