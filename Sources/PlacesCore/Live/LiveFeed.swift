import Foundation
import Synchronization

/// The one reader of the change feed for every live stream of this instance: a subscriber of the feed
/// (`ChangeFeed.follow` has it read when a write commits here or another instance announces one, and at each poll), it
/// reads the feed's events once and hands each open stream what concerns it, in memory. A stream holds no database
/// connection while it waits; the reader reads only while streams are open.
///
/// It also keeps the streams alive (a keep-alive signal to all of them every `keepAlive`), renews their leases, and ends
/// a stream that falls behind (more than `pending` signals waiting) rather than let it grow the server's memory.
public final class LiveFeed: Sendable {
    /// The bounds and rhythms of live streams.
    @PublicInit
    public struct Settings: Sendable {
        /// How often every stream gets a keep-alive (a comment), so that proxies keep it open and a client that left is
        /// noticed at the next write.
        public var keepAlive: Duration = .seconds(15)
        /// How long one stream stays open before it ends (the client resumes with `Last-Event-ID`).
        public var maxDuration: Duration = .seconds(3600)
        /// Signals a stream may have waiting for its client before it is ended as too slow.
        public var pending: Int = 256
        /// How long a stream's lease lasts unless renewed: a dead instance's streams stop counting after it.
        public var leaseTime: Duration = .seconds(20)
        /// How often this instance renews its streams' leases.
        public var renewal: Duration = .seconds(5)
        /// How often the feed is read without a wake-up (another process's write that announced nothing).
        public var poll: Duration = .seconds(1)
        /// How often it is read without a wake-up while the other instances' commits wake it
        /// (`ChangeFeed.listening(_:)`): only a writer outside the service (psql) goes unannounced then, and an idle
        /// instance reads once every few seconds.
        public var listeningPoll: Duration = .seconds(5)
        /// Streams one person may hold open at once, across instances.
        public var streamsPerUser: Int = 5
        /// Events read at most at once.
        public var readLimit: Int = 1000
    }

    /// What a stream is given.
    enum Signal: Sendable {
        /// Events of its topic, in feed order, with the reads that every stream given them shares.
        case events([FeedEvent], SharedReads)
        /// Something that may take the reader's access away happened (a member left the decision's group): look again.
        case recheck
        /// Time for a keep-alive.
        case keepAlive
    }

    /// Why the feed ended a stream.
    public enum Ending: String, Sendable {
        /// The reader's account was deleted or the session it signed in with was revoked.
        case accessLost = "access_lost"
        /// The client did not read fast enough.
        case tooSlow = "too_slow"
        /// The server is stopping.
        case shutdown
        /// The database was replaced, or the feed pruned past this instance's position: resume for a snapshot.
        case feedReset = "feed_reset"
        /// The client closed its connection.
        case clientLeft = "client_left"
    }

    /// Who listens, and to what.
    struct Interest: Sendable {
        var topic: FeedTopic
        var userID: String
        var tokenHash: String
        /// The group whose membership changes of the reader make it look again.
        var group: Membership
    }

    /// Which of its reader's memberships a stream watches.
    enum Membership: Sendable, Equatable {
        /// None: what it follows belongs to no group.
        case noGroup
        /// Not known yet (the stream joined the feed before it read what it follows): every one.
        case anyGroup
        /// This group's.
        case group(String)

        /// True when a change of the reader's membership of `groupID` concerns the stream.
        func watches(_ groupID: String) -> Bool {
            switch self {
            case .noGroup: false
            case .anyGroup: true
            case .group(let watched): watched == groupID
            }
        }
    }

    private struct Listener {
        var interest: Interest
        var continuation: AsyncStream<Signal>.Continuation
        var stop: StreamStop
    }

    private struct State {
        var position: FeedPosition?
        var generation = ""
        var prunedBelow: Int64 = 0
        var listeners: [UInt64: Listener] = [:]
        var endings: [UInt64: Ending] = [:]
        var nextID: UInt64 = 0
        var stopped = false
    }

    let repository: any LiveRepository
    /// The bounds and rhythms.
    public let settings: Settings
    /// This instance's name on its streams' leases.
    public let holder: String
    let clock: @Sendable () -> Date
    /// Where a failure of the reader's own rounds is told (the server's log).
    let report: @Sendable (String, any Error) -> Void
    private let state = Mutex(State())
    private let metrics: LiveMetrics

    /// A reader over `repository`, to be followed by the change feed.
    public init(
        repository: any LiveRepository,
        settings: Settings = Settings(),
        clock: @escaping @Sendable () -> Date = { Date() },
        metrics: LiveMetrics = LiveMetrics(),
        report: @escaping @Sendable (String, any Error) -> Void = { _, _ in }
    ) {
        self.repository = repository
        self.settings = settings
        self.clock = clock
        self.metrics = metrics
        self.report = report
        holder = RandomID.make("instance-")
    }

    /// How many streams are open on this instance.
    public var openCount: Int { state.withLock { $0.listeners.count } }

