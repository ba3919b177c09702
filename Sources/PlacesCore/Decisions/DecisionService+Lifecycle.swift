import Foundation

extension DecisionService {
    /// Casts or replaces the caller's ballot (participants of an active tiered decision). The ballot that makes
    /// every participant voted completes the decision, in the same transaction.
    public func vote(_ caller: User, id: String, _ ballot: CastBallot) async throws -> DecisionView {
        // One read of the decision with its ballots; a participant who is still a member of its group needs no other.
        let read = try await readable(caller, current(id))
        guard read.decision.participants.contains(caller.id) else { throw PlacesError.forbidden("only the decision's participants vote") }
        guard read.decision.method == .tiered else {
            throw PlacesError(.conflict, "only tiered decisions take ballots; this one is \(read.decision.method.rawValue)")
        }
        let ranking = try DecisionService.ranking(ballot.ranking, candidates: read.decision.candidates)
        let now = clock()
        let voter = caller.id
        let saved = try await change(id, known: read) { state in
            guard state.decision.status == .active else {
                throw PlacesError(.conflict, "the decision is \(state.decision.status.rawValue); ballots are no longer taken")
            }
            // They may have left the group since it was read.
            guard state.decision.participants.contains(voter) else { throw PlacesError.forbidden("only the decision's participants vote") }
            if let index = state.ballots.firstIndex(where: { $0.userId == voter }) {
                state.ballots[index].ranking = ranking
                state.ballots[index].updatedAt = now
            } else {
                state.ballots.append(Ballot(userId: voter, ranking: ranking, castAt: now, updatedAt: now))
            }
            // What the participants want to hear of the result, and the places' names for its explanation, are looked up
            // only when this ballot completes the decision.
            if Set(state.ballots.map(\.userId)).isSuperset(of: state.decision.participants) {
                let audience = try await notifier.audience(state.decision.participants)
                let names = try await names(state.decision.candidates)
                try DecisionService.complete(&state, endedBy: .allVoted, names: names, weights: nil, audience: audience, now: now)
            }
        }
        // Two last ballots saved at once each found someone else still to vote; the one saved second learns from its
        // save that nobody is left, and completes the decision (reading it again, as any change does).
        if saved.notYetVoted?.isEmpty == true, saved.state.decision.status == .active {
            return try await view(try await completeWhenEveryoneVoted(id, read: nil), for: caller)
        }
        // The answer shows the decision as the save left it, without reading it again.
        return try await view(saved.state, for: caller)
    }

    /// Ends an active decision now (admins): a tiered one is counted, a scheduled random one is drawn.
    public func close(_ caller: User, id: String) async throws -> DecisionView {
        let state = try await administered(caller, id)
        switch state.decision.method {
        case .tiered: try await end(state, by: .adminClosed, strict: true)
        case .random: try await end(state, by: .draw, strict: true)
        case .manual: throw PlacesError(.conflict, "a manual decision ends when an admin picks a place")
        }
        return try await view(caller, id: id)
    }

    /// Cancels an active decision (admins): it ends `closed`, without a result.
    public func cancel(_ caller: User, id: String) async throws -> DecisionView {
        let read = try await administered(caller, id)
        let now = clock()
        try await change(id, known: read) { state in
            guard state.decision.status == .active else {
                throw PlacesError(.conflict, "the decision is already \(state.decision.status.rawValue)")
            }
            state.decision.status = .closed
            state.decision.endedAt = now
        }
        return try await view(caller, id: id)
    }

    /// Picks the winner of a manual decision (admins), which completes it.
    public func pick(_ caller: User, id: String, placeID: String?) async throws -> DecisionView {
        let read = try await administered(caller, id)
        let decision = read.decision
        guard decision.method == .manual else { throw PlacesError(.conflict, "only a manual decision is decided by a pick") }
        guard let placeID = try TextRules.text(placeID, field: "placeId", limit: 100) else {
            throw PlacesError.invalid("placeId", "placeId is required")
        }
        guard decision.candidates.contains(placeID) else {
            throw PlacesError.invalid("placeId", "place \(PlacesError.quoted(placeID)) is not one of the candidates")
        }
        let audience = try await notifier.audience(decision.participants)
        let names = try await names(decision.candidates)
        let now = clock()
        let picker = caller
        try await change(id, known: read) { state in
            guard state.decision.status == .active else {
                throw PlacesError(.conflict, "the decision is already \(state.decision.status.rawValue)")
            }
            var result = DecisionTally.manual(state.decision, winner: placeID, pickedBy: picker.username, names: names)
            result.pickedBy = picker.id
            state.decision.result = result
            state.decision.status = .completed
            state.decision.endedAt = now
            state.notifications += DecisionService.completedNotifications(state.decision, result: result, names: names, audience: audience, now: now)
        }
        return try await view(caller, id: id)
    }

    /// What a decision's deadline asks for now: to end it, or to remind those who have not voted.
    enum DeadlineAction { case end, remind }

