/// The index's sync as a subscriber of the change feed: each read applies what other processes (`places seed` on the
/// same file, other instances) committed since the index's revision. A write of this process needs no wake-up: it
/// waits for its own sync before it answers.
public struct IndexSubscriber: FeedSubscriber {
    let places: PlaceService
    public let polls: FeedPolls
    /// Told how many places a read changed, when it changed any (the server logs it).
    let pickedUp: @Sendable (Int) -> Void

    /// The sync of `places`' index, polling every `poll` (whether or not the other instances' announcements are heard:
    /// the index follows a writer outside the service, such as psql, within it).
    public init(_ places: PlaceService, poll: Duration = .seconds(1), pickedUp: @escaping @Sendable (Int) -> Void = { _ in }) {
        self.places = places
        polls = FeedPolls(alone: poll, listening: poll)
        self.pickedUp = pickedUp
    }

    public var name: String { "index sync" }

    public var wakesOnOwnCommits: Bool { false }

    public func readFeed() async throws -> FeedRead? {
        let revision = places.indexRevision
        let changed = try await places.syncIndex()
        if changed > 0 { pickedUp(changed) }
        return FeedRead(movedOn: places.indexRevision > revision, pending: places.feedPending)
    }
}