    /// Keeps alive and renews until cancelled (the change feed has it read), then ends every stream and gives up their
    /// leases.
    public func run() async {
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await self.keepAliveRounds() }
            group.addTask { await self.renewalRounds() }
            await group.waitForAll()
        }
        stop()
        // In a task of its own: this one is cancelled, and a cancelled task's database access is refused.
        let holder = holder
        let repository = repository
        _ = await Task { try? await repository.closeStreams(holder: holder) }.value
    }

    /// Ends every stream (the server is stopping); streams opened after it end at once.
    public func stop() {
        let ended = state.withLock { state in
            state.stopped = true
            return state.listeners.keys.map { $0 }
        }
        for id in ended { end(id, .shutdown) }
    }

    // MARK: Streams

    /// A stream's view of the feed: signals from `start` on, and a way to leave.
    struct Subscription: Sendable {
        let id: UInt64
        let signals: AsyncStream<Signal>
        /// Every event before this was read before the stream joined; every one after reaches it.
        let start: FeedPosition
        /// The database's generation, and where pruning stands, as the feed last saw them.
        let generation: String
        let prunedBelow: Int64
        let stop: StreamStop
    }

    /// Joins the feed: from the position the reader stands at, every event the interest concerns reaches the stream.
    func subscribe(_ interest: Interest) async throws -> Subscription {
        let (signals, continuation) = AsyncStream.makeStream(of: Signal.self, bufferingPolicy: .bufferingOldest(settings.pending))
        let stop = StreamStop()
        // The first stream sets where reading starts: the feed's horizon now (read again should the streams that were
        // open all leave meanwhile, which sets the reader back to none).
        var start: FeedEvents?
        while true {
            if start == nil, state.withLock({ $0.position == nil }) {
                start = try await repository.events(after: nil, limit: 0)
            }
            let joined = state.withLock { state -> Result<Subscription, PlacesError>? in
                guard !state.stopped else { return .failure(PlacesError(.unavailable, "the server is stopping; connect again", cause: "stopping")) }
                if state.position == nil {
                    guard let start else { return nil }
                    state.position = start.through
                    state.generation = start.generation
                    state.prunedBelow = start.prunedBelow
                }
                guard let position = state.position else { return nil }
                state.nextID += 1
                state.listeners[state.nextID] = Listener(interest: interest, continuation: continuation, stop: stop)
                let subscription = Subscription(
                    id: state.nextID,
                    signals: signals,
                    start: position,
                    generation: state.generation,
                    prunedBelow: state.prunedBelow,
                    stop: stop
                )
                return .success(subscription)
            }
            switch joined {
            case .success(let subscription)?:
                metrics.opened()
                return subscription
            case .failure(let error)?:
                continuation.finish()
                throw error
            case nil:
                continue
            }
        }
    }

    /// Narrows what memberships of its reader stream `id` watches, once it knows what it follows (it joined watching
    /// every one, so that no change between its joining and its first read went unnoticed).
    func watch(_ group: Membership, for id: UInt64) {
        state.withLock { state in state.listeners[id]?.interest.group = group }
    }

    /// Leaves the feed (the stream ended); answers why the feed ended it, when it did.
    @discardableResult
    func leave(_ id: UInt64) -> Ending? {
        let (listener, ending) = state.withLock { state in
            let listener = state.listeners.removeValue(forKey: id)
            if state.listeners.isEmpty { state.position = nil }
            return (listener, state.endings.removeValue(forKey: id))
        }
        if let listener {
            listener.continuation.finish()
            metrics.closed()
        }
        return ending
    }

    /// Why the feed ended stream `id`, if it did.
    func ending(of id: UInt64) -> Ending? {
        state.withLock { $0.endings[id] }
    }

    /// Ends stream `id` for `reason`: its signals stop and its writing is interrupted.
    func end(_ id: UInt64, _ reason: Ending) {
        let listener = state.withLock { state -> Listener? in
            guard let listener = state.listeners[id], state.endings[id] == nil else { return nil }
            state.endings[id] = reason
            return listener
        }
        guard let listener else { return }
        listener.continuation.finish()
        listener.stop.fire()
    }

    /// Counts an event written to a client.
    func sent() { metrics.sent() }

    // MARK: Rounds

    /// A read cut by its limit may end inside one save of a decision (its row, then its ballots'): the save's rows are
    /// left to the next read, so that a stream always sees a save whole (the ballots of the save that ended it before
    /// its end).
    static func keepSavesWhole(_ read: inout FeedEvents, limit: Int) {
        guard read.events.count >= limit, let last = read.events.last, let version = last.version else { return }
        let kept = read.events.lastIndex { $0.subject != last.subject || $0.version != version }
        guard let kept else { return }
        read.events.removeSubrange((kept + 1)...)
        read.through = read.events[kept].position
    }

    /// Hands each stream the events of `read` that concern it, and moves the reader on.
    private func deliver(_ read: FeedEvents, from position: FeedPosition) {
        var ended: [(UInt64, Ending)] = []
        state.withLock { state in
            // The last stream left meanwhile (and the next may have started elsewhere in the feed).
            guard state.position == position else { return }
            state.position = read.through
            if read.generation != state.generation || read.prunedBelow > position.transaction {
                state.generation = read.generation
                state.prunedBelow = read.prunedBelow
                ended = state.listeners.keys.map { ($0, .feedReset) }
                return
            }
            state.prunedBelow = read.prunedBelow
            guard !read.events.isEmpty else { return }
            // The streams of one topic share their reads of this delivery (the decision, read once for all of them).
            var shared: [FeedTopic: SharedReads] = [:]
            for (id, listener) in state.listeners {
                var carried: [FeedEvent] = []
                var recheck = false
                for event in read.events {
                    let interest = listener.interest
                    switch event.kind {
                    case .decision, .ballot, .swipe, .round, .message, .notification:
                        if interest.topic.carries(event) { carried.append(event) }
                    case .member:
                        if event.detail == interest.userID, interest.group.watches(event.subject) { recheck = true }
                    case .account:
                        if event.subject == interest.userID { ended.append((id, .accessLost)) }
                    case .session:
                        if event.subject == interest.userID, event.detail == interest.tokenHash { ended.append((id, .accessLost)) }
                    }
                }
                if !carried.isEmpty {
                    let reads = shared[listener.interest.topic] ?? SharedReads()
                    shared[listener.interest.topic] = reads
                    if case .dropped = listener.continuation.yield(.events(carried, reads)) { ended.append((id, .tooSlow)) }
                }
                if recheck, case .dropped = listener.continuation.yield(.recheck) { ended.append((id, .tooSlow)) }
            }
        }
        for (id, reason) in ended { end(id, reason) }
    }

    private func keepAliveRounds() async {
        while !Task.isCancelled {
            try? await Task.sleep(for: settings.keepAlive)
            if Task.isCancelled { return }
            let tooSlow = state.withLock { state in
                state.listeners.compactMap { id, listener in
                    if case .dropped = listener.continuation.yield(.keepAlive) { return id } else { return nil }
                }
            }
            for id in tooSlow { end(id, .tooSlow) }
        }
    }

    private func renewalRounds() async {
        while !Task.isCancelled {
            try? await Task.sleep(for: settings.renewal)
            if Task.isCancelled || openCount == 0 { continue }
            do {
                try await repository.renewStreams(holder: holder, until: clock().addingTimeInterval(settings.leaseTime.seconds))
            } catch {
                report("could not renew the leases of live streams", error)
            }
        }
    }
}

