/// The moment by which the database work of one request must be done, shared by every access the request makes.
///
/// A request reads and writes the database several times (a ballot signs in, reads the decision, saves it); bounding
/// each access on its own would let a database that stopped answering hold the request for the sum of the bounds.
/// The edge sets one deadline for the whole request; an engine that can wait on a server (PostgreSQL) answers
/// `unavailable` once it has passed. Work that runs outside a request (seeds, copies, the index's full load, event
/// streams) sets none and bounds itself.
public enum DatabaseDeadline {
    /// The deadline of the work under way, if it has one.
    @TaskLocal public static var current: ContinuousClock.Instant?

    /// Runs `body` with a deadline `duration` from now, or the current one when that comes sooner.
    public static func within<T>(
        _ duration: Duration,
        isolation: isolated (any Actor)? = #isolation,
        _ body: () async throws -> T
    ) async rethrows -> T {
        let deadline = ContinuousClock.now + duration
        let sooner = current.map { min($0, deadline) } ?? deadline
        return try await $current.withValue(sooner, operation: body, isolation: isolation)
    }

    /// Runs `body` with a deadline `duration` from now, whatever the current one: work that outlives its request's
    /// handler (each chunk of a photo being served, read after the handler returned) bounds each of its accesses.
    public static func own<T>(
        _ duration: Duration,
        isolation: isolated (any Actor)? = #isolation,
        _ body: () async throws -> T
    ) async rethrows -> T {
        try await $current.withValue(ContinuousClock.now + duration, operation: body, isolation: isolation)
    }
}
