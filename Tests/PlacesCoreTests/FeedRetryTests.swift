import Testing

@testable import PlacesCore

/// How soon a feed reader looks again while changes wait above the horizon. The waits are only computed here, never
/// waited for.
@Suite("A feed reader's retry while changes wait above the horizon")
struct FeedRetryTests {
    @Test func nothingWaitingMeansNoRetry() {
        var retry = FeedRetry(poll: .seconds(1))
        #expect(retry.after(pending: false, movedOn: false) == nil)
        #expect(retry.after(pending: false, movedOn: true) == nil)
    }

    @Test func aHorizonThatStaysHeldDoublesTheWaitUpToThePoll() {
        var retry = FeedRetry(poll: .seconds(1))
        let waits = (0..<10).map { _ in retry.after(pending: true, movedOn: false) }
        let expected: [Duration] = [5, 10, 20, 40, 80, 160, 320, 640, 1000, 1000].map { .milliseconds($0) }
        #expect(waits == expected)
    }

    /// The bug that 50 ballots at once showed: every read of the burst found changes waiting, the wait doubled up to
    /// the poll, and the burst's last events reached their streams a second late. A read that moves the reader on
    /// starts again from 5 ms.
    @Test func aReadThatMovedOnStartsAgainFromTheFirstWait() {
        var retry = FeedRetry(poll: .seconds(1))
        for _ in 0..<8 { _ = retry.after(pending: true, movedOn: false) }
        #expect(retry.after(pending: true, movedOn: true) == .milliseconds(5))
        #expect(retry.after(pending: true, movedOn: false) == .milliseconds(10))
        for _ in 0..<20 { #expect(retry.after(pending: true, movedOn: true) == .milliseconds(5)) }
    }

    @Test func aReadWithNothingWaitingStartsAgainFromTheFirstWait() {
        var retry = FeedRetry(poll: .seconds(1))
        for _ in 0..<8 { _ = retry.after(pending: true, movedOn: false) }
        #expect(retry.after(pending: false, movedOn: false) == nil)
        #expect(retry.after(pending: true, movedOn: false) == .milliseconds(5))
    }

    @Test func aPollShorterThanTheFirstWaitCapsIt() {
        var retry = FeedRetry(poll: .milliseconds(2))
        #expect(retry.after(pending: true, movedOn: false) == .milliseconds(2))
        #expect(retry.after(pending: true, movedOn: true) == .milliseconds(2))
    }
}
