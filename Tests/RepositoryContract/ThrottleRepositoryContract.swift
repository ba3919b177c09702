import Foundation
import PlacesCore
import Testing

/// What every engine keeps true of the login throttle's counts: the check and the count are one step (a burst sent at
/// once lets exactly the bound through), an attempt counts under all its limits or none, windows slide by the clock
/// the caller passes, and withdrawn or forgiven attempts stop counting. The cases that go through `LoginThrottle` pin
/// the policy's answers (the errors and the seconds to wait) on every engine.
enum ThrottleRepositoryContract {
    static var cases: [ContractCase] {
        [
            ContractCase("throttle", "of 30 attempts counted at once under a bound of 10, exactly 10 are counted") { store in
                let throttle = store.throttle
                let limit = ThrottleLimit(key: "pair\u{1F}ann\u{1F}1.1.1.1", bound: 10, window: 60)
                let verdicts = try await withThrowingTaskGroup(of: ThrottleVerdict.self) { tasks in
                    for index in 0..<30 {
                        tasks.addTask { try await throttle.count("attempt-\(index)", at: Sample.now, under: [limit]) }
                    }
                    return try await tasks.reduce(into: [ThrottleVerdict]()) { $0.append($1) }
                }
                #expect(verdicts.filter { $0 == .counted }.count == 10)
                #expect(verdicts.filter { $0 == .refused(until: Sample.at(60)) }.count == 20)
                #expect(try await throttle.count("late", at: Sample.at(59), under: [limit]) == .refused(until: Sample.at(60)))
            },
            ContractCase("throttle", "logins begun at once from several tasks are bounded: 10 of 30 pass, the rest are told to wait") { store in
                let throttle = LoginThrottle(repository: store.throttle)
                let outcomes = await withTaskGroup(of: Int?.self) { tasks in
                    for _ in 0..<30 {
                        tasks.addTask {
                            do {
                                _ = try await throttle.begin(account: "user:u-1", address: "1.1.1.1", now: Sample.now)
                                return nil
                            } catch let error as PlacesError where error.code == .tooManyAttempts {
                                return error.retryAfterSeconds
                            } catch {
                                return -1
                            }
                        }
                    }
                    return await tasks.reduce(into: [Int?]()) { $0.append($1) }
                }
                #expect(outcomes.filter { $0 == nil }.count == 10, "\(outcomes)")
                #expect(outcomes.filter { $0 == 15 * 60 }.count == 20, "\(outcomes)")
            },
            ContractCase("throttle", "the window slides: an attempt stops counting once it is the window old") { store async throws in
                let throttle = store.throttle
                let limit = ThrottleLimit(key: "k", bound: 3, window: 60)
                for (index, second) in [0, 10, 20].enumerated() {
                    #expect(try await throttle.count("a\(index)", at: Sample.at(second), under: [limit]) == .counted)
                }
                // Refused until the oldest of the three leaves the window; then one slot opens, then the next.
                #expect(try await throttle.count("b", at: Sample.at(30), under: [limit]) == .refused(until: Sample.at(60)))
                #expect(try await throttle.count("c", at: Sample.at(60), under: [limit]) == .counted)
                #expect(try await throttle.count("d", at: Sample.at(61), under: [limit]) == .refused(until: Sample.at(70)))
                #expect(try await throttle.count("e", at: Sample.at(70), under: [limit]) == .counted)
                // Long after, every old attempt is gone (and deleted as counting went on): the whole bound is free.
                for index in 0..<3 {
                    #expect(try await throttle.count("f\(index)", at: Sample.at(1_000), under: [limit]) == .counted)
                }
                #expect(try await throttle.count("g", at: Sample.at(1_000), under: [limit]) == .refused(until: Sample.at(1_060)))
            },
            ContractCase("throttle", "an attempt counts under all its limits or none, and a refusal names the latest opening") { store async throws in
                let throttle = store.throttle
                let pair = ThrottleLimit(key: "pair-ann", bound: 2, window: 60)
                let other = ThrottleLimit(key: "pair-bob", bound: 2, window: 60)
                let address = ThrottleLimit(key: "address", bound: 3, window: 600)
                #expect(try await throttle.count("a1", at: Sample.at(0), under: [pair, address]) == .counted)
                #expect(try await throttle.count("a2", at: Sample.at(1), under: [pair, address]) == .counted)
                // The pair is full: refused, and the address did not count it.
                #expect(try await throttle.count("a3", at: Sample.at(2), under: [pair, address]) == .refused(until: Sample.at(60)))
                #expect(try await throttle.count("b1", at: Sample.at(3), under: [other, address]) == .counted)
                // Now both are full: the attempt waits for the later of the two openings.
                #expect(try await throttle.count("a4", at: Sample.at(4), under: [pair, address]) == .refused(until: Sample.at(600)))
                #expect(try await throttle.count("b2", at: Sample.at(5), under: [other, address]) == .refused(until: Sample.at(600)))
            },
            ContractCase("throttle", "a withdrawn attempt stops counting under every key, and a cleared key forgets its attempts") { store in
                let throttle = store.throttle
                let pair = ThrottleLimit(key: "pair", bound: 2, window: 60)
                let address = ThrottleLimit(key: "address", bound: 4, window: 60)
                #expect(try await throttle.count("a1", at: Sample.now, under: [pair, address]) == .counted)
                #expect(try await throttle.count("a2", at: Sample.now, under: [pair, address]) == .counted)
                try await throttle.withdraw("a1", clearing: [])
                #expect(try await throttle.count("a3", at: Sample.now, under: [pair, address]) == .counted)
                // a3 succeeded: it gives its slot back and the pair starts over, but the address keeps a2.
                try await throttle.withdraw("a3", clearing: ["pair"])
                #expect(try await throttle.count("a4", at: Sample.now, under: [pair, address]) == .counted)
                #expect(try await throttle.count("a5", at: Sample.now, under: [pair, address]) == .counted)
                #expect(try await throttle.count("a6", at: Sample.now, under: [pair, address]) == .refused(until: Sample.at(60)))
                // The address holds a2, a4 and a5: one more fills it.
                #expect(try await throttle.count("c1", at: Sample.now, under: [address]) == .counted)
                #expect(try await throttle.count("c2", at: Sample.now, under: [address]) == .refused(until: Sample.at(60)))
                // Withdrawing an attempt nobody counted changes nothing.
                try await throttle.withdraw("never", clearing: ["unknown"])
                #expect(try await throttle.count("c3", at: Sample.now, under: [address]) == .refused(until: Sample.at(60)))
            },
        ] + policyCases
    }

