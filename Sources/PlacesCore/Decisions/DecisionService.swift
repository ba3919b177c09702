import Foundation
import GeoIndex

/// Group decisions: starting one over candidate places, ballots, the draw or the count, deadlines and the result.
///
/// The clock is injected and so is the source of seeds (tests pin both); a decision stores the seed it used, so
/// its result can be recounted at any time.
public struct DecisionService: Sendable {
    /// At most this many candidates in one decision.
    public static let maximumCandidates = 100

    let repository: any DecisionRepository
    let groups: any GroupRepository
    let accounts: any AccountRepository
    let collections: CollectionService
    let places: PlaceService
    let limits: UsageLimits
    let notifier: Notifier
    let clock: @Sendable () -> Date
    let makeSeed: @Sendable () -> UInt64

    /// A seed from the system's secure generator.
    public static func secureSeed() -> UInt64 {
        var generator = SystemRandomNumberGenerator()
        return generator.next()
    }

    /// Starts a decision. A random one that is not scheduled is drawn at once and comes back completed.
    public func create(_ caller: User, _ command: StartDecision) async throws -> DecisionView {
        let now = clock()
        let method = command.method
        var group: Group?
        if let groupID = try TextRules.text(command.groupId, field: "groupId", limit: 40) {
            guard let found = try await groups.group(id: groupID) else {
                throw PlacesError.unknownReference("groupId", "no group with id \(PlacesError.quoted(groupID))")
            }
            guard found.role(of: caller.id) != nil else { throw PlacesError.forbidden("only members start a group's decisions") }
            group = found
        }
        try UsageLimits.check(
            try await repository.activeCount(startedBy: caller.id),
            below: limits.activeDecisionsPerPerson,
            "open decisions you started"
        )
        let participants = try await participants(command.participants, caller: caller, group: group)
        let visitAt = try DecisionService.visitAt(command, now: now)
        let source = try await candidates(command.candidates, caller: caller, participants: participants, openAt: visitAt)
        var candidates = source.ids
        let weighted = command.weighted ?? false
        let scheduled = command.scheduled ?? false
        let excludeDays = command.excludeRecentDays
        if let excludeDays, !(1...365).contains(excludeDays) {
            throw PlacesError.invalid("excludeRecentDays", "excludeRecentDays must be a whole number from 1 to 365")
        }
        if method != .random {
            let randomOnly = [("weighted", command.weighted != nil), ("excludeRecentDays", excludeDays != nil), ("scheduled", command.scheduled != nil)]
            for (field, given) in randomOnly where given {
                throw PlacesError.invalid(field, "\(field) applies to random decisions only")
            }
        }
        if let excludeDays {
            let since = now.addingTimeInterval(-Double(excludeDays) * 24 * 60 * 60)
            let recent = try await repository.recentWinners(groupID: group?.id, createdBy: caller.id, since: since)
            candidates.removeAll { recent.contains($0) }
            guard !candidates.isEmpty else {
                throw PlacesError(.conflict, "every candidate was picked in the last \(excludeDays) days", field: "excludeRecentDays")
            }
        }
        let deadline = command.deadline
        if let deadline, deadline <= now { throw PlacesError.invalid("deadline", "deadline must be in the future") }
        let swipe = try command.swipe.map { round throws(PlacesError) in
            try DecisionService.swipeRule(round, participants: participants.count, deadline: deadline, now: now)
        }
        var decision = Decision(
            id: RandomID.make("d-"),
            groupId: group?.id,
            createdBy: caller.id,
            title: try TextRules.shownName(command.title, field: "title", limit: 120),
            method: method,
            status: .active,
            candidates: CandidateOrder.sorted(candidates),
            participants: participants.sorted(),
            weighted: weighted,
            scheduled: scheduled,
            seed: command.seed ?? makeSeed(),
            deadline: deadline,
            visitDate: try DecisionService.visitDate(command.visitDate),
            visitAt: visitAt,
            meetWithout: source.meetWithout.sorted(),
            createdAt: now
        )
        decision.swipe = swipe
        let title = decision.title.map { " “\($0)”" } ?? ""
        let announcement = try await notifier.audience(participants.filter { $0 != caller.id }).notifications(
            .decisionStarted,
            message: "\(caller.username) started a decision\(title) among \(candidates.count) places",
            subject: .init(userId: caller.id, groupId: group?.id, decisionId: decision.id),
            now: now
        )
        try await repository.insert(decision, notifications: announcement)
        if method == .random, !scheduled, swipe == nil {
            try await act(.draw, on: DecisionState(decision: decision, ballots: []))
        }
        return try await view(caller, id: decision.id)
    }

