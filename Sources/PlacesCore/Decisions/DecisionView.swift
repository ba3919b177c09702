import Foundation

/// A decision as one person sees it: results only after they voted or after the end (no bandwagon), the seed only
/// after the end, and who has not voted yet.
public struct DecisionView: Sendable, Encodable {
    /// A candidate place.
    public struct Candidate: Sendable, Encodable {
        public var placeId: String
        /// Absent when the place was deleted since.
        public var name: String?
        /// When the decision has a visit time: whether the place is open then by its hours now (`unknown` without
        /// hours).
        public var openStatus: OpenStatus?
    }

    /// A participant and whether they voted.
    public struct Participant: Sendable, Encodable {
        public var user: PublicUser
        public var hasVoted: Bool
    }

    /// A participant who left the group while the decision was open.
    public struct Departed: Sendable, Encodable {
        public var user: PublicUser
        /// When they stopped taking part.
        public var leftAt: Date
        /// True when their ballot was taken out of the count.
        public var ballotWithdrawn: Bool
    }

    /// The swipe round as the caller may see it: the rule, who is done (never what anyone answered), and the caller's
    /// own answers.
    public struct Round: Sendable, Encodable {
        public var vetoes: Int
        public var minYes: Int?
        public var deadline: Date?
        /// True while answers are taken.
        public var open: Bool
        /// Usernames of the participants who have answered every candidate.
        public var answered: [String]
        /// The caller's own answers, by place id (absent when they are not a participant).
        public var mySwipes: [String: SwipeAnswer]?
        /// The vetoes the caller has left (absent when they are not a participant).
        public var vetoesLeft: Int?
    }

    public var id: String
    public var groupId: String?
    public var createdBy: String
    public var title: String?
    public var method: Decision.Method
    public var status: Decision.Status
    public var candidates: [Candidate]
    public var participants: [Participant]
    /// Usernames of the participants the decision waits for while active: in its swipe round, those who have not
    /// answered every candidate; then (tiered) those who have not voted.
    public var waitingFor: [String]
    /// The swipe round, when the decision has one; its counts are in `result.round` (or `roundResult` before the end)
    /// once it ended, never before.
    public var swipe: Round?
    /// The round's result once it ended, while the method goes on (at the end it is the result's `round`).
    public var roundResult: RoundResult?
    /// Participants who left the group while the decision was open; they no longer take part (absent when none).
    public var departed: [Departed]?
    public var weighted: Bool
    public var scheduled: Bool
    public var deadline: Date?
    public var visitDate: String?
    /// When the group means to go, if the decision says (instead of `visitDate`).
    public var visitAt: Date?
    /// Candidates from the participants' locations: the usernames of those it went without, since they share none
    /// (absent otherwise). Nobody's location, nor any distance from it, is ever shown.
    public var meetWithout: [String]?
    public var createdAt: Date
    public var endedAt: Date?
    /// The seed, as decimal text, once the decision ended (before, it would tell a draw in advance).
    public var seed: String?
    public var ballotCount: Int
    /// The caller's own ballot, when they cast one.
    public var myBallot: [String]?
    /// True when the caller may see the count: they voted, or the decision ended.
    public var tallyVisible: Bool
    /// The result, once completed.
    public var result: DecisionResult?
    /// The count so far (tiered, active), for a participant who has voted.
    public var provisional: DecisionResult?

    /// The view for `caller`, naming people from `people` (the state's: participants and those who departed) and
    /// places from `names`.
    static func make(
        _ decision: Decision,
        ballots: [Ballot],
        swipes: [Swipe],
        for caller: User,
        people: [String: PublicUser],
        names: [String: String],
        openAtVisit: [String: OpenStatus] = [:]
    ) throws -> DecisionView {
        let voted = Set(ballots.map(\.userId))
        var participants = decision.participants.compactMap { id in
            people[id].map { Participant(user: $0, hasVoted: voted.contains(id)) }
        }
        participants.sort { $0.user.username.lowercased() < $1.user.username.lowercased() }
        let departed = decision.departures.compactMap { departure in
            people[departure.userId].map {
                Departed(user: $0, leftAt: departure.at, ballotWithdrawn: departure.ballotWithdrawn)
            }
        }
        let ended = decision.status != .active
        let done = DecisionStages.done(decision, answered: DecisionStages.answered(swipes))
        let isParticipant = decision.participants.contains(caller.id)
        let mySwipes = Dictionary(swipes.filter { $0.userId == caller.id }.map { ($0.placeId, $0.answer) }, uniquingKeysWith: { _, last in last })
        let round = decision.swipe.map { rule in
            Round(
                vetoes: rule.vetoes,
                minYes: rule.minYes,
                deadline: rule.deadline,
                open: decision.inRound,
                answered: participants.filter { done.contains($0.user.id) }.map(\.user.username),
                mySwipes: isParticipant ? mySwipes : nil,
                vetoesLeft: isParticipant ? max(0, rule.vetoes - mySwipes.values.filter { $0 == .veto }.count) : nil
            )
        }
        let waitingFor: [String] =
            if ended { [] }
            else if decision.inRound { participants.filter { !done.contains($0.user.id) }.map(\.user.username) }
            else if decision.method == .tiered { participants.filter { !$0.hasVoted }.map(\.user.username) }
            else { [] }
        let myBallot = ballots.first { $0.userId == caller.id }?.ranking
        var provisional: DecisionResult?
        if !ended, !decision.inRound, decision.method == .tiered, myBallot != nil, !ballots.isEmpty {
            provisional = try DecisionTally.result(decision, ballots: ballots, endedBy: .adminClosed, names: names, weights: nil)
        }
        return DecisionView(
            id: decision.id,
            groupId: decision.groupId,
            createdBy: decision.createdBy,
            title: decision.title,
            method: decision.method,
            status: decision.status,
            candidates: decision.candidates.map { Candidate(placeId: $0, name: names[$0], openStatus: decision.visitAt == nil ? nil : openAtVisit[$0] ?? .unknown) },
            participants: participants,
            waitingFor: waitingFor,
            swipe: round,
            roundResult: ended ? nil : decision.round,
            departed: departed.isEmpty ? nil : departed,
            weighted: decision.weighted,
            scheduled: decision.scheduled,
            deadline: decision.deadline,
            visitDate: decision.visitDate,
            visitAt: decision.visitAt,
            meetWithout: decision.meetWithout.isEmpty ? nil : decision.meetWithout.compactMap { people[$0]?.username },
            createdAt: decision.createdAt,
            endedAt: decision.endedAt,
            seed: ended ? String(decision.seed) : nil,
            ballotCount: ballots.count,
            myBallot: myBallot,
            tallyVisible: ended || myBallot != nil,
            result: decision.result,
            provisional: provisional
        )
    }
}
