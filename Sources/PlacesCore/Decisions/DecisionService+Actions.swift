import Foundation

/// What changes a decision: each public function reads it, checks who asks and what they sent, decides through
/// `DecisionStages`, and writes what that answered (`act`), in that order.
extension DecisionService {
    /// Casts or replaces the caller's ballot (participants of an active tiered decision). The ballot that makes
    /// every participant voted completes the decision, in the same transaction.
    public func vote(_ caller: User, id: String, _ ballot: CastBallot) async throws -> DecisionView {
        // One read of the decision with its ballots; a participant who is still a member of its group needs no other.
        let read = try await readable(caller, existing(id))
        guard read.decision.participants.contains(caller.id) else { throw PlacesError.forbidden("only the decision's participants vote") }
        guard read.decision.method == .tiered else {
            throw PlacesError(.conflict, "only tiered decisions take ballots; this one is \(read.decision.method.rawValue)")
        }
        let ranking = try DecisionService.ranking(ballot.ranking, candidates: read.decision.survivors)
        // The answer shows the decision as the save left it, without reading it again.
        return try await view(try await act(.ballot(voter: caller.id, ranking: ranking), on: read), for: caller)
    }

    /// Gives or changes the caller's answers in the decision's swipe round, all or nothing (participants, while the
    /// round is open). The answers that make everyone done end the round, in the same transaction. A place that is no
    /// candidate is bad input, naming `answers`.
    public func swipe(_ caller: User, id: String, _ answers: SwipeAnswers) async throws -> DecisionView {
        try await swipe(caller, id: id, answers) { .invalid("answers", "place \(PlacesError.quoted($0)) is not one of the decision's candidates") }
    }

    /// Gives or changes the caller's answer on one place (`PUT …/swipes/{placeId}`): a place that is no candidate is
    /// not found.
    public func swipe(_ caller: User, id: String, placeID: String, answer: SwipeAnswer) async throws -> DecisionView {
        try await swipe(caller, id: id, SwipeAnswers(answers: [(placeID, answer)])) {
            .notFound("place \(PlacesError.quoted($0)) is not one of the decision's candidates")
        }
    }

    private func swipe(
        _ caller: User,
        id: String,
        _ answers: SwipeAnswers,
        unknown: (String) -> PlacesError
    ) async throws -> DecisionView {
        let read = try await readable(caller, existing(id))
        guard read.decision.participants.contains(caller.id) else { throw PlacesError.forbidden("only the decision's participants answer") }
        var given: [String: SwipeAnswer] = [:]
        for (placeID, answer) in answers.answers {
            guard read.decision.candidates.contains(placeID) else { throw unknown(placeID) }
            guard given.updateValue(answer, forKey: placeID) == nil else {
                throw PlacesError.invalid("answers", "place \(PlacesError.quoted(placeID)) is answered twice")
            }
        }
        return try await view(try await act(.swipe(voter: caller.id, answers: given), on: read), for: caller)
    }

    /// Ends an active decision now (admins): an open swipe round ends (only the round), a tiered decision is counted, a
    /// scheduled random one is drawn.
    public func close(_ caller: User, id: String) async throws -> DecisionView {
        try await view(try await act(.close, on: try await administered(caller, id)), for: caller)
    }

    /// Cancels an active decision (admins): it ends `closed`, without a result.
    public func cancel(_ caller: User, id: String) async throws -> DecisionView {
        try await view(try await act(.cancel, on: try await administered(caller, id)), for: caller)
    }

    /// Picks the winner of a manual decision (admins), which completes it.
    public func pick(_ caller: User, id: String, placeID: String?) async throws -> DecisionView {
        let read = try await administered(caller, id)
        guard read.decision.method == .manual else { throw PlacesError(.conflict, "only a manual decision is decided by a pick") }
        guard let placeID = try TextRules.text(placeID, field: "placeId", limit: 100) else {
            throw PlacesError.invalid("placeId", "placeId is required")
        }
        guard read.decision.candidates.contains(placeID) else {
            throw PlacesError.invalid("placeId", "place \(PlacesError.quoted(placeID)) is not one of the candidates")
        }
        return try await view(try await act(.pick(placeID: placeID, by: caller), on: read), for: caller)
    }

    /// Takes someone who left a group (or was removed from it) out of the group's open decisions: they are no longer
    /// participants, their ballot is withdrawn and the decision records their departure; a tiered decision in which
    /// everyone who remains has voted completes. Ended decisions keep their ballots as they were.
    public func memberLeft(groupID: String, userID: String) async throws {
        for id in try await repository.activeDecisions(groupID: groupID, participant: userID) {
            try await act(.withdraw([userID]), on: try await existing(id))
        }
    }

    /// Applies what is due in every decision that needs it (the server's background task runs this, so nothing waits
    /// for a reader): a deadline passed (count, draw or expire), a reminder an hour before it, a participant who left
    /// while their withdrawal was interrupted, a count that everyone's ballots allow when its follow-up was. Answers
    /// how many decisions it looked at.
    @discardableResult
    public func settleDue() async throws -> Int {
        let due = try await repository.activeDecisions(dueBy: clock().addingTimeInterval(DecisionStages.reminderLead))
        for id in due {
            guard let read = try await repository.state(decisionID: id) else { continue }
            try await act(.settle, on: read)
        }
        return due.count
    }

