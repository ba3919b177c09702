import Foundation
import PlacesCore
import Synchronization
import Testing

/// What every engine keeps true of leases: a lease is taken when free or expired, renewed only by its holder, refused
/// to anyone else while it runs, taken over once it expires, and of instances that try at once exactly one gets it.
enum LeaseRepositoryContract {
    static var cases: [ContractCase] {
        [
            ContractCase("leases", "a free lease is taken, renewed by its holder, and refused to another until it expires") { store async throws in
                let leases = store.leases
                #expect(try await leases.holder(of: "deadlines", now: Sample.now) == nil)
                #expect(try await leases.acquire("deadlines", holder: "a", now: Sample.now, until: Sample.at(15)))
                #expect(try await leases.holder(of: "deadlines", now: Sample.now) == "a")
                #expect(try await leases.acquire("deadlines", holder: "b", now: Sample.at(5), until: Sample.at(20)) == false)
                // The holder renews it; the other is still refused after the first expiry would have passed.
                #expect(try await leases.acquire("deadlines", holder: "a", now: Sample.at(5), until: Sample.at(20)))
                #expect(try await leases.acquire("deadlines", holder: "b", now: Sample.at(16), until: Sample.at(31)) == false)
                #expect(try await leases.holder(of: "deadlines", now: Sample.at(19)) == "a")
                // Expired (its holder died or lost the database): another takes it over, and the old holder is refused.
                #expect(try await leases.holder(of: "deadlines", now: Sample.at(20)) == nil)
                #expect(try await leases.acquire("deadlines", holder: "b", now: Sample.at(20), until: Sample.at(35)))
                #expect(try await leases.acquire("deadlines", holder: "a", now: Sample.at(21), until: Sample.at(36)) == false)
                #expect(try await leases.holder(of: "deadlines", now: Sample.at(21)) == "b")
            },
            ContractCase("leases", "taking, renewing and releasing a lease ring no reader of the feed awake") { store in
                let leases = store.leases
                let bell = Doorbell()
                store.feed.commits.add(bell)
                _ = bell.rangSinceLastLook()
                #expect(try await leases.acquire("deadlines", holder: "a", now: Sample.now, until: Sample.at(15)))
                #expect(try await leases.acquire("deadlines", holder: "a", now: Sample.at(5), until: Sample.at(20)))
                #expect(try await leases.acquire("deadlines", holder: "b", now: Sample.at(6), until: Sample.at(21)) == false)
                try await leases.release("deadlines", holder: "a")
                #expect(!bell.rangSinceLastLook())
                try await store.places.seed([Sample.place("a")])
                #expect(bell.rangSinceLastLook(), "a write that adds to the feed does")
            },
            ContractCase("leases", "a released lease is free at once; only its holder releases it, and names are apart") { store in
                let leases = store.leases
                #expect(try await leases.acquire("deadlines", holder: "a", now: Sample.now, until: Sample.at(15)))
                #expect(try await leases.acquire("reports", holder: "b", now: Sample.now, until: Sample.at(15)))
                try await leases.release("deadlines", holder: "b")
                #expect(try await leases.holder(of: "deadlines", now: Sample.now) == "a")
                try await leases.release("deadlines", holder: "a")
                #expect(try await leases.holder(of: "deadlines", now: Sample.now) == nil)
                #expect(try await leases.acquire("deadlines", holder: "c", now: Sample.at(1), until: Sample.at(16)))
                #expect(try await leases.holder(of: "reports", now: Sample.at(1)) == "b")
            },
            ContractCase("leases", "of twelve instances taking a free lease at once, exactly one gets it, and again once it expired") { store in
                let leases = store.leases
                for (now, until) in [(Sample.now, Sample.at(15)), (Sample.at(15), Sample.at(30))] {
                    let winners = try await withThrowingTaskGroup(of: String?.self) { tasks in
                        for index in 0..<12 {
                            tasks.addTask {
                                let holder = "instance-\(index)-\(now.timeIntervalSince(Sample.now))"
                                return try await leases.acquire("deadlines", holder: holder, now: now, until: until) ? holder : nil
                            }
                        }
                        return try await tasks.reduce(into: [String]()) { if let holder = $1 { $0.append(holder) } }
                    }
                    #expect(winners.count == 1, "\(winners)")
                    #expect(try await leases.holder(of: "deadlines", now: now) == winners.first)
                }
            },
            ContractCase("leases", "a Lease renews itself each round, and another instance takes over within 15 s of its last round") { store in
                let clock = ContractClock(Sample.now)
                let first = Lease("deadlines", repository: store.leases, holder: "first", clock: { clock.now })
                let second = Lease("deadlines", repository: store.leases, holder: "second", clock: { clock.now })
                // Rounds every 5 seconds: the first keeps it, the second skips.
                for _ in 0..<4 {
                    #expect(try await first.acquire())
                    #expect(try await second.acquire() == false)
                    clock.advance(5)
                }
                // The first stops (it died): the second's rounds are refused until its last renewal runs out.
                let lastRenewal = clock.now.addingTimeInterval(-5)
                var takenAt: Date?
                for _ in 0..<4 where takenAt == nil {
                    if try await second.acquire() { takenAt = clock.now }
                    clock.advance(5)
                }
                // Taken at the first round once the lease ran out: within 15 seconds of the first's last round.
                let taken = try #require(takenAt)
                #expect(taken.timeIntervalSince(lastRenewal) >= Lease.defaultDuration)
                #expect(taken.timeIntervalSince(lastRenewal) <= 15)
                #expect(try await first.acquire() == false)
            },
        ]
    }
}

/// A clock a case moves by hand.
final class ContractClock: Sendable {
    private let moment: Mutex<Date>

    init(_ start: Date) { moment = Mutex(start) }

    /// The time now.
    var now: Date { moment.withLock { $0 } }

    /// Moves the clock `seconds` on.
    func advance(_ seconds: TimeInterval) { moment.withLock { $0.addTimeInterval(seconds) } }
}
