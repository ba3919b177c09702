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
    private let position = Atomic<Int64>(0)

    public init() {}

    /// A writing access of the request committed.
    public func committed() { flag.store(true, ordering: .relaxed) }

    /// True once the request committed a change.
    public var hasCommitted: Bool { flag.load(ordering: .relaxed) }

    /// The request's place write is in the change feed at or below `position` (its answer's `Places-Revision` is at
    /// least that, so that a client asking another instance for it waits until that instance has it).
    public func wrote(at position: Int64) { self.position.max(position, ordering: .relaxed) }

    /// The highest feed position a place write of the request is at or below; 0 when it wrote none.
    public var writePosition: Int64 { position.load(ordering: .relaxed) }
}
