import Foundation
import Testing

@testable import PlacesCore

@Suite("Voting: tiered tally (Schulze)")
struct TieredTallyTests {
    /// Expands `(count, "ACBED")` groups into ballots of single-letter ids.
    private func ballots(_ groups: [(Int, String)]) -> [[String]] {
        groups.flatMap { count, order in Array(repeating: order.map(String.init), count: count) }
    }

    /// A random ballot set: 2–5 candidates, 0–6 partial ballots, so ties are common.
    private func randomElection(_ random: inout SplitMix64) -> (candidates: [String], ballots: [[String]]) {
        let pool = ["p1", "p10", "p2", "gem", "Cafe", "b"]
        let count = 2 + Int(random.next() % 4)
        let candidates = Array(pool.shuffled(using: &random).prefix(count))
        let ballots = (0..<Int(random.next() % 7)).map { _ in
            Array(candidates.shuffled(using: &random).prefix(Int(random.next() % UInt64(count + 1))))
        }
        return (candidates, ballots)
    }

    @Test func wikipediaExampleElectsE() throws {
        let groups = [(5, "ACBED"), (5, "ADECB"), (8, "BEDAC"), (3, "CABED"), (7, "CAEBD"), (2, "CBADE"), (7, "DCEBA"), (8, "EBADC")]
        let result = try TieredTally(candidates: ["A", "B", "C", "D", "E"], ballots: ballots(groups)).result(seed: [])
        #expect(result.winner == "E")
        #expect(result.ranking == ["E", "A", "C", "B", "D"])
        #expect(result.tieBreak == .none)
        #expect(result.schulzeWinners == ["E"])
        #expect(result.ballotCount == 45)
        #expect(result.pairwise.first { $0.forPlace == "A" && $0.againstPlace == "B" }?.votes == 20)
        #expect(result.pairwise.first { $0.forPlace == "E" && $0.againstPlace == "D" }?.votes == 31)
        #expect(result.pairwise.count == 20 && result.strongestPaths.count == 20)
    }

