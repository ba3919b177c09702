import Foundation
import Synchronization
import Testing

@testable import PlacesCore

/// The one reader of the feed behind every stream of an instance: it reads once for all of them and hands each what
/// concerns it; a stream that does not keep up is ended without holding the others up.
@Suite("Live feed")
struct LiveFeedTests {
    /// A feed in memory: the events appended so far, and how many times it was read.
    /// While `heldAt` is set, a transaction at it is open: the horizon stays there, and the events above it wait.
    final class MemoryFeed: LiveRepository, ChangeFeedRepository {
        private let state = Mutex<(events: [FeedEvent], heldAt: Int64?)>(([], nil))
        let commits = Doorbells()
        /// The reads from a position (not those that only find where to start).
        let readCount = ReadCount()

        var reads: Int { readCount.value }

        func append(_ event: FeedEvent) {
            state.withLock { $0.events.append(event) }
            commits.ring()
        }

        /// Holds the horizon at `transaction` (nil lets it go), without ringing anything.
        func hold(at transaction: Int64?) {
            state.withLock { $0.heldAt = transaction }
        }

        func events(after position: FeedPosition?, limit: Int) async throws -> FeedEvents {
            if position != nil { readCount.add() }
            return state.withLock { state in
                var horizon = FeedPosition.horizon((state.events.last?.position.transaction ?? 0) + 1)
                if let held = state.heldAt { horizon = min(horizon, .horizon(held)) }
                let waiting = state.events.contains { $0.position >= horizon }
                guard let position else {
                    return FeedEvents(events: [], through: horizon, generation: "g", prunedBelow: 0, pending: waiting)
                }
                let events = Array(state.events.filter { $0.position > position && $0.position < horizon }.prefix(limit))
                return FeedEvents(events: events, through: max(horizon, position), generation: "g", prunedBelow: 0, pending: waiting)
            }
        }

        func events(of topic: FeedTopic, after position: FeedPosition, before end: FeedPosition, limit: Int) async throws -> [FeedEvent] {
            state.withLock { $0.events.filter { topic.carries($0) && $0.position > position && $0.position < end } }
        }

        func openStream(id: String, userID: String, holder: String, now: Date, until expiresAt: Date, allowed: Int) async throws -> Bool { true }
        func renewStreams(holder: String, until expiresAt: Date) async throws {}
        func closeStream(id: String) async throws {}
        func closeStreams(holder: String) async throws {}

        func feedHorizonAge() async throws -> Double { 0 }
        func pruneFeed(writtenBefore date: Date) async throws -> Int { 0 }
    }

    /// `feed`'s rounds and the change feed's following of it, until cancelled: subscribed at once (a commit from now
    /// on wakes it), read in a task of its own.
    static func running(_ feed: LiveFeed, over memory: MemoryFeed) -> (task: Task<Void, Never>, changes: ChangeFeed) {
        let changes = ChangeFeed(repository: memory)
        let following = changes.subscribe([feed])
        let task = Task {
            async let rounds: Void = feed.run()
            async let reads: Void = following.run()
            _ = await (rounds, reads)
        }
        return (task, changes)
    }

    static func ballot(_ position: Int64, decision: String) -> FeedEvent {
        FeedEvent(position: FeedPosition(transaction: position, row: position), kind: .ballot, subject: decision, detail: "u-ana", version: position)
    }

    /// Settings whose timed rounds never come within a test, however long a busy machine makes it: no keep-alive and
    /// no poll, so every signal a stream gets and every read of the feed is one the test caused by appending. (With the
    /// default keep-alive of 15 s, a run that starved the test that long handed a stream a keep-alive where the test
    /// waited for its events; with a poll of 60 s, a run as slow would read the feed once more than the test counts.)
    static func quiet(pending: Int = LiveFeed.Settings().pending) -> LiveFeed.Settings {
        let never = Duration.seconds(365 * 86_400)
        return LiveFeed.Settings(keepAlive: never, pending: pending, poll: never, listeningPoll: never)
    }

