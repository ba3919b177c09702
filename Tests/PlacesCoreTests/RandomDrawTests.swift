import Foundation
import Testing

@testable import PlacesCore

@Suite("Voting: SplitMix64 and random draws")
struct RandomDrawTests {
    @Test func splitMix64MatchesTheReferenceVectors() {
        var zero = SplitMix64(seed: 0)
        #expect(zero.next() == 0xE220_A839_7B1D_CDAF)
        #expect(zero.next() == 0x6E78_9E6A_A1B9_65F4)
        #expect(zero.next() == 0x06C4_5D18_8009_454F)
        // Vigna's splitmix64.c, seed 1234567.
        var other = SplitMix64(seed: 1_234_567)
        #expect(other.next() == 6_457_827_717_110_365_317)
        #expect(other.next() == 3_203_168_211_198_807_973)
        #expect(other.next() == 9_817_491_932_198_370_423)
    }

    @Test func unitDoublesAreTheTop53BitsAndStayBelowOne() {
        var a = SplitMix64(seed: 42)
        var b = SplitMix64(seed: 42)
        for _ in 0..<10_000 {
            let unit = a.nextUnitDouble()
            #expect(unit == Double(b.next() >> 11) / 9_007_199_254_740_992)
            #expect(unit >= 0 && unit < 1)
        }
    }

    /// The draw as the doc comment tells a person to do it, written out again here.
    private func byHand(_ weights: [(String, Double)], seed: UInt64) -> [String] {
        var remaining = weights.sorted { Array($0.0.utf8).lexicographicallyPrecedes(Array($1.0.utf8)) }
        var generator = SplitMix64(seed: seed)
        var order: [String] = []
        while !remaining.isEmpty {
            var total = 0.0
            for (_, weight) in remaining { total += weight }
            let roll = Double(generator.next() >> 11) * 0x1p-53 * total
            var cumulative = 0.0
            var pick = remaining.count - 1
            for (index, (_, weight)) in remaining.enumerated() {
                cumulative += weight
                if cumulative > roll {
                    pick = index
                    break
                }
            }
            order.append(remaining.remove(at: pick).0)
        }
        return order
    }

    @Test(arguments: [0, 1, 7, 123, 99_999, UInt64.max, 0x8000_0000_0000_0001] as [UInt64])
    func aWeightedDrawReRunsByHand(seed: UInt64) throws {
        let weights = [("p9", 2.1), ("p10", 5.4), ("gem-a", 0.25), ("Z", 3.0), ("p2", 3.45)]
        let draw = try RandomDraw(candidates: weights.map(\.0), weights: Dictionary(uniqueKeysWithValues: weights), weightedBy: "rating score")
        let result = draw.draw(seed: seed)
        let expected = byHand(weights, seed: seed)
        #expect(result.ranking == expected)
        #expect(result.winner == expected[0])
        #expect(result.seed == seed)
        #expect(result.tieBreak == .none)
        #expect(result.weights.map(\.placeId) == ["Z", "gem-a", "p10", "p2", "p9"])
        #expect(result.totalWeight == 2.1 + 5.4 + 0.25 + 3.0 + 3.45 || abs(result.totalWeight - 14.2) < 1e-9)
        var generator = SplitMix64(seed: seed)
        #expect(result.roll == generator.nextUnitDouble() * result.totalWeight)
        #expect(result.reasoning.contains("seed \(seed)"))
        #expect(result.reasoning.contains("rating score"))
        #expect(result.reasoning.contains(result.winner))
    }

    @Test func aUniformDrawReRunsByHand() throws {
        let ids = ["d", "b", "a", "c", "e", "f"]
        let draw = try RandomDraw(candidates: ids)
        for seed in 0..<200 as Range<UInt64> {
            #expect(draw.draw(seed: seed).ranking == byHand(ids.map { ($0, 1) }, seed: seed))
        }
    }

    @Test func equalCandidatesWinAboutEquallyOften() throws {
        let draw = try RandomDraw(candidates: ["a", "b", "c", "d"])
        var wins: [String: Int] = [:]
        for seed in 0..<4_000 as Range<UInt64> { wins[draw.draw(seed: seed).winner, default: 0] += 1 }
        #expect(wins.count == 4)
        for (id, count) in wins { #expect((850...1_150).contains(count), "\(id) won \(count) of 4000") }
    }

    @Test func weightsShiftTheOdds() throws {
        let draw = try RandomDraw(candidates: ["heavy", "light"], weights: ["heavy": 9, "light": 1])
        var heavy = 0
        for seed in 0..<2_000 as Range<UInt64> where draw.draw(seed: seed).winner == "heavy" { heavy += 1 }
        #expect((1_700...1_900).contains(heavy))
    }

    @Test func theSameSeedGivesTheSameDrawAndTheSeedIsEncodedAsText() throws {
        let draw = try RandomDraw(candidates: ["x", "y", "z"])
        let seed: UInt64 = 18_446_744_073_709_551_557
        #expect(draw.draw(seed: seed) == draw.draw(seed: seed))
        let json = String(decoding: try PlacesJSON.makeEncoder().encode(draw.draw(seed: seed)), as: UTF8.self)
        #expect(json.contains(#""seed":"18446744073709551557""#))
        #expect(json.contains(#""tieBreak":"none""#))
        #expect(json.contains(#""method":"random""#))
    }

    @Test func aSingleCandidateAlwaysWins() throws {
        let result = try RandomDraw(candidates: ["only"]).draw(seed: 5)
        #expect(result.winner == "only")
        #expect(result.ranking == ["only"])
    }

    @Test(
        arguments: [
            ([], nil, "candidates"),
            (["a", "a"], nil, "candidates"),
            (["a", ""], nil, "candidates"),
            (["a", "b"], ["a": 1], "weights"),
            (["a", "b"], ["a": 1, "b": 0], "weights"),
            (["a", "b"], ["a": 1, "b": -2], "weights"),
            (["a", "b"], ["a": 1, "b": .nan], "weights"),
            (["a", "b"], ["a": 1, "b": .infinity], "weights"),
            (["a", "b"], ["a": 1, "b": 1, "c": 1], "weights"),
            (["a", "b"], ["a": .greatestFiniteMagnitude, "b": .greatestFiniteMagnitude], "weights"),
        ] as [([String], [String: Double]?, String)]
    )
    func badInputIsAnInvalidInputError(candidates: [String], weights: [String: Double]?, field: String) {
        #expect(
            performing: { _ = try RandomDraw(candidates: candidates, weights: weights) },
            throws: { ($0 as? PlacesError)?.code == .invalidInput && ($0 as? PlacesError)?.field == field }
        )
    }
}
