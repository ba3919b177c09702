import Foundation

/// What live streams need of the database: the change feed's events, and the leases that count a person's open
/// streams across instances.
///
/// A stream's lease is a row (id, person, holder, expiry), never a connection: the instance holding streams renews
/// its leases together, and the leases of an instance that died expire on their own, so they stop counting.
public protocol LiveRepository: Sendable {
    /// The feed's events after `position` that streams carry or act on (every kind of `FeedEvent.Kind`), up to the
    /// feed's horizon and at most `limit`, in feed order. With a nil position: none, and `through` is the horizon (a
    /// reader starts there).
    func events(after position: FeedPosition?, limit: Int) async throws -> FeedEvents
    /// The events of `topic` after `position` and before `end`, in feed order, at most `limit`: what a stream that
    /// resumes from `position` missed.
    func events(of topic: FeedTopic, after position: FeedPosition, before end: FeedPosition, limit: Int) async throws -> [FeedEvent]

    /// Opens stream `id` for `userID`, held by `holder` until `expiresAt`, when the person holds fewer than `allowed`
    /// streams unexpired at `now` (counted across every holder, in one transaction that no other opening for the same
    /// person overlaps); false (and nothing stored) when they hold as many already.
    func openStream(id: String, userID: String, holder: String, now: Date, until expiresAt: Date, allowed: Int) async throws -> Bool
    /// Moves the expiry of every stream `holder` holds to `expiresAt`.
    func renewStreams(holder: String, until expiresAt: Date) async throws
    /// Closes stream `id` (nothing when it is not open).
    func closeStream(id: String) async throws
    /// Closes every stream `holder` holds.
    func closeStreams(holder: String) async throws

    /// Rung whenever a write of this process commits, so that streams hear of it at once.
    var commits: Doorbells { get }
}