    /// How many decisions are active, for the server's metrics.
    public func activeCount() async throws -> Int {
        try await repository.activeCount()
    }

    /// The decision as the caller may see it (as stored: what is due is applied by the server's background task, or by
    /// the next change, never by a read).
    public func view(_ caller: User, id: String) async throws -> DecisionView {
        let state = try await readable(caller, existing(id))
        return try await view(state, for: caller)
    }

    /// The view of a decision read already (`existing`) as `caller` may see it, refused as `view(_:id:)` refuses; its
    /// group, when the caller's access depends on it, is read through `group`. Live streams read a decision once for
    /// all the streams that follow it and show it to each reader with this.
    func view(
        _ caller: User,
        of state: DecisionState,
        group: @Sendable (String) async throws -> Group?
    ) async throws -> DecisionView {
        try await view(readable(caller, state, group: group), for: caller)
    }

    /// The view of a decision as `caller` may see it, naming its people as the state was read with them.
    func view(_ state: DecisionState, for caller: User) async throws -> DecisionView {
        let summaries = try await places.summaries(state.decision.candidates)
        return try DecisionView.make(
            state.decision,
            ballots: state.ballots,
            swipes: state.swipes,
            for: caller,
            people: state.people,
            names: summaries.mapValues(\.name),
            openAtVisit: state.decision.visitAt.map { OpenStatus.of(summaries, at: $0) } ?? [:]
        )
    }

    /// A page of the decisions the caller can see, newest first: the decisions with their ballots and everyone their
    /// views name in one read, whatever the number of decisions and participants.
    public func list(_ caller: User, page: PageRequest) async throws -> Page<DecisionView> {
        let memberOf = try await groups.groupIDs(memberID: caller.id)
        let found = try await repository.decisions(visibleTo: caller.id, groupIDs: memberOf, page: page)
        var views: [DecisionView] = []
        // A group's decision shows to its members only (its starter who left the group no longer sees it).
        for state in found.items where state.decision.groupId.map(memberOf.contains) ?? true {
            views.append(try await view(state, for: caller))
        }
        return Page(items: views, nextCursor: found.nextCursor)
    }

    /// Recomputes the result from the stored ballots and seed, and says whether it agrees with the stored one.
    public func recount(_ caller: User, id: String) async throws -> Recount {
        let state = try await readable(caller, existing(id))
        let decision = state.decision
        guard let stored = decision.result else {
            throw PlacesError(.conflict, "the decision has no result yet (it is \(decision.status.rawValue))")
        }
        let ballots = state.ballots
        let summaries = try await places.summaries(decision.candidates)
        let names = summaries.mapValues(\.name)
        // The round is counted again from the stored answers too; its ending is the stored one's.
        var counted = decision
        counted.round = DecisionTally.round(decision, swipes: state.swipes, names: names, endedBy: decision.round?.endedBy, at: decision.round?.endedAt)
        var recounted = try DecisionTally.result(
            counted,
            ballots: ballots,
            endedBy: stored.endedBy,
            names: names,
            weights: stored.standings.reduce(into: [:]) { $0[$1.placeId] = $1.weight }
        )
        if decision.method == .manual { recounted = stored.counted }
        // Whether the winner is open at the visit time is told by its hours as they are now, and left out of the agreement.
        if let visitAt = decision.visitAt, let winner = recounted.winner, let open = OpenStatus.of(summaries, at: visitAt)[winner], open != .unknown {
            recounted.winnerOpen = open == .open
        }
        return Recount(agrees: recounted.counted == stored.counted, stored: stored, recounted: recounted)
    }

    // MARK: - Who and what

