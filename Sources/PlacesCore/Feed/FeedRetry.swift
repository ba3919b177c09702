/// How soon a reader of the change feed looks again while changes wait above the feed's horizon (committed behind a
/// transaction still open), rather than at its next poll.
///
/// 5 ms after a read that moved the reader on, then twice as late after each read that did not, up to the poll. A
/// burst of writes keeps the horizon held by one transaction or another for as long as it lasts, so that every read
/// finds changes waiting: each such read still moves the reader on, and so starts again from 5 ms, and the last
/// changes of the burst are read within milliseconds of their commit. Only a horizon that stays held (a long
/// transaction) lengthens the wait, which then costs one read a poll.
public struct FeedRetry: Sendable {
    /// The first wait, and the wait after a read that moved the reader on.
    public static let first = Duration.milliseconds(5)

    /// The longest wait: the reader's poll, which looks again anyway.
    public let poll: Duration
    private var next = FeedRetry.first

    /// A retry that waits at most `poll`.
    public init(poll: Duration) {
        self.poll = poll
    }

    /// After a read: how long to wait before looking again, or nil when nothing waits above the horizon. `movedOn` is
    /// true when the read advanced the reader's position.
    public mutating func after(pending: Bool, movedOn: Bool) -> Duration? {
        guard pending else {
            next = FeedRetry.first
            return nil
        }
        if movedOn { next = FeedRetry.first }
        let wait = min(next, poll)
        next = min(next * 2, poll)
        return wait
    }
}
