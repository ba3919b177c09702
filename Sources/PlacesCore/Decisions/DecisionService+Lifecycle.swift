import Foundation

extension DecisionService {
    /// The fields a ballot body reads.
    public static let ballotFields: Set<String> = ["ranking"]

    /// Casts or replaces the caller's ballot (participants of an active tiered decision). The ballot that makes
    /// every participant voted completes the decision, in the same transaction.
    public func vote(_ caller: User, id: String, _ reader: FieldReader) async throws -> DecisionView {
        let decision = try await readable(caller, id, read: try await enforceDeadline(id))
        guard decision.participants.contains(caller.id) else { throw PlacesError.forbidden("only the decision's participants vote") }
        guard decision.method == .tiered else {
            throw PlacesError(.conflict, "only tiered decisions take ballots; this one is \(decision.method.rawValue)")
        }
        let ranking = try DecisionService.ranking(reader, candidates: decision.candidates)
        let names = names(decision.candidates)
        let now = clock()
        let voter = caller.id
        // Who hears of the result is read only for the ballot that completes the decision: the transaction asks for
        // it when it finds that this ballot is the last, and runs once more with it (at most twice in all).
        var audience: Audience?
        var saved: DecisionState?
        for _ in 0..<2 {
            let known = audience
            do {
                saved = try await repository.update(decisionID: id) { state in
                    guard state.decision.status == .active else {
                        throw PlacesError(.conflict, "the decision is \(state.decision.status.rawValue); ballots are no longer taken")
                    }
                    // They may have left the group since the check above.
                    guard state.decision.participants.contains(voter) else {
                        throw PlacesError.forbidden("only the decision's participants vote")
                    }
                    if let index = state.ballots.firstIndex(where: { $0.userId == voter }) {
                        state.ballots[index].ranking = ranking
                        state.ballots[index].updatedAt = now
                    } else {
                        state.ballots.append(Ballot(userId: voter, ranking: ranking, castAt: now, updatedAt: now))
                    }
                    if Set(state.ballots.map(\.userId)).isSuperset(of: state.decision.participants) {
                        guard let known else { throw AudienceNeeded() }
                        try DecisionService.complete(&state, endedBy: .allVoted, names: names, weights: nil, audience: known, now: now)
                    }
                    return state
                }
                break
            } catch is AudienceNeeded {
                audience = try await notifier.audience(decision.participants)
            }
        }
        // The answer shows the decision as this transaction left it, without reading it again.
        guard let saved else { return try await view(caller, id: id) }
        return try await DecisionView.make(saved.decision, ballots: saved.ballots, for: caller, service: self)
    }

    /// Thrown from a ballot's transaction (rolling it back) when the ballot completes the decision and the audience of
    /// its result has not been read yet.
    private struct AudienceNeeded: Error {}

    /// Ends an active decision now (admins): a tiered one is counted, a scheduled random one is drawn.
    public func close(_ caller: User, id: String) async throws -> DecisionView {
        let decision = try await administered(caller, id)
        switch decision.method {
        case .tiered: try await end(id, by: .adminClosed, strict: true)
        case .random: try await end(id, by: .draw, strict: true)
        case .manual: throw PlacesError(.conflict, "a manual decision ends when an admin picks a place")
        }
        return try await view(caller, id: id)
    }

    /// Cancels an active decision (admins): it ends `closed`, without a result.
    public func cancel(_ caller: User, id: String) async throws -> DecisionView {
        _ = try await administered(caller, id)
        let now = clock()
        try await repository.update(decisionID: id) { state in
            guard state.decision.status == .active else {
                throw PlacesError(.conflict, "the decision is already \(state.decision.status.rawValue)")
            }
            state.decision.status = .closed
            state.decision.endedAt = now
        }
        return try await view(caller, id: id)
    }

    /// The fields a pick body reads.
    public static let pickFields: Set<String> = ["placeId"]

    /// Picks the winner of a manual decision (admins), which completes it.
    public func pick(_ caller: User, id: String, _ reader: FieldReader) async throws -> DecisionView {
        let decision = try await administered(caller, id)
        guard decision.method == .manual else { throw PlacesError(.conflict, "only a manual decision is decided by a pick") }
        guard let placeID = try reader.text("placeId", limit: 100) else { throw PlacesError.invalid("placeId", "placeId is required") }
        guard decision.candidates.contains(placeID) else {
            throw PlacesError.invalid("placeId", "place \(PlacesError.quoted(placeID)) is not one of the candidates")
        }
        let audience = try await notifier.audience(decision.participants)
        let names = names(decision.candidates)
        let now = clock()
        let picker = caller
        try await repository.update(decisionID: id) { state in
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

    /// Applies a passed deadline (count, draw or expire) and sends the reminder when the deadline is an hour away.
    /// Every read calls it; so does the server's background task, so deadlines pass even when nobody looks. Answers
    /// the decision as it read it when nothing had to change, so the caller need not read it again (nil otherwise).
    @discardableResult
    public func enforceDeadline(_ id: String) async throws -> Decision? {
        guard let decision = try await repository.decision(id: id) else { return nil }
        guard decision.status == .active, let deadline = decision.deadline else { return decision }
        let now = clock()
        if deadline <= now {
            try await end(id, by: .deadline, strict: false)
            return nil
        } else if decision.reminderSentAt == nil, deadline.timeIntervalSince(now) <= DecisionService.reminderLead {
            let audience = try await notifier.audience(decision.participants)
            let title = decision.title.map { "“\($0)”" } ?? "a decision"
            try await repository.update(decisionID: id) { state in
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
            return nil
        }
        return decision
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
    func end(_ id: String, by ending: DecisionResult.Ending, strict: Bool) async throws {
        let decision = try await existing(id)
        let audience = try await notifier.audience(decision.participants)
        let names = names(decision.candidates)
        let weights = decision.method == .random && decision.weighted ? scores(decision.candidates) : nil
        let now = clock()
        try await repository.update(decisionID: id) { state in
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
    func scores(_ ids: [String]) -> [String: Double] {
        let summaries = places.index.summaries(ids)
        return Dictionary(uniqueKeysWithValues: ids.map { ($0, summaries[$0]?.rating.score ?? RatingAggregate.priorMean) })
    }

    /// The decision, when the caller runs it.
    private func administered(_ caller: User, _ id: String) async throws -> Decision {
        let decision = try await readable(caller, id, read: try await enforceDeadline(id))
        guard try await isAdmin(caller, of: decision) else {
            throw PlacesError.forbidden(
                decision.groupId == nil ? "only the decision's starter may do this" : "only the group's admins may do this"
            )
        }
        return decision
    }

    /// A ranking from a ballot body: candidate ids, best first, each at most once, at least one.
    static func ranking(_ reader: FieldReader, candidates: [String]) throws(PlacesError) -> [String] {
        guard case .list(let values)? = reader.fields["ranking"] else {
            throw .invalid("ranking", "ranking is required: candidate place ids, best first")
        }
        guard !values.isEmpty else { throw .invalid("ranking", "rank at least one candidate") }
        let known = Set(candidates)
        var ranking: [String] = []
        for value in values {
            guard case .text(let id) = value else { throw .invalid("ranking", "ranking must hold place ids") }
            guard known.contains(id) else { throw .invalid("ranking", "place \(PlacesError.quoted(id)) is not a candidate") }
            guard !ranking.contains(id) else { throw .invalid("ranking", "place \(PlacesError.quoted(id)) is ranked twice") }
            ranking.append(id)
        }
        return ranking
    }
}