    /// The participants named (usernames), or every member of the group but those who block the caller, or the caller
    /// alone.
    private func participants(_ names: [String]?, caller: User, group: Group?) async throws -> [String] {
        guard let names else {
            guard let members = group?.members.map(\.user.id) else { return [caller.id] }
            let blockers = try await accounts.blockers(of: caller.id, among: members)
            return members.filter { !blockers.contains($0) }
        }
        guard !names.isEmpty, names.count <= 200 else { throw PlacesError.invalid("participants", "name 1 to 200 participants") }
        var ids: [String] = []
        for name in names {
            guard let user = try await accounts.user(login: .username(name)) else {
                throw PlacesError.unknownReference("participants", "no user named \(PlacesError.quoted(name))")
            }
            try await accounts.checkNoBlock(callerID: caller.id, other: user, name: name, field: "participants")
            if let group {
                guard group.role(of: user.id) != nil else {
                    throw PlacesError.invalid("participants", "\(user.username) is not a member of the group")
                }
            } else if user.id != caller.id, try await groups.friendship(caller.id, user.id) != .friends {
                throw PlacesError.invalid("participants", "\(user.username) is not your friend; start the decision in a group instead")
            }
            if !ids.contains(user.id) { ids.append(user.id) }
        }
        return ids
    }

    /// The candidate place ids from a collection, an explicit list, a nearby query or a meet query (those two with
    /// `respectNeeds` fit for every participant's needs and budget, and with a visit time open then), and whom a meet
    /// from the participants' locations went without.
    private func candidates(
        _ source: StartDecision.Candidates,
        caller: User,
        participants: [String],
        openAt visitAt: Date?
    ) async throws -> (ids: [String], meetWithout: [String]) {
        var ids: [String]
        var meetWithout: [String] = []
        switch source {
        case .collection(let id):
            guard let collectionID = try TextRules.text(id, field: "candidates.collectionId", limit: 40) else {
                throw PlacesError.invalid("candidates.collectionId", "collectionId is required")
            }
            ids = try await PlacesError.referenced("candidates.collectionId") { try await collections.placeIDs(caller, id: collectionID) }
        case .places(let placeIDs):
            ids = []
            for id in placeIDs {
                do {
                    _ = try await PlacesError.referenced("candidates.placeIds") { try await places.place(id: id) }
                } catch let error as PlacesError where error.code == .invalidInput {
                    throw PlacesError(.invalidInput, error.message, field: "candidates.placeIds")
                }
                guard !ids.contains(id) else { throw PlacesError.invalid("candidates.placeIds", "place '\(id)' is named twice") }
                ids.append(id)
            }
        case .nearby(let nearby):
            let query = try CandidateQuery.parse(nearby)
            ids = try await fitting(query, nearby.filters, participants: participants, openAt: visitAt).places(in: places)
        case .meet(let meet):
            let origins: [Coordinate]
            switch (meet.at, meet.fromParticipants ?? false) {
            case (let at?, false):
                origins = try CandidateQuery.origins(at)
            case (nil, true):
                (origins, meetWithout) = try await meetingPoints(of: participants)
            default:
                throw PlacesError.invalid("candidates.meet", "give exactly one of at (the origins) or fromParticipants: true")
            }
            let query = try CandidateQuery.parse(meet, origins: origins)
            ids = try await fitting(query, meet.filters, participants: participants, openAt: visitAt).places(in: places)
        }
        guard !ids.isEmpty else { throw PlacesError.invalid("candidates", "there are no candidate places") }
        guard ids.count <= DecisionService.maximumCandidates else {
            throw PlacesError.invalid("candidates", "at most \(DecisionService.maximumCandidates) candidates, got \(ids.count)")
        }
        return (ids, meetWithout)
    }

    /// `query` with everyone's needs (when `filters` asks to respect them) and open at the visit time, if any.
    private func fitting(_ query: CandidateQuery, _ filters: StartDecision.Filters, participants: [String], openAt visitAt: Date?) async throws -> CandidateQuery {
        var query = query.open(at: visitAt)
        if filters.respectNeeds == true {
            let settings = try await accounts.settings(userIDs: participants)
            query = query.respecting(CandidateQuery.Needs(participants.map { settings[$0] ?? UserSettings() }))
        }
        return query
    }

    /// The saved default locations of the participants who share theirs for meeting, each snapped to the centre of its
    /// `MeetGrid` cell (never stored, never shown), and the participants left out; `conflict` with fewer than two.
    private func meetingPoints(of participants: [String]) async throws -> (origins: [Coordinate], without: [String]) {
        let settings = try await accounts.settings(userIDs: participants)
        var origins: [Coordinate] = []
        var without: [String] = []
        for id in participants {
            if let shared = settings[id], shared.shareLocationForMeet, let location = shared.defaultLocation {
                origins.append(MeetGrid.snapped(location.coordinate))
            } else {
                without.append(id)
            }
        }
        guard origins.count >= MeetQuery.minimumOrigins else {
            throw PlacesError(
                .conflict,
                "fewer than two participants share a saved location for meeting (\(origins.count)); give the origins with at instead",
                field: "candidates.meet"
            )
        }
        guard origins.count <= MeetQuery.maximumOrigins else {
            throw PlacesError(.conflict, "more than \(MeetQuery.maximumOrigins) participants share a location; give the origins with at instead", field: "candidates.meet")
        }
        return (origins, without)
    }

