import Foundation
import Testing

@testable import PlacesCore

/// How a decision's feed rows read on its stream, and how a read cut by its limit keeps a save whole.
@Suite("Live events")
struct LiveEventsTests {
    static let now = Date(timeIntervalSince1970: 1_800_000_000)

    static func user(_ name: String) -> User {
        User(id: "u-\(name)", username: name, email: nil, phone: nil, passwordHash: "", createdAt: now, updatedAt: now)
    }

    static func view(
        status: Decision.Status,
        ballots: [String],
        swipes: [Swipe] = [],
        round: SwipeRule? = nil,
        for reader: String
    ) throws -> DecisionView {
        let people = ["ana", "ben"].map(user)
        var decision = Decision(
            id: "d-1",
            groupId: nil,
            createdBy: "u-ana",
            title: nil,
            method: .tiered,
            status: status,
            candidates: ["p1", "p2"],
            participants: people.map(\.id),
            weighted: false,
            scheduled: false,
            seed: 1,
            deadline: nil,
            visitDate: nil,
            createdAt: now
        )
        decision.swipe = round
        return try DecisionView.make(
            decision,
            ballots: ballots.map { Ballot(userId: $0, ranking: $0 == "u-ana" ? ["p1"] : ["p2", "p1"], castAt: now, updatedAt: now) },
            swipes: swipes,
            for: user(reader),
            people: Dictionary(uniqueKeysWithValues: people.map { ($0.id, PublicUser($0)) }),
            names: [:]
        )
    }

    static func row(_ position: Int64, _ kind: FeedEvent.Kind, detail: String?, version: Int64?, subject: String = "d-1") -> FeedEvent {
        FeedEvent(position: FeedPosition(transaction: position, row: position), kind: kind, subject: subject, detail: detail, version: version)
    }

    static func names(_ rendered: LiveStream.Rendered) -> [String] {
        rendered.messages.compactMap { if case .event(_, let name, _) = $0 { name } else { nil } }
    }

    static func ids(_ rendered: LiveStream.Rendered) -> [String] {
        rendered.messages.compactMap { if case .event(let id, _, _) = $0 { id } else { nil } }
    }

    @Test func aBallotNamesItsVoterAndNothingOfItsRanking() throws {
        let view = try Self.view(status: .active, ballots: ["u-ana"], for: "u-ben")
        let rendered = try LiveService.decisionMessages(
            [Self.row(10, .decision, detail: "active", version: 1), Self.row(11, .ballot, detail: "u-ana", version: 1)],
            generation: "abc",
            decision: try ReaderDecision(view)
        )
        #expect(Self.names(rendered) == ["ballot"])
        #expect(Self.ids(rendered) == ["abc-11-11"])
        #expect(!rendered.final)
        guard case .event(_, _, let data) = rendered.messages[0] else { return }
        #expect(data.contains(#""voter":{"id":"u-ana","username":"ana"}"#))
        #expect(!data.contains("ranking") && !data.contains("myBallot"), "ben sees that ana voted, not what: \(data)")
    }

    @Test func theSaveThatEndsItGivesItsBallotsThenTheEndWhoseIdIsAfterThemAndNothingFollows() throws {
        let view = try Self.view(status: .completed, ballots: ["u-ana", "u-ben"], for: "u-ana")
        let rendered = try LiveService.decisionMessages(
            [
                Self.row(20, .decision, detail: "active", version: 2),
                Self.row(21, .decision, detail: "completed", version: 3), Self.row(22, .ballot, detail: "u-ben", version: 3),
                Self.row(23, .decision, detail: "completed", version: 4),
            ],
            generation: "abc",
            decision: try ReaderDecision(view)
        )
        #expect(Self.names(rendered) == ["update", "ballot", "ended"])
        #expect(Self.ids(rendered) == ["abc-20-20", "abc-22-22", "abc-22-22-end"])
        #expect(rendered.final)
    }

