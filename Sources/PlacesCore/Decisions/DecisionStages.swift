import Foundation

/// A decision's life, as pure transitions: given the decision as read, the time and what happens to it, the decision
/// to save and what its people are to be told. Nothing here reads or writes; `DecisionService` reads the decision and
/// what a transition may need (`Facts`), decides here, and writes what this answers, in that order.
///
/// Stages: the swipe round, when the decision has one (answers taken) → the method (ballots taken, or a draw awaited,
/// or an admin's pick, among the round's survivors) → ended: completed (with a result, which has no winner when
/// nothing survived the round), expired (the deadline passed with nothing to count) or closed (cancelled). Whatever
/// the action, what is already due happens first: participants who left the group are withdrawn, a round whose
/// deadline passed or that everyone has answered ends, a passed deadline ends the decision (or the reminder an hour
/// before goes out), and a tiered decision everyone has voted in is counted. An action the decision no longer takes
/// is refused after that, so the write that finds a deadline passed still applies it.
enum DecisionStages {
    /// What happens to a decision.
    enum Action: Sendable {
        /// The draw of a random decision that is not scheduled, as it starts.
        case draw
        /// A participant gives or changes answers in the swipe round (place ids already checked against the candidates).
        case swipe(voter: String, answers: [String: SwipeAnswer])
        /// A participant casts or replaces their ballot (a ranking already checked against the survivors).
        case ballot(voter: String, ranking: [String])
        /// An admin ends it now: an open swipe round ends (and only the round), a tiered decision is counted, a scheduled
        /// random one drawn.
        case close
        /// An admin cancels it: it ends closed, without a result.
        case cancel
        /// An admin picks the place of a manual decision.
        case pick(placeID: String, by: User)
        /// These participants left the decision's group: they no longer take part and their ballots are withdrawn.
        case withdraw(Set<String>)
        /// Nothing but what is due.
        case settle
    }

    /// What a transition may need that the decision does not hold, read before deciding.
    struct Facts: Sendable {
        /// The candidates' names, for the result's explanation (places deleted since are missing).
        var names: [String: String]
        /// The candidates' rating scores, the weights of a weighted draw (nil for any other decision).
        var weights: [String: Double]?
        /// For a decision with a visit time: whether each candidate with hours is open then.
        var openAtVisit: [String: Bool] = [:]
    }

    /// What the participants are to hear of a transition, once the service knows who wants to hear what.
    enum Announcement: Equatable, Sendable {
        /// The decision ended with this result.
        case completed(DecisionResult)
        /// Its deadline is near, and these participants have not voted.
        case reminder(waiting: Set<String>)
    }

    /// A transition's outcome: the decision to save, what to announce, and the refusal of the action (to tell the
    /// caller after saving what was due).
    struct Step: Sendable {
        var state: DecisionState
        var announcements: [Announcement] = []
        var refusal: PlacesError?
    }

    /// A reminder goes to those who have not voted when the deadline is this near.
    static let reminderLead: TimeInterval = 60 * 60

    /// The decision after `action` at `now`, with what is due applied first.
    static func next(_ read: DecisionState, _ action: Action, now: Date, facts: Facts) throws(PlacesError) -> Step {
        var step = Step(state: read)
        step.state.notifications = []
        if !read.formerMembers.isEmpty { withdraw(read.formerMembers, &step, now: now) }
        try settle(&step, now: now, facts: facts)
        do {
            try act(action, &step, now: now, facts: facts)
        } catch {
            step.refusal = error
        }
        return step
    }

    /// True for an open tiered decision in which every participant has a ballot: `voters` are those with one.
    static func everyoneVoted(_ decision: Decision, voters: Set<String>) -> Bool {
        decision.status == .active && decision.method == .tiered && !decision.participants.isEmpty
            && voters.isSuperset(of: decision.participants)
    }

    /// True for a decision in its swipe round in which every participant has answered every candidate: `answered`
    /// counts each participant's answers.
    static func everyoneAnswered(_ decision: Decision, answered: [String: Int]) -> Bool {
        decision.inRound && !decision.participants.isEmpty && done(decision, answered: answered).count == decision.participants.count
    }

    /// The participants who have answered every candidate: `answered` counts each participant's answers.
    static func done(_ decision: Decision, answered: [String: Int]) -> Set<String> {
        Set(decision.participants.filter { (answered[$0] ?? 0) >= decision.candidates.count })
    }

    /// Each participant's number of answers in `swipes`.
    static func answered(_ swipes: [Swipe]) -> [String: Int] {
        swipes.reduce(into: [:]) { counts, swipe in counts[swipe.userId, default: 0] += 1 }
    }

