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
