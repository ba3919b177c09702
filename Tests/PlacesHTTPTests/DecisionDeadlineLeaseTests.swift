import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import PlacesCore
import PlacesSQLite
import ServiceLifecycle
import Synchronization
import Testing

@testable import PlacesHTTP

/// Several instances over one database: the deadline round runs on the one holding the lease, and another takes over
/// within 15 seconds once the holder stops (it died, or lost the database).
@Suite("The decision deadline round, one instance at a time")
struct DecisionDeadlineLeaseTests {
    @Test func onlyTheLeaseHolderPassesDeadlinesAndAnotherTakesOverWhenItStops() async throws {
        let now = Mutex(TestApp.now)
        let clock: @Sendable () -> Date = { now.withLock { $0 } }
        let database = try PlacesDatabase.inMemory()
        let app = try await TestApp.togetherServices(Lisbon.places, clock: clock, database: database).app
        // Two more instances over the same database, each with its own services and lease holder.
        let instances = try (0..<2).map { _ in
            PlacesServices(repositories: database.repositories, hasher: try TestApp.hasher(), clock: clock)
        }
        let rounds = instances.map { PeriodicService.decisionDeadlines($0.decisions, lease: $0.deadlineLease, logger: Logger(label: "test")) }
        try await app.test(.router) { client in
            let crew = try await client.crew("Crew", admin: "ana", members: ["ben"])
            let deadline = TestApp.now.addingTimeInterval(3 * 3600)
            let body: [String: Any] = [
                "groupId": crew.id, "method": "tiered", "deadline": ISO8601DateFormatter().string(from: deadline),
                "candidates": ["placeIds": ["lx-a-tasca", "lx-c-cantina"]],
            ]
            let id = try #require(try await client.object(.post, "/v1/decisions", token: crew.ana, body: body, expect: .created)["id"] as? String)
            _ = try await client.object(.put, "/v1/decisions/\(id)/ballot", token: crew.ana, body: ["ranking": ["lx-c-cantina"]])
            // Read from the database: a read through the API would pass the deadline itself.
            let status = { try await database.decisions.state(decisionID: id)?.decision.status }

            // The first instance's round takes the lease (and sends the reminder); then it dies.
            let lastRound = deadline.addingTimeInterval(-2)
            now.withLock { $0 = lastRound }
            try await rounds[0].round()
            #expect(try await client.notifications(crew.ben, kind: "decisionReminder").count == 1)
            // Past the deadline, the second instance's rounds (every 5 seconds) skip while the first's lease runs, and
            // the first round after it ran out takes it over and ends the decision.
            var seconds = 3
            while try await status() == .active, seconds <= 30 {
                now.withLock { $0 = lastRound.addingTimeInterval(TimeInterval(seconds)) }
                try await rounds[1].round()
                seconds += 5
            }
            #expect(try await status() == .completed)
            let takenOver = seconds - 5
            #expect(takenOver >= Int(Lease.defaultDuration), "the second ran it at \(takenOver) s while the first's lease ran")
            #expect(takenOver <= 15, "taken over \(takenOver) s after the first's last round")
            // The first instance, back, is refused: the second renews it every round.
            #expect(try await instances[0].deadlineLease.acquire() == false)
            #expect(try await client.notifications(crew.ben, kind: "decisionCompleted").count == 1)
        }
    }

    /// At graceful shutdown the instance gives its lease up: another takes it at its next round, not after it runs out.
    @Test func theLeaseIsReleasedAtGracefulShutdown() async throws {
        let database = try PlacesDatabase.inMemory()
        let clock: @Sendable () -> Date = { TestApp.now }
        let instance = PlacesServices(repositories: database.repositories, hasher: try TestApp.hasher(), clock: clock)
        let lease = instance.deadlineLease
        let other = Lease(lease.name, repository: database.leases, holder: "other", clock: clock)
        let deadlines = PeriodicService.decisionDeadlines(instance.decisions, lease: lease, interval: .milliseconds(1), logger: Logger(label: "test"))
        let group = ServiceGroup(services: [deadlines], logger: Logger(label: "test"))
        try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask { try await group.run() }
            // Its first round takes the lease (the clock stands still, so it never runs out).
            var rounds = 0
            while try await database.leases.holder(of: lease.name, now: TestApp.now) != lease.holder, rounds < 10_000 {
                try await Task.sleep(for: .milliseconds(1))
                rounds += 1
            }
            #expect(try await database.leases.holder(of: lease.name, now: TestApp.now) == lease.holder)
            #expect(try await other.acquire() == false, "held by the running instance")
            await group.triggerGracefulShutdown()
            try await tasks.waitForAll()
        }
        #expect(try await database.leases.holder(of: lease.name, now: TestApp.now) == nil)
        #expect(try await other.acquire(), "another instance takes it at once")
    }
}
