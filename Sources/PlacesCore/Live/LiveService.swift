import Foundation
import Synchronization

/// Live streams of a decision's events and of a person's notifications: who may open one, what it writes first (a
/// snapshot, or what a resuming client missed), and how the feed's events read to each reader.
public struct LiveService: Sendable {
    /// The instance's one reader of the feed, which every stream listens to.
    public let feed: LiveFeed
    let decisions: DecisionService
    let conversations: ConversationService
    let notifications: NotificationService
    let clock: @Sendable () -> Date

    /// Events a resuming client may have missed before it gets a snapshot instead.
    static let replayLimit = 500
    /// Notifications a notification stream's snapshot shows.
    static let snapshotNotifications = 20

    /// Streams over `feed`, reading decisions, their conversations and notifications through their services.
    public init(
        feed: LiveFeed,
        decisions: DecisionService,
        conversations: ConversationService,
        notifications: NotificationService,
        clock: @escaping @Sendable () -> Date
    ) {
        self.feed = feed
        self.decisions = decisions
        self.conversations = conversations
        self.notifications = notifications
        self.clock = clock
    }

    /// Checks that `caller` may follow the decision, opening nothing (HEAD): `not_found` or `forbidden` as a read of it.
    public func checkDecision(_ caller: Caller, id: String) async throws {
        _ = try await decisions.view(caller.user, id: id)
    }