    /// What a decision's deadline asks for at `now`: to end it, or to remind those who have not voted.
    enum DeadlineAction { case end, remind }

    static func deadlineAction(_ decision: Decision, now: Date) -> DeadlineAction? {
        guard decision.status == .active, let deadline = decision.deadline else { return nil }
        if deadline <= now { return .end }
        if decision.reminderSentAt == nil, deadline.timeIntervalSince(now) <= reminderLead { return .remind }
        return nil
    }

    // MARK: - Transitions

    /// What is due by `now`: a passed deadline ends the decision, a near one reminds, everyone's ballots are counted.
    private static func settle(_ step: inout Step, now: Date, facts: Facts) throws(PlacesError) {
        let decision = step.state.decision
        if decision.inRound {
            let roundDeadline = [decision.swipe?.deadline, decision.deadline].compactMap { $0 }.min()
            if let roundDeadline, roundDeadline <= now {
                try endRound(&step, .deadline, now: now, facts: facts)
            } else if everyoneAnswered(decision, answered: answered(step.state.swipes)) {
                try endRound(&step, .allAnswered, now: now, facts: facts)
            } else {
                return
            }
        }
        switch deadlineAction(step.state.decision, now: now) {
        case .end:
            let decision = step.state.decision
            let nothingToCount = decision.method == .manual || (decision.method == .tiered && step.state.ballots.isEmpty)
            if nothingToCount {
                end(&step.state, .expired, now: now)
            } else {
                try complete(&step, endedBy: .deadline, now: now, facts: facts)
            }
        case .remind:
            let decision = step.state.decision
            if decision.method == .tiered {
                step.announcements.append(.reminder(waiting: Set(decision.participants).subtracting(step.state.ballots.map(\.userId))))
            }
            step.state.decision.reminderSentAt = now
        case nil:
            break
        }
        if everyoneVoted(step.state.decision, voters: Set(step.state.ballots.map(\.userId))) {
            try complete(&step, endedBy: .allVoted, now: now, facts: facts)
        }
    }

    private static func act(_ action: Action, _ step: inout Step, now: Date, facts: Facts) throws(PlacesError) {
        let decision = step.state.decision
        switch action {
        case .settle:
            return
        case .withdraw(let leaving):
            withdraw(leaving, &step, now: now)
            try settle(&step, now: now, facts: facts)
        case .draw:
            try requireActive(decision)
            guard !decision.inRound else { return }
            try complete(&step, endedBy: .draw, now: now, facts: facts)
        case .swipe(let voter, let answers):
            guard decision.status == .active else {
                throw PlacesError(.conflict, "the decision is \(decision.status.rawValue); answers are no longer taken")
            }
            guard decision.swipe != nil else { throw PlacesError(.conflict, "this decision has no swipe round") }
            guard decision.inRound else { throw PlacesError(.conflict, "the swipe round is over; answers are no longer taken") }
            guard decision.participants.contains(voter) else { throw .forbidden("only the decision's participants answer") }
            var swipes = step.state.swipes
            for (placeID, answer) in answers {
                if let index = swipes.firstIndex(where: { $0.userId == voter && $0.placeId == placeID }) {
                    guard swipes[index].answer != answer else { continue }
                    swipes[index].answer = answer
                    swipes[index].updatedAt = now
                } else {
                    swipes.append(Swipe(userId: voter, placeId: placeID, answer: answer, updatedAt: now))
                }
            }
            let vetoes = swipes.filter { $0.userId == voter && $0.answer == .veto }.count
            let allowed = decision.swipe?.vetoes ?? 0
            guard vetoes <= allowed else {
                throw PlacesError(.conflict, "that would be \(vetoes) vetoes; you may cast \(allowed) in this round", field: "answer")
            }
            step.state.swipes = swipes.sorted { ($0.userId, $0.placeId) < ($1.userId, $1.placeId) }
            try settle(&step, now: now, facts: facts)
        case .ballot(let voter, let ranking):
            guard decision.status == .active else {
                throw PlacesError(.conflict, "the decision is \(decision.status.rawValue); ballots are no longer taken")
            }
            guard !decision.inRound else { throw PlacesError(.conflict, "the swipe round is still open; ballots are taken once it ends") }
            // The round may have ended since the caller's ranking was checked.
            if let removed = ranking.first(where: { !decision.survivors.contains($0) }) {
                throw PlacesError.invalid("ranking", "place \(PlacesError.quoted(removed)) did not survive the swipe round")
            }
            // They may have left the group since it was read.
            guard decision.participants.contains(voter) else { throw .forbidden("only the decision's participants vote") }
            if let index = step.state.ballots.firstIndex(where: { $0.userId == voter }) {
                step.state.ballots[index].ranking = ranking
                step.state.ballots[index].updatedAt = now
            } else {
                step.state.ballots.append(Ballot(userId: voter, ranking: ranking, castAt: now, updatedAt: now))
            }
            try settle(&step, now: now, facts: facts)
        case .close:
            if decision.inRound { return try endRound(&step, .adminClosed, now: now, facts: facts) }
            guard decision.method != .manual else { throw PlacesError(.conflict, "a manual decision ends when an admin picks a place") }
            try requireActive(decision)
            if decision.method == .tiered, step.state.ballots.isEmpty {
                throw PlacesError(.conflict, "there is no ballot to count yet; cancel the decision instead")
            }
            try complete(&step, endedBy: decision.method == .tiered ? .adminClosed : .draw, now: now, facts: facts)
        case .cancel:
            try requireActive(decision)
            end(&step.state, .closed, now: now)
        case .pick(let placeID, let picker):
            guard decision.method == .manual else { throw PlacesError(.conflict, "only a manual decision is decided by a pick") }
            try requireActive(decision)
            guard !decision.inRound else { throw PlacesError(.conflict, "the swipe round is still open; pick once it ends") }
            guard decision.survivors.contains(placeID) else {
                throw PlacesError.invalid("placeId", "place \(PlacesError.quoted(placeID)) did not survive the swipe round")
            }
            var result = DecisionTally.manual(decision, winner: placeID, pickedBy: picker.username, names: facts.names)
            result.pickedBy = picker.id
            finish(&step, with: result, now: now, facts: facts)
        }
    }

