import Foundation

/// What live streams need of the database: the change feed's events, and the leases that count a person's open
/// streams across instances.
///
/// A stream is a row (id, person, holder), never a connection, and it counts while its holder's lease runs: the holder
/// (an instance) renews one row of its own, whatever the number of its streams, and when an instance dies its lease
/// lapses and all its streams stop counting at once. Lease writes add nothing to the feed, so they wake no reader.
public protocol LiveRepository: Sendable {
    /// The feed's events after `position` that streams carry or act on (every kind of `FeedEvent.Kind`), up to the
    /// feed's horizon and at most `limit`, in feed order. With a nil position: none, and `through` is the horizon (a
    /// reader starts there).
    func events(after position: FeedPosition?, limit: Int) async throws -> FeedEvents
    /// The events of `topic` after `position` and before `end`, in feed order, at most `limit`: what a stream that
    /// resumes from `position` missed.
    func events(of topic: FeedTopic, after position: FeedPosition, before end: FeedPosition, limit: Int) async throws -> [FeedEvent]

    /// Opens stream `id` for `userID`, held by `holder` (whose lease then runs at least until `expiresAt`), when the
    /// person holds fewer than `allowed` streams whose holders' leases run at `now` (counted across every holder, in one
    /// transaction that no other opening for the same person overlaps); false (and nothing stored) when they hold as
    /// many already. The streams of holders whose leases lapsed are deleted on the way.
    func openStream(id: String, userID: String, holder: String, now: Date, until expiresAt: Date, allowed: Int) async throws -> Bool
    /// Moves the expiry of `holder`'s lease to `expiresAt` (taking it again when it was deleted): one statement of one
    /// row, whatever the number of its streams, that wakes no reader of the feed.
    func renewStreams(holder: String, until expiresAt: Date) async throws
    /// Closes stream `id` (nothing when it is not open).
    func closeStream(id: String) async throws
    /// Closes every stream `holder` holds, and gives its lease up.
    func closeStreams(holder: String) async throws
}