    @Test func matchesAnIndependentImplementationOnRandomBallots() throws {
        var random = SplitMix64(seed: 2_026)
        var tieBreaks: [TieBreakStep: Int] = [:]
        for _ in 0..<400 {
            let (candidates, ballots) = randomElection(&random)
            let seed = TieredTally.seedBytes(random.next())
            let result = try TieredTally(candidates: candidates, ballots: ballots).result(seed: seed)
            let reference = SchulzeReference(candidates: candidates, ballots: ballots, seed: seed)
            let (winner, step) = reference.cascade(reference.schulzeWinners)
            #expect(result.winner == winner, "\(candidates) \(ballots)")
            #expect(result.tieBreak == step, "\(candidates) \(ballots)")
            #expect(result.schulzeWinners == reference.schulzeWinners, "\(candidates) \(ballots)")
            #expect(result.ranking == reference.ranking, "\(candidates) \(ballots)")
            for path in result.strongestPaths { #expect(path.strength == reference.p[path.from]?[path.to]) }
            for score in result.scores {
                #expect(score.marginSum == reference.marginSum[score.placeId])
                #expect(score.borda == reference.borda[score.placeId])
                #expect(score.firstChoices == reference.firsts[score.placeId])
            }
            tieBreaks[result.tieBreak, default: 0] += 1
        }
        // The sample must exercise every step of the cascade, or it proves little.
        for step in TieBreakStep.allCases { #expect(tieBreaks[step, default: 0] > 0, "no case decided by \(step)") }
    }

    @Test func aCondorcetWinnerAlwaysWins() throws {
        var random = SplitMix64(seed: 7)
        var found = 0
        for _ in 0..<500 {
            let (candidates, ballots) = randomElection(&random)
            let reference = SchulzeReference(candidates: candidates, ballots: ballots, seed: [])
            let condorcet = candidates.first { a in
                candidates.allSatisfy { b in a == b || (reference.d[a]?[b] ?? 0) > (reference.d[b]?[a] ?? 0) }
            }
            guard let condorcet else { continue }
            found += 1
            let result = try TieredTally(candidates: candidates, ballots: ballots).result(seed: [1, 2, 3])
            #expect(result.winner == condorcet)
            #expect(result.tieBreak == .none)
            #expect(result.reasoning.contains("beat every other place head-to-head"))
        }
        #expect(found > 50)
    }

    @Test func ballotAndCandidateOrderNeverMatter() throws {
        var random = SplitMix64(seed: 99)
        for _ in 0..<150 {
            let (candidates, ballots) = randomElection(&random)
            let seed = TieredTally.canonicalSeed(candidates: candidates, ballots: ballots)
            let result = try TieredTally(candidates: candidates, ballots: ballots).result(seed: seed)
            for _ in 0..<3 {
                let shuffledCandidates = candidates.shuffled(using: &random)
                let shuffledBallots = ballots.shuffled(using: &random)
                #expect(TieredTally.canonicalSeed(candidates: shuffledCandidates, ballots: shuffledBallots) == seed)
                #expect(try TieredTally(candidates: shuffledCandidates, ballots: shuffledBallots).result(seed: seed) == result)
            }
        }
    }

    @Test func theCanonicalSeedIsTheDocumentedText() {
        let seed = TieredTally.canonicalSeed(candidates: ["c", "a", "b"], ballots: [["c"], ["b", "a"]])
        // printf 'a\nb\nc\n\nb,a\nc' | sha256sum
        let hex = seed.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
        #expect(hex == "833df086ccf40adb187dd064afb0ce0c23bc5d5e588570acf5233b991bb49675")
        #expect(seed == TieredTally.canonicalSeed(candidates: ["a", "b", "c"], ballots: [["b", "a"], ["c"]]))
        #expect(seed != TieredTally.canonicalSeed(candidates: ["a", "b", "c"], ballots: [["a", "b"], ["c"]]))
        #expect(TieredTally.seedBytes(0x0102_0304_0506_0708) == [1, 2, 3, 4, 5, 6, 7, 8])
    }

    @Test func aThreeWayCycleIsSettledByTheCascade() throws {
        // A > B > C > A, each by the same margin: every candidate is a Schulze winner; margins and Borda tie.
        let cycle = ballots([(1, "ABC"), (1, "BCA"), (1, "CAB")])
        let result = try TieredTally(candidates: ["A", "B", "C"], ballots: cycle).result(seed: TieredTally.seedBytes(1))
        #expect(result.schulzeWinners == ["A", "B", "C"])
        #expect(result.tieBreak == .lot)
        #expect(result.reasoning.contains("lot"))
        // A partial ballot breaks it by first choices... and Borda first: B ranked alone beats A and C.
        let tilted = try TieredTally(candidates: ["A", "B", "C"], ballots: cycle + [["B"]]).result(seed: [])
        #expect(tilted.winner == "B")
        #expect(tilted.tieBreak == .none || tilted.tieBreak == .marginSum)
    }

    @Test func noBallotsLeaveItToTheLot() throws {
        let result = try TieredTally(candidates: ["x", "y"], ballots: []).result(seed: [9])
        #expect(result.schulzeWinners == ["x", "y"])
        #expect(result.tieBreak == .lot)
        #expect(result.ballotCount == 0)
    }

    @Test func encodesTheDocumentedFields() throws {
        let result = try TieredTally(candidates: ["a", "b"], ballots: [["a"]]).result(seed: [0xAB])
        let object = try JSONSerialization.jsonObject(with: try PlacesJSON.makeEncoder().encode(result)) as? [String: Any]
        #expect(object?["winner"] as? String == "a")
        #expect(object?["tieBreak"] as? String == "none")
        #expect(object?["lotSeed"] as? String == "ab")
        #expect(object?["method"] as? String == "tiered")
        let pairwise = object?["pairwise"] as? [[String: Any]]
        #expect(pairwise?.first?["for"] as? String == "a")
        #expect(pairwise?.first?["against"] as? String == "b")
        #expect(pairwise?.first?["votes"] as? Int == 1)
    }

    @Test(
        arguments: [
            ([], [], "candidates"),
            (["a", "a"], [], "candidates"),
            (["a", "b"], [["a"], ["a", "c"]], "ballots"),
            (["a", "b"], [["b", "a", "b"]], "ballots"),
        ] as [([String], [[String]], String)]
    )
    func badInputNamesTheField(candidates: [String], ballots: [[String]], field: String) {
        #expect(
            performing: { _ = try TieredTally(candidates: candidates, ballots: ballots) },
            throws: { ($0 as? PlacesError)?.field == field && ($0 as? PlacesError)?.code == .invalidInput }
        )
    }

    @Test func aBallotErrorSaysWhichBallotAndWhichId() {
        #expect(
            performing: { _ = try TieredTally(candidates: ["a", "b"], ballots: [["a"], ["b", "zz"]]) },
            throws: { ($0 as? PlacesError)?.message.contains("ballots[1]") == true && ($0 as? PlacesError)?.message.contains("'zz'") == true }
        )
    }

    @Test(.timeLimit(.minutes(1)))
    func aHundredCandidatesAndTenThousandBallots() throws {
        var random = SplitMix64(seed: 1)
        let candidates = (0..<100).map { "place-\($0)" }
        let ballots = (0..<10_000).map { _ in Array(candidates.shuffled(using: &random).prefix(Int(random.next() % 101))) }
        let result = try TieredTally(candidates: candidates, ballots: ballots).result(seed: [])
        #expect(result.ranking.count == 100)
        #expect(Set(result.ranking).count == 100)
    }
}