    // MARK: - Deciding and writing

    /// Does `action` to the decision read as `read`: decides through `DecisionStages`, then saves what it decided in one
    /// transaction of the repository's, with the notifications it announces. When another change was saved in between,
    /// it reads the decision again and decides again. Answers the state as saved; throws the action's refusal after
    /// saving what was due anyway (a deadline that passed, say).
    @discardableResult
    func act(_ action: DecisionStages.Action, on read: DecisionState) async throws -> DecisionState {
        let facts = try await facts(read.decision)
        let now = clock()
        var read = read
        var action = action
        for _ in 0..<DecisionService.maximumTries {
            let step = try DecisionStages.next(read, action, now: now, facts: facts)
            var after = step.state
            after.notifications = try await notifications(step.announcements, of: after.decision, names: facts.names, now: now)
            guard after.decision != read.decision || after.ballots != read.ballots || after.swipes != read.swipes
                || !after.notifications.isEmpty
            else {
                if let refusal = step.refusal { throw refusal }
                return after
            }
            guard let saved = try await repository.save(after, replacing: read) else {
                read = try await existing(read.decision.id)
                continue
            }
            if let refusal = step.refusal { throw refusal }
            after.version = saved.version
            after.decisionVersion = saved.decisionVersion
            after.notifications = []
            // Two last ballots (or answers) saved at once each found someone else still to vote; the one saved second
            // learns from its save that everyone has, and settles the decision (reading it again, as any change does).
            guard DecisionStages.everyoneVoted(after.decision, voters: saved.voters)
                || DecisionStages.everyoneAnswered(after.decision, answered: saved.answered)
            else { return after }
            read = try await existing(read.decision.id)
            action = .settle
        }
        throw PlacesError(.unavailable, "the decision is changing too often to save this; try again", cause: .decisionBusy)
    }

    /// How many times a change is decided again when others keep saving the decision first.
    static let maximumTries = 50

    /// What a transition of `decision` may need: the candidates' names, their scores for a weighted draw, and whether they
    /// are open at the visit time.
    private func facts(_ decision: Decision) async throws -> DecisionStages.Facts {
        let summaries = try await places.summaries(decision.candidates)
        // A place deleted since weighs the prior's 3.
        let weights = decision.method == .random && decision.weighted
            ? Dictionary(uniqueKeysWithValues: decision.candidates.map { ($0, summaries[$0]?.rating.score ?? RatingAggregate.priorMean) })
            : nil
        let open = decision.visitAt.map { OpenStatus.of(summaries, at: $0) } ?? [:]
        return DecisionStages.Facts(
            names: summaries.mapValues(\.name),
            weights: weights,
            openAtVisit: open.compactMapValues { $0 == .unknown ? nil : $0 == .open }
        )
    }

    /// The notifications of `announcements`, for those of the participants who want them (their settings are read only
    /// when there is something to say).
    private func notifications(
        _ announcements: [DecisionStages.Announcement],
        of decision: Decision,
        names: [String: String],
        now: Date
    ) async throws -> [UserNotification] {
        guard !announcements.isEmpty else { return [] }
        let audience = try await notifier.audience(decision.participants)
        return announcements.flatMap { announcement in
            switch announcement {
            case .completed(let result):
                let title = decision.title.map { "“\($0)”" } ?? "The decision"
                let outcome = result.winner.map { "is decided: \(names[$0] ?? $0)" } ?? "ended without a winner: no place survived the swipe round"
                return audience.notifications(
                    .decisionCompleted,
                    message: "\(title) \(outcome)",
                    subject: .init(groupId: decision.groupId, decisionId: decision.id, placeId: result.winner),
                    now: now
                )
            case .reminder(let waiting):
                let title = decision.title.map { "“\($0)”" } ?? "a decision"
                return audience.notifications(
                    .decisionReminder,
                    message: "Voting on \(title) ends within the hour and you have not voted",
                    subject: .init(groupId: decision.groupId, decisionId: decision.id),
                    now: now,
                    only: waiting
                )
            }
        }
    }

    /// The decision, when the caller runs it.
    private func administered(_ caller: User, _ id: String) async throws -> DecisionState {
        let state = try await readable(caller, existing(id))
        guard try await isAdmin(caller, of: state.decision) else {
            throw PlacesError.forbidden(
                state.decision.groupId == nil ? "only the decision's starter may do this" : "only the group's admins may do this"
            )
        }
        return state
    }

    /// A ranking from a ballot body: candidate ids, best first, each at most once, at least one.
    static func ranking(_ ids: [String], candidates: [String]) throws(PlacesError) -> [String] {
        guard !ids.isEmpty else { throw .invalid("ranking", "rank at least one candidate") }
        let known = Set(candidates)
        var ranking: [String] = []
        for id in ids {
            guard known.contains(id) else { throw .invalid("ranking", "place \(PlacesError.quoted(id)) is not a candidate") }
            guard !ranking.contains(id) else { throw .invalid("ranking", "place \(PlacesError.quoted(id)) is ranked twice") }
            ranking.append(id)
        }
        return ranking
    }
}
