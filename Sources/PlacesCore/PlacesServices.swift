import Foundation

/// Every service of Places, wired once over one engine's repositories: the server answers from them and every command
/// of the CLI acts through them (the CLI is the composition root that picks the engine and builds this).
public struct PlacesServices: Sendable {
    /// Places, nearby queries, search, favourites and ratings.
    public var places: PlaceService
    /// Photos of places and people's pictures.
    public var photos: PhotoService
    /// Accounts, sessions and settings.
    public var accounts: AccountService
    /// Friends and groups.
    public var groups: GroupService
    /// Collections of places.
    public var collections: CollectionService
    /// Group decisions.
    public var decisions: DecisionService
    /// Decisions' conversations.
    public var conversations: ConversationService
    /// Notifications.
    public var notifications: NotificationService
    /// The lease of the decision deadline round: one instance at a time runs it.
    public var deadlineLease: Lease
    /// Live streams of decisions and notifications (a server runs `live.feed`).
    public var live: LiveService
    /// The change feed: its pruning (by the deadline task's holder) and its horizon.
    public var feed: ChangeFeed

    /// The service graph over `repositories`: every service reads the same clock and keeps the same usage limits, and
    /// the login throttle counts in the repositories' database with the bounds of `throttle`. The place index starts
    /// empty and is loaded when first needed (a server loads it at start with `places.loadIndex()`).
    public init(
        repositories: Repositories,
        hasher: any PasswordHasher,
        throttle: LoginThrottle.Policy = LoginThrottle.Policy(),
        hashing: HashingQueue = HashingQueue(),
        limits: UsageLimits = UsageLimits(),
        clock: @escaping @Sendable () -> Date = { Date() },
        makeSeed: @escaping @Sendable () -> UInt64 = DecisionService.secureSeed,
        live: LiveFeed.Settings = LiveFeed.Settings(),
        liveMetrics: LiveMetrics = LiveMetrics(),
        report: @escaping @Sendable (String, any Error) -> Void = { _, _ in }
    ) {
        places = PlaceService(repository: repositories.places, index: PlaceIndex(), clock: clock, limits: limits)
        photos = PhotoService(repository: repositories.photos, places: places, limits: limits, clock: clock)
        accounts = AccountService(
            repository: repositories.accounts,
            messages: repositories.messages,
            photos: repositories.photos,
            hasher: hasher,
            throttle: LoginThrottle(repository: repositories.throttle, policy: throttle),
            hashing: hashing,
            clock: clock
        )
        collections = CollectionService(
            repository: repositories.collections,
            groups: repositories.groups,
            places: places,
            limits: limits,
            clock: clock
        )
        let notifier = Notifier(accounts: repositories.accounts, clock: clock)
        decisions = DecisionService(
            repository: repositories.decisions,
            groups: repositories.groups,
            accounts: repositories.accounts,
            collections: collections,
            places: places,
            limits: limits,
            notifier: notifier,
            clock: clock,
            makeSeed: makeSeed
        )
        conversations = ConversationService(repository: repositories.messages, decisions: decisions, limits: limits, clock: clock)
        groups = GroupService(
            repository: repositories.groups,
            accounts: repositories.accounts,
            decisions: decisions,
            limits: limits,
            notifier: notifier,
            clock: clock
        )
        notifications = NotificationService(repository: repositories.notifications, clock: clock)
        feed = ChangeFeed(repository: repositories.feed, clock: clock)
        deadlineLease = Lease("decision-deadlines", repository: repositories.leases, clock: clock)
        self.live = LiveService(
            feed: LiveFeed(repository: repositories.live, settings: live, clock: clock, metrics: liveMetrics, report: report),
            decisions: decisions,
            conversations: conversations,
            notifications: notifications,
            clock: clock
        )
    }

    /// One engine's repositories, everything the services store.
    @PublicInit
    public struct Repositories: Sendable {
        public var places: any PlaceRepository
        /// Photos and their bytes.
        public var photos: any PhotoRepository
        public var accounts: any AccountRepository
        public var groups: any GroupRepository
        public var collections: any CollectionRepository
        public var decisions: any DecisionRepository
        /// Decisions' conversations.
        public var messages: any MessageRepository
        public var notifications: any NotificationRepository
        /// The login throttle's counts.
        public var throttle: any ThrottleRepository
        /// Who runs the tasks that run on one instance at a time.
        public var leases: any LeaseRepository
        /// Live streams' reads of the change feed, and their leases.
        public var live: any LiveRepository
        /// The change feed's own operations (its horizon, pruning).
        public var feed: any ChangeFeedRepository
    }
}
