import Foundation

extension DecisionService {
    /// Takes someone who left a group (or was removed from it) out of the group's open decisions: they are no longer
    /// participants, their ballot is withdrawn and the decision records their departure; a tiered decision in which
    /// everyone who remains has voted completes. Ended decisions keep their ballots as they were.
    public func memberLeft(groupID: String, userID: String) async throws {
        for id in try await repository.activeDecisions(groupID: groupID, participant: userID) {
            try await withdrawParticipants(id, keeping: nil, removing: [userID])
        }
    }

    /// Withdraws the participants of an open group decision who are no longer members of `group` (a member who left
    /// while a previous withdrawal was interrupted); false when every participant is still a member.
    func withdrawFormerMembers(_ decision: Decision, group: Group) async throws -> Bool {
        guard decision.status == .active else { return false }
        let members = Set(group.members.map(\.user.id))
        let former = decision.participants.filter { !members.contains($0) }
        guard !former.isEmpty else { return false }
        try await withdrawParticipants(decision.id, keeping: members, removing: Set(former))
        return true
    }

    /// Removes `removing` from an active decision's participants (only those outside `keeping`, when given), in one
    /// transaction with the completion that may follow.
    private func withdrawParticipants(_ id: String, keeping members: Set<String>?, removing: Set<String>) async throws {
        let read = try await existing(id)
        let decision = read.decision
        let remaining = decision.participants.filter { !removing.contains($0) || members?.contains($0) == true }
        let audience = try await notifier.audience(remaining)
        let names = try await names(decision.candidates)
        let now = clock()
        try await change(id, known: read) { state in
            guard state.decision.status == .active else { return }
            let leaving = state.decision.participants.filter { removing.contains($0) && members?.contains($0) != true }
            guard !leaving.isEmpty else { return }
            for userID in leaving {
                let voted = state.ballots.contains { $0.userId == userID }
                state.ballots.removeAll { $0.userId == userID }
                state.decision.departures.append(Departure(userId: userID, at: now, ballotWithdrawn: voted))
            }
            state.decision.participants.removeAll { leaving.contains($0) }
            let voters = Set(state.ballots.map(\.userId))
            if state.decision.method == .tiered, !voters.isEmpty, voters.isSuperset(of: state.decision.participants) {
                try DecisionService.complete(&state, endedBy: .allVoted, names: names, weights: nil, audience: audience, now: now)
            }
        }
    }
}