    /// Opens a stream of the decision's events for `caller`, resuming after `lastEventID` when given; nil when the
    /// decision has ended and the client has nothing left to hear (it should stop reconnecting). It reads the decision
    /// once (after joining the feed, so that nothing between that read and the first event goes unheard), and then
    /// once for each delivery of its events, shared with every other stream of the decision given the same delivery.
    public func decisionEvents(_ caller: Caller, id: String, lastEventID: String?) async throws -> LiveStream? {
        let resume = try lastEventID.map { text throws(PlacesError) in try EventID(parsing: text) }
        let decisions = decisions
        let conversations = conversations
        let repository = feed.repository
        return try await open(
            caller,
            topic: .decision(id),
            resume: resume,
            prepare: { reads in
                // Who may follow it: `not_found` or `forbidden` as a read of it, before any lease is taken.
                let (_, decision) = try await LiveService.decision(id, for: caller.user, decisions: decisions, reads: reads)
                return decision.view.groupId.map { .group($0) } ?? .noGroup
            },
            snapshot: { subscription, reads in
                let (_, decision) = try await LiveService.decision(id, for: caller.user, decisions: decisions, reads: reads)
                let ended = decision.view.status != .active
                let event = EventID(subscription.start, generation: subscription.generation, final: ended)
                let message = LiveMessage.event(
                    id: event.description,
                    name: ended ? "ended" : "snapshot",
                    data: try decision.eventData(DecisionEvent())
                )
                return LiveStream.Rendered(messages: [message], final: ended)
            },
            render: { events, generation, through, reads in
                let (state, decision) = try await LiveService.decision(id, for: caller.user, decisions: decisions, reads: reads)
                // Messages reach those who talk in the decision only.
                let posted = try await conversations.messages(caller.user, of: state, ids: events.filter { $0.kind == .message }.compactMap(\.detail))
                let messages = Dictionary(posted.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
                var rendered = try LiveService.decisionMessages(events, generation: generation, decision: decision, messages: messages)
                // Over, but its end is not among these rows: it is still to come (a later read brings it with the rows
                // before it), unless the client has every row of the decision already but the end itself. The streams
                // given the same delivery share the look.
                if !rendered.final, decision.view.status != .active,
                    try await reads.value("rows of the decision after \(through)", {
                        try await repository.events(of: .decision(id), after: through, before: .horizon(.max), limit: 1).isEmpty
                    })
                {
                    let event = EventID(through, generation: generation, final: true)
                    rendered.messages.append(.event(id: event.description, name: "ended", data: try decision.eventData(DecisionEvent())))
                    rendered.final = true
                }
                return rendered
            },
            recheck: { _ = try await decisions.view(caller.user, id: id) }
        )
    }

    /// The decision `id` as stored and as `reader` may see it (refused as a read of it is), from `reads`: the decision
    /// is read once for every stream that shares them, and its group (when a reader's access depends on it) once too.
    /// What differs between readers (their own ballot, whether they see the standings) is made for each in memory, and
    /// the view's JSON is encoded once for each kind of reader (`ReaderDecision`).
    static func decision(
        _ id: String,
        for reader: User,
        decisions: DecisionService,
        reads: SharedReads
    ) async throws -> (DecisionState, ReaderDecision) {
        let state = try await reads.value("decision") { try await decisions.existing(id) }
        let view = try await decisions.view(reader, of: state) { groupID in
            try await reads.value("group") { try await decisions.groups.group(id: groupID) }
        }
        return (state, try await ReaderDecision(view, sharing: reads))
    }

    /// Opens a stream of `caller`'s new notifications, resuming after `lastEventID` when given.
    public func notificationEvents(_ caller: Caller, lastEventID: String?) async throws -> LiveStream {
        let resume = try lastEventID.map { text throws(PlacesError) in try EventID(parsing: text) }
        let notifications = notifications
        let recipientID = caller.user.id
        // The notifications the snapshot showed. One written just before the stream opened, through another instance,
        // can be in the snapshot (read from the database) and still after the position the stream starts from (this
        // instance had not read it from the feed yet): it is not sent again as new.
        let shown = Mutex<Set<String>>([])
        let stream = try await open(
            caller,
            topic: .notifications(recipientID: recipientID),
            resume: resume,
            prepare: { _ in .noGroup },
            snapshot: { subscription, _ in
                let page = try await notifications.list(recipientID: recipientID, page: PageRequest(limit: LiveService.snapshotNotifications))
                shown.withLock { $0 = Set(page.items.map(\.id)) }
                let event = EventID(subscription.start, generation: subscription.generation)
                return LiveStream.Rendered(messages: [.event(id: event.description, name: "snapshot", data: try LiveService.data(page))])
            },
            render: { events, generation, _, reads in
                // The person's streams given the same events share the read (one that joined late may be given fewer).
                let ids = shown.withLock { shown in events.compactMap(\.detail).filter { !shown.contains($0) } }
                guard !ids.isEmpty else { return LiveStream.Rendered() }
                let found = try await reads.value("notifications " + ids.joined(separator: " ")) {
                    try await notifications.notifications(ids: ids, recipientID: recipientID)
                }
                let byID = Dictionary(found.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
                var rendered = LiveStream.Rendered()
                for event in events {
                    guard let id = event.detail, let notification = byID[id] else { continue }
                    rendered.messages.append(.event(id: event.id(generation), name: "notification", data: try LiveService.data(notification)))
                }
                return rendered
            },
            recheck: {}
        )
        guard let stream else { throw PlacesError(.internalError, "a notification stream has no end") }
        return stream
    }

    /// Joins the feed for a stream of `topic`, checks that the caller may follow it (`prepare`, which answers which of
    /// the caller's memberships the stream watches), takes a lease for it, and works out what it writes first: the
    /// events the client missed after `resume` when the feed still holds them all, else a snapshot of now (`snapshot`,
    /// final when what the stream follows has ended). Nil when what it follows ended and the client has heard all of
    /// it. `prepare`, `snapshot` and the rendering of missed events share one set of reads (the opening reads what it
    /// follows once).
    private func open(
        _ caller: Caller,
        topic: FeedTopic,
        resume: EventID?,
        prepare: @Sendable (SharedReads) async throws -> LiveFeed.Membership,
        snapshot: @Sendable (LiveFeed.Subscription, SharedReads) async throws -> LiveStream.Rendered,
        render: @escaping @Sendable ([FeedEvent], String, FeedPosition, SharedReads) async throws -> LiveStream.Rendered,
        recheck: @escaping @Sendable () async throws -> Void
    ) async throws -> LiveStream? {
        let settings = feed.settings
        let repository = feed.repository
        // Joined first, watching every membership of the reader: what is read next is at least as new as where the
        // stream starts, and a change of the reader's access meanwhile makes it look again.
        let subscription = try await feed.subscribe(
            LiveFeed.Interest(topic: topic, userID: caller.user.id, tokenHash: caller.tokenHash, group: .anyGroup)
        )
        let reads = SharedReads()
        let now = clock()
        let leaseID = RandomID.make("s-")
        do {
            feed.watch(try await prepare(reads), for: subscription.id)
            let leased = try await repository.openStream(
                id: leaseID,
                userID: caller.user.id,
                holder: feed.holder,
                now: now,
                until: now.addingTimeInterval(settings.leaseTime.seconds),
                allowed: settings.streamsPerUser
            )
            guard leased else {
                var error = PlacesError(
                    .tooManyStreams,
                    "at most \(settings.streamsPerUser) live streams may be open at once for one account; close one first"
                )
                error.retryAfterSeconds = Int(settings.keepAlive.seconds.rounded(.up))
                throw error
            }
        } catch {
            feed.leave(subscription.id)
            throw error
        }
        var stream = LiveStream(
            feed: feed,
            subscription: subscription,
            leaseID: leaseID,
            opening: LiveStream.Rendered(),
            written: subscription.start,
            deadline: now.addingTimeInterval(settings.maxDuration.seconds),
            clock: clock,
            render: render,
            recheck: recheck
        )
        do {
            if let resume, resume.isOf(generation: subscription.generation), resume.position.transaction >= subscription.prunedBelow,
                try await !isAhead(resume.position, of: subscription.start)
            {
                // The client heard the end already.
                if resume.final {
                    await stream.close()
                    return nil
                }
                let missed = try await repository.events(
                    of: topic,
                    after: resume.position,
                    before: subscription.start,
                    limit: LiveService.replayLimit
                )
                if missed.count < LiveService.replayLimit {
                    stream.written = max(resume.position, missed.last?.position ?? resume.position)
                    stream.opening = try await render(missed, subscription.generation, stream.written, reads)
                    return stream
                }
            }
            let opening = try await snapshot(subscription, reads)
            if opening.final && resume == nil {
                await stream.close()
                return nil
            }
            stream.opening = opening
            stream.written = subscription.start
            return stream
        } catch {
            await stream.close()
            throw error
        }
    }

    /// True when `position` is past the feed's horizon: no event has had it yet, so the client did not get it from a
    /// stream (an id made up, or of a database restored from an older copy). Such a client gets a snapshot, as one
    /// whose id is older than the feed keeps does: resuming from it would skip every event until the feed got there
    /// (an hour of keep-alives and nothing else). A position past where this instance's reader stands (`start`) is
    /// looked up in the database, since another instance may have read further and written it.
    private func isAhead(_ position: FeedPosition, of start: FeedPosition) async throws -> Bool {
        guard position > start else { return false }
        return position > (try await feed.repository.events(after: nil, limit: 0)).through
    }

    /// A decision's feed rows as its reader sees them: a `ballot` event for each ballot (who, never what), an `update`
    /// for a save without one (someone left), and an `ended` event for the save that ended it, after that save's ballots
    /// (its id tells a client resuming from it that it heard everything; nothing follows it). Every event carries the
    /// decision as the reader sees it now (`decision`), standings only when they may see them; a `message` event carries
    /// the message, when it is among `messages` (those the reader may read).
    static func decisionMessages(
        _ events: [FeedEvent],
        generation: String,
        decision: ReaderDecision,
        messages: [String: DecisionMessage] = [:]
    ) throws -> LiveStream.Rendered {
        let view = decision.view
        var rendered = LiveStream.Rendered()
        // A save writes the decision's row, then its ballots', all at the save's version.
        var index = events.startIndex
        while index < events.endIndex, !rendered.final {
            let version = events[index].version
            var end = index
            while end < events.endIndex, events[end].version == version { end += 1 }
            let save = events[index..<end]
            index = end
            // Messages are no save of the decision: each is an event of its own (none for a reader who may not read it).
            for event in save where event.kind == .message {
                guard let message = event.detail.flatMap({ messages[$0] }) else { continue }
                rendered.messages.append(.event(id: event.id(generation), name: "message", data: try data(message)))
            }
            let person = { (event: FeedEvent) in
                event.detail.flatMap { id in
                    view.participants.first { $0.user.id == id }?.user ?? view.departed?.first { $0.user.id == id }?.user
                }
            }
            let ballots = save.filter { $0.kind == .ballot }
            let swipes = save.filter { $0.kind == .swipe }
            // A `ballot` event for each ballot, and one `swipe` event for each person who answered in the save however
            // many places (at their last row): who, never what, never which place. In the feed's order.
            let lastSwipes = Dictionary(swipes.map { ($0.detail ?? "", $0) }, uniquingKeysWith: { _, last in last }).values
            for event in (ballots + lastSwipes).sorted(by: { $0.position < $1.position }) {
                let who = person(event)
                let data = try decision.eventData(
                    event.kind == .ballot ? DecisionEvent(version: version, voter: who) : DecisionEvent(version: version, swiper: who)
                )
                rendered.messages.append(.event(id: event.id(generation), name: event.kind == .ballot ? "ballot" : "swipe", data: data))
            }
            let roundEnded = save.last { $0.kind == .round }
            if let roundEnded {
                let data = try decision.eventData(DecisionEvent(version: version))
                rendered.messages.append(.event(id: roundEnded.id(generation), name: "roundEnded", data: data))
            }
            guard let saved = save.last(where: { $0.kind == .decision }) else { continue }
            if saved.detail != Decision.Status.active.rawValue, let last = save.last {
                let id = EventID(last.position, generation: generation, final: true).description
                rendered.messages.append(.event(id: id, name: "ended", data: try decision.eventData(DecisionEvent(version: version))))
                rendered.final = true
            } else if ballots.isEmpty, swipes.isEmpty, roundEnded == nil {
                rendered.messages.append(
                    .event(id: saved.id(generation), name: "update", data: try decision.eventData(DecisionEvent(version: version)))
                )
            }
        }
        return rendered
    }

    /// One line of JSON.
    static func data(_ value: some Encodable) throws -> String {
        String(decoding: try PlacesJSON.makeEncoder().encode(value), as: UTF8.self)
    }
}

extension FeedEvent {
    /// The id its stream event carries, in the database of `generation`.
    func id(_ generation: String) -> String { EventID(position, generation: generation).description }
}