    static func interest(_ decision: String, user: String = "u-ben") -> LiveFeed.Interest {
        LiveFeed.Interest(topic: .decision(decision), userID: user, tokenHash: "t-\(user)", group: .group("g-1"))
    }

    /// The next signal of `subscription`, or nil when it ended or none came within the guard's time.
    static func next(_ subscription: LiveFeed.Subscription) async -> LiveFeed.Signal? {
        await withTaskGroup(of: LiveFeed.Signal?.self) { group in
            group.addTask {
                var iterator = subscription.signals.makeAsyncIterator()
                return await iterator.next()
            }
            group.addTask {
                try? await Task.sleep(for: .seconds(30))
                return nil
            }
            defer { group.cancelAll() }
            return await group.next() ?? nil
        }
    }

    @Test func oneReadServesEveryStreamAndEachGetsOnlyItsTopic() async throws {
        let memory = MemoryFeed()
        let feed = LiveFeed(repository: memory, settings: Self.quiet())
        let running = Self.running(feed, over: memory).task
        defer { running.cancel() }
        var followers: [LiveFeed.Subscription] = []
        for _ in 0..<20 { followers.append(try await feed.subscribe(Self.interest("d-1"))) }
        let other = try await feed.subscribe(Self.interest("d-2"))
        let readsBefore = memory.reads
        memory.append(Self.ballot(5, decision: "d-1"))
        var shared: [ObjectIdentifier] = []
        for follower in followers {
            guard case .events(let events, let reads)? = await Self.next(follower) else {
                Issue.record("a stream of d-1 got nothing")
                continue
            }
            #expect(events.map(\.position.row) == [5])
            shared.append(ObjectIdentifier(reads))
        }
        // One read of the feed for the twenty streams, whatever the number of streams, and one set of reads for them
        // to share (what the event shows is read once for the topic).
        #expect(memory.reads - readsBefore == 1)
        #expect(Set(shared).count == 1)
        memory.append(Self.ballot(6, decision: "d-2"))
        guard case .events(let events, let reads)? = await Self.next(other) else {
            Issue.record("the stream of d-2 got nothing")
            return
        }
        #expect(events.map(\.subject) == ["d-2"], "d-1's ballot never reached it")
        #expect(!shared.contains(ObjectIdentifier(reads)), "another delivery, another topic: reads of their own")
    }

    /// Events committed behind a transaction still open are read again once it ends, though nothing rings and no poll
    /// comes: the reader's own retry (`FeedRetry`) looks again.
    @Test func eventsWaitingAboveTheHorizonAreReadWithoutAPollOrAWakeUp() async throws {
        let memory = MemoryFeed()
        let feed = LiveFeed(repository: memory, settings: Self.quiet())
        let running = Self.running(feed, over: memory).task
        defer { running.cancel() }
        let stream = try await feed.subscribe(Self.interest("d-1"))
        memory.hold(at: 3)
        memory.append(Self.ballot(5, decision: "d-1"))
        // The append's ring reads the feed, which finds the ballot waiting; then the transaction at 3 ends in silence.
        #expect(await memory.readCount.reaches(1))
        memory.hold(at: nil)
        guard case .events(let events, _)? = await Self.next(stream) else {
            Issue.record("the waiting ballot never reached the stream")
            return
        }
        #expect(events.map(\.position.row) == [5])
    }

    /// Listening starting (the engine's notifications arriving again) reads the feed at once: what was announced while
    /// nobody listened was lost.
    @Test func listeningStartingReadsTheFeedAtOnce() async throws {
        let memory = MemoryFeed()
        let feed = LiveFeed(repository: memory, settings: Self.quiet())
        let (running, changes) = Self.running(feed, over: memory)
        defer { running.cancel() }
        _ = try await feed.subscribe(Self.interest("d-1"))
        #expect(memory.reads == 0)
        changes.listening(true)
        #expect(await memory.readCount.reaches(1))
        changes.listening(false)
    }

    /// A subscriber that only counts its reads.
    final class CountingSubscriber: FeedSubscriber {
        let name = "counting"
        let polls = FeedPolls(alone: .seconds(365 * 86_400), listening: .seconds(365 * 86_400))
        let wakesOnOwnCommits: Bool
        let reads = ReadCount()

