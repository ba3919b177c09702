import Synchronization

/// Whether the request under way has committed a change, for the answer it gets when a later step fails.
///
/// A request may commit and then fail (the database stops answering while the answer is read back, or while the index
/// catches up with the write): its client must not be told `unavailable` (nothing changed, retry) then, since a retry
/// would make a second place or decision. The edge sets one for each request; each engine marks it when a writing
/// access commits; the edge turns a later `unavailable` into `outcome_unknown`.
public final class RequestWrites: Sendable {
    /// The request's, if the work under way is one.
    @TaskLocal public static var current: RequestWrites?

    private let flag = Atomic<Bool>(false)

    public init() {}

    /// A writing access of the request committed.
    public func committed() { flag.store(true, ordering: .relaxed) }

    /// True once the request committed a change.
    public var hasCommitted: Bool { flag.load(ordering: .relaxed) }
}