    @Test(arguments: [
        // status, ballots, reader, with a swipe round
        (Decision.Status.active, [String](), "u-ana", false), (.active, ["u-ana"], "u-ana", false), (.active, ["u-ana"], "u-ben", false),
        (.active, ["u-ana", "u-ben"], "u-ben", false), (.completed, ["u-ana", "u-ben"], "u-ana", false),
        (.active, [], "u-ana", true), (.active, [], "u-ben", true), (.active, [], "u-cy", true),
    ])
    func theStreamsOfADeliveryShareTheDecisionsJSONAndEachReadsItAsItsOwnViewEncodedWhole(
        status: Decision.Status,
        ballots: [String],
        reader: String,
        inRound: Bool
    ) async throws {
        let swipes = [Swipe(userId: "u-ana", placeId: "p1", answer: .veto, updatedAt: Self.now), Swipe(userId: "u-ben", placeId: "p2", answer: .yes, updatedAt: Self.now)]
        let round = inRound ? SwipeRule(vetoes: 2, minYes: nil, deadline: nil) : nil
        let reads = SharedReads()
        // Other readers encode the shared parts first, so this reader's JSON is spliced into them.
        for other in ["u-ana", "u-ben", "u-cy"] where other != reader {
            let view = try Self.view(status: status, ballots: ballots, swipes: swipes, round: round, for: other)
            _ = try await ReaderDecision(view, sharing: reads)
        }
        let view = try Self.view(status: status, ballots: ballots, swipes: swipes, round: round, for: reader)
        let shared = try await ReaderDecision(view, sharing: reads)
        let whole = try ReaderDecision(view)
        #expect(String(decoding: shared.json, as: UTF8.self) == String(decoding: whole.json, as: UTF8.self))
        let event = DecisionEvent(version: 3, voter: PublicUser(Self.user("ana")))
        #expect(try shared.eventData(event) == LiveService.data(WholeEvent(version: 3, voter: PublicUser(Self.user("ana")), decision: view)))
        #expect(try shared.eventData(DecisionEvent()) == LiveService.data(WholeEvent(decision: view)))
    }

    /// A decision stream's event as one value, to compare with the spliced one.
    struct WholeEvent: Encodable {
        var version: Int64?
        var voter: PublicUser?
        var decision: DecisionView
    }

    @Test func sortedObjectsMergeAsTheirMembersEncodedTogether() throws {
        func merged(_ base: String, _ overlay: String) throws -> String {
            String(decoding: try SortedJSONObject.merge(Array(base.utf8)[...], Array(overlay.utf8)[...]), as: UTF8.self)
        }
        #expect(try merged(#"{"a":1,"c":"x,}]\"{","e":[1,{"f":2}]}"#, #"{"b":true,"d":null}"#) == #"{"a":1,"b":true,"c":"x,}]\"{","d":null,"e":[1,{"f":2}]}"#)
        #expect(try merged(#"{"a":{"x":1,"z":3},"b":2}"#, #"{"a":{"y":2},"b":[5]}"#) == #"{"a":{"x":1,"y":2,"z":3},"b":[5]}"#)
        #expect(try merged("{}", #"{"a":1}"#) == #"{"a":1}"#)
        #expect(try merged(#"{"a":1}"#, "{}") == #"{"a":1}"#)
        #expect(try merged("{}", "{}") == "{}")
        #expect(throws: PlacesError.self) { try merged(#"{"a":1"#, "{}") }
        #expect(throws: PlacesError.self) { try merged("[1]", "{}") }
    }

    @Test func aReadCutByItsLimitLeavesASaveItCutToTheNextRead() {
        var read = FeedEvents(
            events: [
                Self.row(1, .ballot, detail: "u-ana", version: 1), Self.row(2, .decision, detail: "completed", version: 2),
                Self.row(3, .ballot, detail: "u-ben", version: 2),
            ],
            through: FeedPosition(transaction: 3, row: 3),
            generation: "abc",
            prunedBelow: 0,
            pending: true
        )
        LiveFeed.keepSavesWhole(&read, limit: 3)
        #expect(read.events.map(\.position.row) == [1])
        #expect(read.through == FeedPosition(transaction: 1, row: 1))
        // Under the limit, nothing is left out.
        var whole = read
        whole.events.append(Self.row(2, .decision, detail: "completed", version: 2))
        LiveFeed.keepSavesWhole(&whole, limit: 3)
        #expect(whole.events.count == 2)
    }
}