extension LiveFeed: FeedSubscriber {
    public var name: String { "live streams" }

    public var polls: FeedPolls { FeedPolls(alone: settings.poll, listening: settings.listeningPoll) }

    /// A stream carries the writes of this instance too.
    public var wakesOnOwnCommits: Bool { true }

    /// Reads the events after the reader's position, while any stream is open, and hands them to the streams.
    public func readFeed() async throws -> FeedRead? {
        guard let position = state.withLock({ $0.position }) else { return nil }
        var read = try await repository.events(after: position, limit: settings.readLimit)
        LiveFeed.keepSavesWhole(&read, limit: settings.readLimit)
        deliver(read, from: position)
        return FeedRead(movedOn: read.through > position, pending: read.pending)
    }
}

/// Fired when the feed ends a stream, so that a write waiting on a client that does not read is interrupted.
final class StreamStop: Sendable {
    private struct State {
        var fired = false
        var waiters: [OneAnswer<Bool>] = []
    }

    private let state = Mutex(State())

    /// Wakes every wait, now and later, with true.
    func fire() {
        let waiters = state.withLock { state in
            state.fired = true
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.give(true) }
    }

    /// True once fired; false when the task is cancelled first.
    func wait() async -> Bool {
        let answer = OneAnswer<Bool>()
        let fired = state.withLock { state in
            if state.fired { return true }
            state.waiters.append(answer)
            return false
        }
        if fired { return true }
        let stopped = (try? await answer.value(ifCancelled: .success(false))) ?? false
        state.withLock { $0.waiters.removeAll { $0 === answer } }
        return stopped
    }
}

/// Counts of live streams for the server's metrics, kept apart from the requests' own.
public struct LiveMetrics: Sendable {
    /// Called when a stream opens and closes (+1, -1), and for each event sent.
    let streamsChanged: @Sendable (Int) -> Void
    let eventSent: @Sendable () -> Void

    /// Metrics that count nowhere.
    public init() {
        self.init(streamsChanged: { _ in }, eventSent: {})
    }

    /// Metrics reported through the two closures.
    public init(streamsChanged: @escaping @Sendable (Int) -> Void, eventSent: @escaping @Sendable () -> Void) {
        self.streamsChanged = streamsChanged
        self.eventSent = eventSent
    }

    func opened() { streamsChanged(1) }
    func closed() { streamsChanged(-1) }
    func sent() { eventSent() }
}