    /// Takes `leaving` out of an active decision's participants, withdrawing their ballots and answers (what that makes
    /// due, a count or the round's end, is the caller's `settle`).
    private static func withdraw(_ leaving: Set<String>, _ step: inout Step, now: Date) {
        guard step.state.decision.status == .active else { return }
        for userID in step.state.decision.participants where leaving.contains(userID) {
            let voted = step.state.ballots.contains { $0.userId == userID }
            step.state.ballots.removeAll { $0.userId == userID }
            step.state.swipes.removeAll { $0.userId == userID }
            step.state.decision.departures.append(Departure(userId: userID, at: now, ballotWithdrawn: voted))
        }
        step.state.decision.participants.removeAll { leaving.contains($0) }
        step.state.formerMembers.subtract(leaving)
    }

    /// Ends the swipe round: counts it, and then the method goes on among the survivors (a random draw that is not
    /// scheduled happens at once); with no survivor the decision completes without a winner.
    private static func endRound(_ step: inout Step, _ ending: RoundResult.Ending, now: Date, facts: Facts) throws(PlacesError) {
        let decision = step.state.decision
        step.state.decision.round = DecisionTally.round(decision, swipes: step.state.swipes, names: facts.names, endedBy: ending, at: now)
        if step.state.decision.survivors.isEmpty {
            try complete(&step, endedBy: .nothingSurvived, now: now, facts: facts)
        } else if decision.method == .random, !decision.scheduled {
            try complete(&step, endedBy: .draw, now: now, facts: facts)
        }
    }

    private static func requireActive(_ decision: Decision) throws(PlacesError) {
        guard decision.status == .active else { throw PlacesError(.conflict, "the decision is already \(decision.status.rawValue)") }
    }

    /// Completes the decision with its counted or drawn result.
    private static func complete(_ step: inout Step, endedBy: DecisionResult.Ending, now: Date, facts: Facts) throws(PlacesError) {
        let decision = step.state.decision
        let result = try DecisionTally.result(
            decision,
            ballots: step.state.ballots,
            endedBy: endedBy,
            names: facts.names,
            weights: decision.method == .random && decision.weighted ? facts.weights : nil
        )
        finish(&step, with: result, now: now, facts: facts)
    }

    private static func finish(_ step: inout Step, with result: DecisionResult, now: Date, facts: Facts) {
        var result = result
        result.winnerOpen = result.winner.flatMap { facts.openAtVisit[$0] }
        step.state.decision.result = result
        end(&step.state, .completed, now: now)
        step.announcements.append(.completed(result))
    }

    private static func end(_ state: inout DecisionState, _ status: Decision.Status, now: Date) {
        state.decision.status = status
        state.decision.endedAt = now
    }
}