        init(wakesOnOwnCommits: Bool) { self.wakesOnOwnCommits = wakesOnOwnCommits }

        func readFeed() async throws -> FeedRead? {
            reads.add()
            return FeedRead(movedOn: false, pending: false)
        }
    }

    /// The index's sync waits for no wake-up from this process's commits (a write waits for its own sync), the streams'
    /// reader does; another instance's announcement wakes both.
    @Test func ownCommitsWakeOnlyTheSubscribersThatFollowThem() async throws {
        let memory = MemoryFeed()
        let changes = ChangeFeed(repository: memory)
        let own = CountingSubscriber(wakesOnOwnCommits: true)
        let others = CountingSubscriber(wakesOnOwnCommits: false)
        let following = changes.subscribe([own, others])
        #expect(memory.commits.count == 1)
        let running = Task { await following.run() }
        defer { running.cancel() }
        memory.commits.ring()
        #expect(await own.reads.reaches(1))
        changes.wake()
        #expect(await own.reads.reaches(2))
        #expect(await others.reads.reaches(1))
    }

    /// A count that a test waits on without polling: each step is told to the one waiting.
    final class ReadCount: Sendable {
        private let count = Mutex(0)
        private let steps: AsyncStream<Int>
        private let step: AsyncStream<Int>.Continuation

        init() { (steps, step) = AsyncStream.makeStream(of: Int.self) }

        var value: Int { count.withLock { $0 } }

        func add() {
            let value = count.withLock { count in
                count += 1
                return count
            }
            step.yield(value)
        }

        /// True once the count reaches `target`; false when 30 s pass first (a guard against a hang, not a measure).
        func reaches(_ target: Int) async -> Bool {
            if value >= target { return true }
            return await withTaskGroup(of: Bool.self) { group in
                group.addTask {
                    for await value in self.steps where value >= target { return true }
                    return false
                }
                group.addTask {
                    try? await Task.sleep(for: .seconds(30))
                    return false
                }
                defer { group.cancelAll() }
                return await group.next() ?? false
            }
        }
    }

    @Test func sharedReadsRunOnceForEveryCallerAndKeepEachKeyApart() async throws {
        final class Runs: Sendable {
            let count = Mutex(0)
        }
        let reads = SharedReads()
        let runs = Runs()
        let answers = try await withThrowingTaskGroup(of: String.self) { group in
            for _ in 0..<50 {
                group.addTask {
                    try await reads.value("decision") {
                        runs.count.withLock { $0 += 1 }
                        try await Task.sleep(for: .milliseconds(20))
                        return "d-1 as stored"
                    }
                }
            }
            return try await group.reduce(into: [String]()) { $0.append($1) }
        }
        #expect(answers == Array(repeating: "d-1 as stored", count: 50))
        #expect(runs.count.withLock { $0 } == 1)
        let none: String? = try await reads.value("group") { nil }
        #expect(none == nil)
        #expect(try await reads.value("other") { 7 } == 7)
    }

    @Test func aStreamThatDoesNotKeepUpIsEndedAndTheOthersGoOn() async throws {
        let memory = MemoryFeed()
        let feed = LiveFeed(repository: memory, settings: Self.quiet(pending: 3))
        let running = Self.running(feed, over: memory).task
        defer { running.cancel() }
        let slow = try await feed.subscribe(Self.interest("d-1", user: "u-slow"))
        let fast = try await feed.subscribe(Self.interest("d-1"))
        for position in Int64(1)...6 {
            memory.append(Self.ballot(position, decision: "d-1"))
            // The fast one reads each as it comes.
            guard case .events(let events, _)? = await Self.next(fast) else {
                Issue.record("the fast stream got nothing for \(position)")
                return
            }
            #expect(events.last?.position.row == position)
        }
        #expect(feed.ending(of: slow.id) == .tooSlow)
        #expect(feed.ending(of: fast.id) == nil)
        #expect(await slow.stop.wait(), "a write stuck on the slow client is interrupted")
    }
}