    /// The login throttle's policy over the store's counts.
    static var policyCases: [ContractCase] {
        [
            ContractCase("throttle", "ten wrong passwords spread over three instances' throttles throttle the eleventh on each") { store in
                // Each instance builds its own throttle over the shared database; none keeps a count of its own.
                let instances = (0..<3).map { _ in LoginThrottle(repository: store.throttle) }
                for attempt in 0..<10 {
                    _ = try await instances[attempt % 3].begin(account: "user:u-1", address: "1.1.1.1", now: Sample.at(attempt))
                }
                for throttle in instances {
                    await expectError(.tooManyAttempts) { _ = try await throttle.begin(account: "user:u-1", address: "1.1.1.1", now: Sample.at(10)) }
                }
            },
            ContractCase("throttle", "logins are counted per account and address and per address, in a sliding window") { store in
                let throttle = LoginThrottle(repository: store.throttle, policy: .init(perAccountAndAddress: 3, perAddress: 5, window: 60))
                for _ in 0..<3 { _ = try await throttle.begin(account: "ada", address: "1.1.1.1", now: Sample.now) }
                await expectError(.tooManyAttempts) { _ = try await throttle.begin(account: "ada", address: "1.1.1.1", now: Sample.now) }
                // The same account from elsewhere, and another account from here, still get in (each attempt counts).
                _ = try await throttle.begin(account: "ada", address: "2.2.2.2", now: Sample.now)
                _ = try await throttle.begin(account: "bob", address: "1.1.1.1", now: Sample.now)
                // The per-address bound catches one address trying many accounts.
                _ = try await throttle.begin(account: "cy", address: "1.1.1.1", now: Sample.now)
                do {
                    _ = try await throttle.begin(account: "dee", address: "1.1.1.1", now: Sample.at(10))
                    Issue.record("expected too_many_attempts")
                } catch let error as PlacesError {
                    #expect(error.code == .tooManyAttempts)
                    #expect(error.retryAfterSeconds == 50)
                }
                // The window slides.
                _ = try await throttle.begin(account: "ada", address: "1.1.1.1", now: Sample.at(60))
            },
            ContractCase("throttle", "a login's success gives its slot back, and a withdrawn attempt counts for nothing") { store in
                let throttle = LoginThrottle(repository: store.throttle, policy: .init(perAccountAndAddress: 2, perAddress: 3, window: 60))
                _ = try await throttle.begin(account: "ada", address: "1.1.1.1", now: Sample.now)
                try await throttle.withdraw(try await throttle.begin(account: "ada", address: "1.1.1.1", now: Sample.now))
                // One failure counted, one withdrawn: a second attempt is allowed, and its success clears the pair.
                try await throttle.succeeded(try await throttle.begin(account: "ada", address: "1.1.1.1", now: Sample.now))
                _ = try await throttle.begin(account: "ada", address: "1.1.1.1", now: Sample.now)
                _ = try await throttle.begin(account: "ada", address: "1.1.1.1", now: Sample.now)
                await expectError(.tooManyAttempts) { _ = try await throttle.begin(account: "ada", address: "1.1.1.1", now: Sample.now) }
                // The address kept its three failures (the success gave its own slot back only).
                await expectError(.tooManyAttempts) { _ = try await throttle.begin(account: "bob", address: "1.1.1.1", now: Sample.now) }
            },
            ContractCase("throttle", "registrations are counted per address, and the answer says how long to wait") { store in
                let throttle = LoginThrottle(repository: store.throttle, policy: .init(registrationsPerAddress: 2, registrationWindow: 3_600))
                _ = try await throttle.beginRegistration(address: "1.1.1.1", now: Sample.now)
                try await throttle.withdraw(try await throttle.beginRegistration(address: "1.1.1.1", now: Sample.now))
                _ = try await throttle.beginRegistration(address: "1.1.1.1", now: Sample.now)
                do {
                    _ = try await throttle.beginRegistration(address: "1.1.1.1", now: Sample.at(600))
                    Issue.record("expected too_many_attempts")
                } catch let error as PlacesError {
                    #expect(error.code == .tooManyAttempts)
                    #expect(error.retryAfterSeconds == 3_000)
                }
                _ = try await throttle.beginRegistration(address: "2.2.2.2", now: Sample.now)
                // Logins from the address are counted apart from its registrations.
                _ = try await throttle.begin(account: "ada", address: "1.1.1.1", now: Sample.at(600))
            },
        ]
    }
}