    func deadlineAction(_ decision: Decision) -> DeadlineAction? {
        guard decision.status == .active, let deadline = decision.deadline else { return nil }
        let now = clock()
        if deadline <= now { return .end }
        if decision.reminderSentAt == nil, deadline.timeIntervalSince(now) <= DecisionService.reminderLead { return .remind }
        return nil
    }

    /// Applies a passed deadline (count, draw or expire) and sends the reminder when the deadline is an hour away.
    /// Every read does it; so does the server's background task, so deadlines pass even when nobody looks.
    public func enforceDeadline(_ id: String) async throws {
        guard let state = try await repository.state(decisionID: id) else { return }
        try await enforceDeadline(state)
    }

    /// Applies the deadline of the decision as `state` shows it; true when that changed the decision.
    @discardableResult
    func enforceDeadline(_ read: DecisionState) async throws -> Bool {
        switch deadlineAction(read.decision) {
        case nil:
            return false
        case .end:
            try await end(read, by: .deadline, strict: false)
        case .remind:
            let audience = try await notifier.audience(read.decision.participants)
            let title = read.decision.title.map { "“\($0)”" } ?? "a decision"
            let now = clock()
            try await change(read.decision.id, known: read) { state in
                guard state.decision.status == .active, state.decision.reminderSentAt == nil else { return }
                let waiting = Set(state.decision.participants).subtracting(state.ballots.map(\.userId))
                if state.decision.method == .tiered {
                    state.notifications += audience.notifications(
                        .decisionReminder,
                        message: "Voting on \(title) ends within the hour and you have not voted",
                        subject: .init(groupId: state.decision.groupId, decisionId: state.decision.id),
                        now: now,
                        only: waiting
                    )
                }
                state.decision.reminderSentAt = now
            }
        }
        return true
    }

    /// Applies every deadline that has passed or is an hour away; returns how many decisions it looked at.
    @discardableResult
    public func enforceDeadlines() async throws -> Int {
        let due = try await repository.activeDecisions(deadlineBefore: clock().addingTimeInterval(DecisionService.reminderLead))
        for id in due { try await enforceDeadline(id) }
        return due.count
    }

    /// Ends an active decision with a result: counts the ballots (tiered) or draws (random); a tiered decision with
    /// no ballot at its deadline expires. `strict` refuses a decision that already ended, or has nothing to count.
    func end(_ read: DecisionState, by ending: DecisionResult.Ending, strict: Bool) async throws {
        let decision = read.decision
        let audience = try await notifier.audience(decision.participants)
        let names = try await names(decision.candidates)
        let weights = decision.method == .random && decision.weighted ? try await scores(decision.candidates) : nil
        let now = clock()
        try await change(decision.id, known: read) { state in
            guard state.decision.status == .active else {
                if strict { throw PlacesError(.conflict, "the decision is already \(state.decision.status.rawValue)") }
                return
            }
            let nothingToCount = state.decision.method == .manual || (state.decision.method == .tiered && state.ballots.isEmpty)
            if nothingToCount {
                if strict { throw PlacesError(.conflict, "there is no ballot to count yet; cancel the decision instead") }
                state.decision.status = .expired
                state.decision.endedAt = now
                return
            }
            try DecisionService.complete(&state, endedBy: ending, names: names, weights: weights, audience: audience, now: now)
        }
    }

    /// Completes the decision in `state` with its counted or drawn result, and tells the participants.
    static func complete(
        _ state: inout DecisionState,
        endedBy: DecisionResult.Ending,
        names: [String: String],
        weights: [String: Double]?,
        audience: Audience,
        now: Date
    ) throws {
        let result = try DecisionTally.result(state.decision, ballots: state.ballots, endedBy: endedBy, names: names, weights: weights)
        state.decision.result = result
        state.decision.status = .completed
        state.decision.endedAt = now
        state.notifications += completedNotifications(state.decision, result: result, names: names, audience: audience, now: now)
    }

    static func completedNotifications(
        _ decision: Decision,
        result: DecisionResult,
        names: [String: String],
        audience: Audience,
        now: Date
    ) -> [UserNotification] {
        let title = decision.title.map { "“\($0)”" } ?? "The decision"
        return audience.notifications(
            .decisionCompleted,
            message: "\(title) is decided: \(names[result.winner] ?? result.winner)",
            subject: .init(groupId: decision.groupId, decisionId: decision.id, placeId: result.winner),
            now: now
        )
    }

    /// The candidates' rating scores, the weights of a weighted draw (a place deleted since weighs the prior's 3).
    func scores(_ ids: [String]) async throws -> [String: Double] {
        let summaries = try await places.summaries(ids)
        return Dictionary(uniqueKeysWithValues: ids.map { ($0, summaries[$0]?.rating.score ?? RatingAggregate.priorMean) })
    }

    /// The decision, when the caller runs it.
    private func administered(_ caller: User, _ id: String) async throws -> DecisionState {
        let state = try await readable(caller, current(id))
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