    /// The decision, when the caller belongs to its group, or (without a group) takes part or started it; `forbidden`
    /// otherwise, so someone who left a group no longer sees its decisions. A participant who is still a member needs
    /// no read of the group.
    func readable(_ caller: User, _ read: DecisionState) async throws -> DecisionState {
        try await readable(caller, read) { [groups] id in try await groups.group(id: id) }
    }

    /// `readable(_:_:)`, reading the decision's group (when the caller's access depends on it) through `group`.
    func readable(_ caller: User, _ read: DecisionState, group: @Sendable (String) async throws -> Group?) async throws -> DecisionState {
        let decision = read.decision
        guard let groupID = decision.groupId else {
            if decision.participants.contains(caller.id) || decision.createdBy == caller.id { return read }
            throw PlacesError.forbidden("only the decision's participants see it")
        }
        if decision.participants.contains(caller.id), !read.formerMembers.contains(caller.id) { return read }
        guard try await group(groupID)?.role(of: caller.id) != nil else {
            throw PlacesError.forbidden("only the members of the decision's group see it")
        }
        return read
    }

    /// True when the caller runs the decision: an admin of its group, or its starter when it has no group.
    func isAdmin(_ caller: User, of decision: Decision) async throws -> Bool {
        guard let groupID = decision.groupId else { return decision.createdBy == caller.id }
        return try await groups.group(id: groupID)?.role(of: caller.id) == .admin
    }

    /// The decision as stored, with its ballots; `not_found` when there is none.
    func existing(_ id: String) async throws -> DecisionState {
        guard let state = try await repository.state(decisionID: id) else {
            throw PlacesError.notFound("no decision with id \(PlacesError.quoted(id))")
        }
        return state
    }

    // MARK: - Parsing

    /// The swipe round a start asks for: up to 10 vetoes each (1 when left out), a minimum of yes from 1 to the
    /// number of participants, and a deadline in the future and before the decision's own.
    static func swipeRule(_ round: StartDecision.Round, participants: Int, deadline: Date?, now: Date) throws(PlacesError) -> SwipeRule {
        let vetoes = round.vetoes ?? SwipeRule.defaultVetoes
        guard (0...SwipeRule.maximumVetoes).contains(vetoes) else {
            throw .invalid("swipe.vetoes", "swipe.vetoes must be a whole number from 0 to \(SwipeRule.maximumVetoes)")
        }
        if let minYes = round.minYes, !(1...participants).contains(minYes) {
            throw .invalid("swipe.minYes", "swipe.minYes must be from 1 to the number of participants (\(participants))")
        }
        if let end = round.deadline {
            guard end > now else { throw .invalid("swipe.deadline", "swipe.deadline must be in the future") }
            if let deadline, end >= deadline {
                throw .invalid("swipe.deadline", "swipe.deadline must come before the decision's deadline")
            }
        }
        return SwipeRule(vetoes: vetoes, minYes: round.minYes, deadline: round.deadline)
    }

    /// The visit time a start asks for: in the future, and not beside a visit day.
    static func visitAt(_ command: StartDecision, now: Date) throws(PlacesError) -> Date? {
        guard let visitAt = command.visitAt else { return nil }
        guard command.visitDate == nil else { throw .invalid("visitAt", "give visitAt or visitDate, not both") }
        guard visitAt > now else { throw .invalid("visitAt", "visitAt must be in the future") }
        return visitAt
    }

    static func visitDate(_ raw: String?) throws(PlacesError) -> String? {
        guard let text = try TextRules.text(raw, field: "visitDate", limit: 10) else { return nil }
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
            let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]),
            (1...12).contains(month), (1...31).contains(day), year >= 2000,
            let date = ISO8601Time.date(text + "T12:00:00Z"),
            Calendar(identifier: .gregorian).dateComponents(in: TimeZone(identifier: "UTC") ?? .current, from: date).day == day
        else { throw .invalid("visitDate", "visitDate must be a day such as 2026-12-24") }
        return text
    }
}
