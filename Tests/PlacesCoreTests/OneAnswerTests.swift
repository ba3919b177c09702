import Synchronization
import Testing

@testable import PlacesCore

/// The one "this, or a time-out" primitive and the waits built on it. Nothing here measures time: a time-out is given
/// as a millisecond's limit and only waited for.
@Suite("One answer from whichever party gives it first")
struct OneAnswerTests {
    struct Refused: Error, Equatable {}

    @Test func theFirstAnswerWinsAndLaterOnesAreDropped() async throws {
        let answer = OneAnswer<Int>()
        #expect(!answer.isAnswered)
        #expect(answer.give(1))
        #expect(!answer.give(2))
        #expect(!answer.give(.failure(Refused())))
        #expect(answer.isAnswered)
        // Given before anyone waited: kept for the wait.
        #expect(try await answer.value() == 1)
    }

    @Test func aWaiterIsResumedByTheAnswerGivenWhileItWaits() async throws {
        let answer = OneAnswer<String>()
        async let waited = answer.value()
        // Given from another task, whether before or after the wait began: the waiter gets it once.
        Task { answer.give("from the work") }
        #expect(try await waited == "from the work")
        let failing = OneAnswer<String>()
        Task { failing.give(.failure(Refused())) }
        await #expect(throws: Refused.self) { try await failing.value() }
    }

    @Test func aTimeOutAnswersWhenNothingElseDoesAndStopsWhenSomethingDid() async throws {
        let late = OneAnswer<Int?>()
        late.give(.success(nil), after: .milliseconds(1))
        #expect(try await late.value() == nil)

        // Answered first: what was tied to the wait (its timer) is cancelled, at once when tied after the answer.
        let early = OneAnswer<Int?>()
        let cancelled = Mutex(0)
        early.whenAnswered { cancelled.withLock { $0 += 1 } }
        early.give(.success(nil), after: .seconds(3600))
        #expect(early.give(.success(7)))
        #expect(try await early.value() == 7)
        early.whenAnswered { cancelled.withLock { $0 += 1 } }
        #expect(cancelled.withLock { $0 } == 2)
    }

    @Test func theWaitersCancellationAnswersOnlyWhenItSaysWhat() async throws {
        let answer = OneAnswer<Bool>()
        let waiter = Task { try await answer.value(ifCancelled: .success(false)) }
        waiter.cancel()
        #expect(try await waiter.value == false)
        #expect(answer.isAnswered)

        // Without `ifCancelled` the wait goes on until another party answers.
        let patient = OneAnswer<Bool>()
        let waiting = Task { try await patient.value() }
        waiting.cancel()
        #expect(!patient.isAnswered)
        patient.give(true)
        #expect(try await waiting.value == true)
    }

    @Test func withTimeLimitAnswersTheValueOrNilAndHandsALateValueOn() async throws {
        #expect(try await withTimeLimit(.seconds(3600), { 5 }) == 5)
        await #expect(throws: Refused.self) { _ = try await withTimeLimit(.seconds(3600), { () async throws -> Int in throw Refused() }) }
        let late = Mutex<[Int]>([])
        let gate = OneAnswer<Void>()
        let answered = try await withTimeLimit(
            .milliseconds(1),
            { () async throws -> Int in
                try await gate.value()
                return 9
            },
            late: { value in late.withLock { $0.append(value) } }
        )
        #expect(answered == nil)
        gate.give()
        for _ in 0..<100_000 where late.withLock({ $0.isEmpty }) { await Task.yield() }
        #expect(late.withLock { $0 } == [9])
    }

    @Test func aDoorbellKeepsARingForTheNextWaitAndEndsAWaitOnItsTimeOrCancellation() async throws {
        let bell = Doorbell()
        // Rung while nobody waits: the next wait returns at once (and the rings count as one).
        bell.ring()
        bell.ring()
        await bell.wait(upTo: .seconds(3600))
        // Nobody rang since: the wait ends at its time.
        await bell.wait(upTo: .milliseconds(1))
        // A ring wakes the one waiting.
        async let woken: Void = bell.wait(upTo: .seconds(3600))
        for _ in 0..<100 { await Task.yield() }
        bell.ring()
        await woken
        // A cancelled wait ends.
        let waiting = Task { await bell.wait(upTo: .seconds(3600)) }
        waiting.cancel()
        await waiting.value
    }
}
