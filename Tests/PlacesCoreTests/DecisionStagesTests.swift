import Foundation
import Testing

@testable import PlacesCore

/// A decision's transitions, without a database: what is due happens first, whatever the action.
@Suite("Decision stages")
struct DecisionStagesTests {
    static let start = Date(timeIntervalSince1970: 1_800_000_000)
    static let facts = DecisionStages.Facts(names: ["a": "Tasca", "b": "Cantina"], weights: nil)

    static func state(_ method: Decision.Method = .tiered, deadline: TimeInterval? = 3_600, ballots: [String: [String]] = [:]) -> DecisionState {
        let decision = Decision(
            id: "d-1", groupId: "g-1", createdBy: "u-ann", title: nil, method: method, status: .active, candidates: ["a", "b"],
            participants: ["u-ann", "u-bob", "u-cy"], weighted: false, scheduled: method == .random, seed: 7,
            deadline: deadline.map(start.addingTimeInterval), visitDate: nil, createdAt: start
        )
        let cast = ballots.sorted { $0.key < $1.key }.map { Ballot(userId: $0.key, ranking: $0.value, castAt: start, updatedAt: start) }
        return DecisionState(decision: decision, ballots: cast)
    }

    @Test func aBallotAfterTheDeadlineSavesTheEndingAndIsRefused() throws {
        let read = Self.state(ballots: ["u-ann": ["b"]])
        let step = try DecisionStages.next(read, .ballot(voter: "u-bob", ranking: ["a"]), now: Self.start.addingTimeInterval(3_601), facts: Self.facts)
        #expect(step.state.decision.status == .completed)
        #expect(step.state.decision.result?.endedBy == .deadline && step.state.decision.result?.winner == "b")
        #expect(step.state.ballots.map(\.userId) == ["u-ann"], "the late ballot is not counted")
        #expect(step.refusal?.code == .conflict)
        #expect(step.announcements == [.completed(try #require(step.state.decision.result))])
    }

    @Test func theLastBallotCountsAndAnEarlierOneDoesNot() throws {
        let read = Self.state(deadline: nil, ballots: ["u-ann": ["b"]])
        let early = try DecisionStages.next(read, .ballot(voter: "u-bob", ranking: ["a", "b"]), now: Self.start, facts: Self.facts)
        #expect(early.state.decision.status == .active && early.refusal == nil && early.announcements.isEmpty)
        let last = try DecisionStages.next(early.state, .ballot(voter: "u-cy", ranking: ["a"]), now: Self.start, facts: Self.facts)
        #expect(last.state.decision.result?.endedBy == .allVoted && last.state.decision.result?.winner == "a")
        #expect(last.state.decision.result?.standings.first?.name == "Tasca")
    }

    @Test func theReminderGoesOnceToThoseWhoHaveNotVoted() throws {
        let read = Self.state(ballots: ["u-ann": ["b"]])
        let near = Self.start.addingTimeInterval(3_600 - 30 * 60)
        let reminded = try DecisionStages.next(read, .settle, now: near, facts: Self.facts)
        #expect(reminded.announcements == [.reminder(waiting: ["u-bob", "u-cy"])])
        #expect(reminded.state.decision.reminderSentAt == near)
        let again = try DecisionStages.next(reminded.state, .settle, now: near.addingTimeInterval(60), facts: Self.facts)
        #expect(again.announcements.isEmpty && again.state.decision == reminded.state.decision)
    }

    @Test func withdrawingTheLastWhoHadNotVotedCountsTheRest() throws {
        var read = Self.state(ballots: ["u-ann": ["b"], "u-bob": ["b", "a"]])
        read.formerMembers = ["u-cy"]
        // Any action, even nothing but what is due, withdraws the participants the read found gone from the group.
        let step = try DecisionStages.next(read, .settle, now: Self.start, facts: Self.facts)
        #expect(step.state.decision.participants == ["u-ann", "u-bob"])
        #expect(step.state.decision.departures.map(\.userId) == ["u-cy"] && step.state.decision.departures.first?.ballotWithdrawn == false)
        #expect(step.state.decision.result?.endedBy == .allVoted && step.state.decision.result?.winner == "b")
    }

    @Test func aDeadlineWithNothingToCountExpiresAndACloseWithNothingIsRefused() throws {
        let expired = try DecisionStages.next(Self.state(), .settle, now: Self.start.addingTimeInterval(7_200), facts: Self.facts)
        #expect(expired.state.decision.status == .expired && expired.state.decision.result == nil && expired.announcements.isEmpty)
        let closed = try DecisionStages.next(Self.state(deadline: nil), .close, now: Self.start, facts: Self.facts)
        #expect(closed.refusal?.code == .conflict && closed.state.decision == Self.state(deadline: nil).decision)
        let manual = try DecisionStages.next(Self.state(.manual), .close, now: Self.start, facts: Self.facts)
        #expect(manual.refusal?.message == "a manual decision ends when an admin picks a place")
    }

    @Test func aScheduledDrawHappensAtItsDeadlineFromTheStoredSeed() throws {
        let step = try DecisionStages.next(Self.state(.random), .settle, now: Self.start.addingTimeInterval(3_600), facts: Self.facts)
        let result = try #require(step.state.decision.result)
        #expect(result.method == .random && result.seed == "7" && result.endedBy == .deadline)
        let again = try DecisionStages.next(Self.state(.random), .close, now: Self.start, facts: Self.facts)
        #expect(again.state.decision.result?.winner == result.winner, "the same seed draws the same place")
    }

    @Test func aBallotNamingAPlaceTheRoundRemovedIsRefusedEvenWhenCheckedBeforeItEnded() throws {
        var read = Self.state(deadline: nil)
        read.decision.swipe = SwipeRule(vetoes: 1, minYes: nil, deadline: nil)
        read.decision.round = RoundResult(survivors: ["a"], counts: [], vetoes: 1, minYes: nil, participants: 3, reasoning: "")
        let step = try DecisionStages.next(read, .ballot(voter: "u-bob", ranking: ["a", "b"]), now: Self.start, facts: Self.facts)
        #expect(step.refusal?.code == .invalidInput && step.refusal?.field == "ranking" && step.state.ballots.isEmpty)
    }
}
