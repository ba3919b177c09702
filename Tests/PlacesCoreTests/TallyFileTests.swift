import Testing

@testable import PlacesCore

@Suite("Voting: tally files")
struct TallyFileTests {
    private func parse(_ text: String) throws -> TallyFile { try TallyFile.parse(Array(text.utf8)) }

    @Test func readsCandidatesBallotsAndWeights() throws {
        let file = try parse(#"{"candidates": ["a", "b", "c"], "ballots": [["b", "a"], [], ["c"]], "weights": {"a": 1, "b": 2.5, "c": 0.5}}"#)
        #expect(file.candidates == ["a", "b", "c"])
        #expect(file.ballots == [["b", "a"], [], ["c"]])
        #expect(file.weights == ["a": 1, "b": 2.5, "c": 0.5])
    }

    @Test func aRoundIsCountedByTheRuleTheServerUses() throws {
        let file = try parse(
            #"{"candidates": ["c", "b", "a", "d"], "round": {"vetoes": 1, "minYes": 2, "swipes": [{"yes": ["a", "b"], "veto": ["c"]}, {"yes": ["a"], "no": ["b"]}, {"yes": ["a", "b"]}]}}"#
        )
        let round = try #require(file.round).result(names: ["a": "Alma"])
        #expect(round.survivors == ["a", "b"])
        #expect(round.counts.map(\.removedFor) == [nil, nil, .vetoed, .unanswered])
        #expect(round.counts[1].yes == 2 && round.counts[1].no == 1)
        #expect(round.reasoning == "The swipe round (3 participants; 1 veto each, at least 2 yes to stay) kept 2 of 4 candidates. Removed: c was vetoed; nobody answered d.")
    }

    @Test func ballotsAndWeightsMayBeLeftOut() throws {
        let file = try parse(#"{"candidates": ["a"]}"#)
        #expect(file.ballots.isEmpty)
        #expect(file.weights == nil)
    }

    @Test(
        arguments: [
            ("", "file", "empty"),
            ("{", "file", "not valid JSON"),
            ("[1, 2]", "file", "JSON object"),
            (#"{"candidates": ["a"], "voters": []}"#, "voters", "unknown field"),
            (#"{"ballots": []}"#, "candidates", "no candidates"),
            (#"{"candidates": []}"#, "candidates", "empty"),
            (#"{"candidates": "a"}"#, "candidates", "list of ids"),
            (#"{"candidates": ["a", "b", "a"]}"#, "candidates", "'a' is listed twice"),
            (#"{"candidates": ["a", 7]}"#, "candidates", "candidates[1] must be a place id"),
            (#"{"candidates": ["a", ""]}"#, "candidates", "empty id"),
            (#"{"candidates": ["a", "b"], "ballots": [["a"], ["b", "x"]]}"#, "ballots", "ballots[1] names 'x', which is not a candidate"),
            (#"{"candidates": ["a", "b"], "ballots": [["a", "b", "a"]]}"#, "ballots", "ballots[0] names 'a' more than once"),
            (#"{"candidates": ["a", "b"], "ballots": [["a", null]]}"#, "ballots", "ballots[0][1] must be a place id"),
            (#"{"candidates": ["a", "b"], "ballots": ["a"]}"#, "ballots", "ballots[0] must be a list"),
            (#"{"candidates": ["a", "b"], "ballots": {"a": 1}}"#, "ballots", "list of rankings"),
            (#"{"candidates": ["a", "b"], "weights": {"a": 0, "b": 1}}"#, "weights", "greater than 0"),
            (#"{"candidates": ["a", "b"], "weights": {"a": -1, "b": 1}}"#, "weights", "greater than 0"),
            (#"{"candidates": ["a", "b"], "weights": {"a": "2", "b": 1}}"#, "weights", "must be a number"),
            (#"{"candidates": ["a", "b"], "weights": {"a": 1, "z": 1}}"#, "weights", "'z', which is not a candidate"),
            (#"{"candidates": ["a", "b"], "weights": [1, 2]}"#, "weights", "object"),
            (#"{"candidates": ["a", "b"], "round": [1]}"#, "round", "must be an object"),
            (#"{"candidates": ["a", "b"], "round": {"vetos": 1, "swipes": []}}"#, "round.vetos", "unknown field"),
            (#"{"candidates": ["a", "b"], "round": {"vetoes": 1}}"#, "round.swipes", "one entry per participant"),
            (#"{"candidates": ["a", "b"], "round": {"vetoes": 11, "swipes": []}}"#, "round.vetoes", "from 0 to 10"),
            (#"{"candidates": ["a", "b"], "round": {"minYes": 2, "swipes": [{"yes": ["a"]}]}}"#, "round.minYes", "number of participants"),
            (#"{"candidates": ["a", "b"], "round": {"swipes": [{"yes": ["a"], "maybe": ["b"]}]}}"#, "round.swipes", "expected yes, no and veto"),
            (#"{"candidates": ["a", "b"], "round": {"swipes": [{"yes": ["a"], "no": ["a"]}]}}"#, "round.swipes", "answers 'a' more than once"),
            (#"{"candidates": ["a", "b"], "round": {"swipes": [{"yes": ["x"]}]}}"#, "round.swipes", "'x', which is not a candidate"),
            (#"{"candidates": ["a", "b"], "round": {"vetoes": 1, "swipes": [{"veto": ["a", "b"]}]}}"#, "round.swipes", "casts 2 vetoes"),
        ]
    )
    func badFilesAreClearErrors(text: String, field: String, words: String) {
        #expect(
            performing: { _ = try parse(text) },
            throws: { error in
                guard let error = error as? PlacesError else { return false }
                return error.code == .invalidInput && error.field == field && error.message.contains(words)
            }
        )
    }
}
