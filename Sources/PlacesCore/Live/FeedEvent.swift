import Foundation

/// A place in the change feed's order: the transaction that wrote a row, then the row within it. Readers take the feed
/// in this order, and an event stream's ids are positions, so that a client resuming from one gets what follows it.
///
/// On PostgreSQL the transaction is its id (taken before commit): a reader reads only below the oldest transaction
/// still running, where the set of rows is final, so reads one after another give the feed in this order with no gap.
/// On SQLite, with one writer at a time, each row is its own position (`transaction` and `row` alike).
public struct FeedPosition: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The writing transaction (PostgreSQL), or the row's position (SQLite).
    public var transaction: Int64
    /// The row's position, which orders the rows of one transaction.
    public var row: Int64

    /// Makes a position.
    public init(transaction: Int64, row: Int64) {
        self.transaction = transaction
        self.row = row
    }

    /// Where a reader stands that has read every row of the transactions below `transaction` and none after: the
    /// feed's horizon as a position.
    public static func horizon(_ transaction: Int64) -> FeedPosition { FeedPosition(transaction: transaction, row: 0) }

    public static func < (left: FeedPosition, right: FeedPosition) -> Bool {
        (left.transaction, left.row) < (right.transaction, right.row)
    }

    public var description: String { "\(transaction).\(row)" }
}

/// One row of the change feed that a live stream may carry or act on (place changes go to the index instead).
@PublicInit
public struct FeedEvent: Sendable, Hashable {
    /// What the row says happened.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// A decision started, was saved or ended: `subject` is its id, `detail` its status, `version` its version.
        case decision
        /// A ballot arrived, changed or was withdrawn: `subject` is the decision, `detail` the voter (never what they
        /// voted), `version` the decision's version after the save.
        case ballot
        /// An answer of a swipe round was given, changed or withdrawn: `subject` is the decision, `detail` who answered
        /// (never what, never which place), `version` the decision's version after the save.
        case swipe
        /// A decision's swipe round ended: `subject` is the decision, `version` its version after the save.
        case round
        /// A message was posted in a decision's conversation: `subject` is the decision, `detail` the message's id.
        case message
        /// A notification was made: `subject` is its recipient, `detail` its id.
        case notification
        /// A member joined or left a group: `subject` is the group, `detail` the person.
        case member
        /// An account was deleted: `subject` is its id.
        case account
        /// A session was revoked (signed out, expired, or dropped with a new password): `subject` is its person,
        /// `detail` the token's hash.
        case session
    }

    /// Where it is in the feed.
    public var position: FeedPosition
    /// What happened.
    public var kind: Kind
    /// Whom or what it is about (see `Kind`).
    public var subject: String
    /// More about it (see `Kind`).
    public var detail: String?
    /// The decision's version, for decisions and ballots.
    public var version: Int64?
}

extension FeedEvent.Kind {
    /// The kinds a stream's topic carries (a decision's, a person's notifications): what the feed's topic index covers.
    public static let streamed: [Self] = [.decision, .ballot, .swipe, .round, .message, .notification]
    /// The kinds the live streams' reader reads: the streamed ones, and who may see what. (PostgreSQL's reader is a
    /// function made with this list: a kind added needs a migration that replaces it, `places_live_events_read`.)
    public static let live: [Self] = streamed + [.member, .account, .session]

    /// The kinds as a list of SQL text literals (`'decision', 'ballot'`), for either engine's `kind IN (…)`.
    public static func sqlList(_ kinds: [Self]) -> String {
        kinds.map { "'\($0.rawValue)'" }.joined(separator: ", ")
    }
}

/// What one read of the feed found after a position.
@PublicInit
public struct FeedEvents: Sendable {
    /// The events, in feed order.
    public var events: [FeedEvent]
    /// Where the next read starts: every event up to here is in `events` or was before the read's start.
    public var through: FeedPosition
    /// The database's generation (see `PlaceSnapshot.generation`): another one means every position before it is void.
    public var generation: String
    /// Rows of the transactions below this were pruned.
    public var prunedBelow: Int64
    /// True when more events wait after `through` (the read's limit, or a transaction still open ahead of them): read
    /// again soon rather than at the next poll.
    public var pending: Bool
}

/// What a stream follows in the feed.
public enum FeedTopic: Sendable, Hashable {
    /// A decision's events (`decision`, `ballot`, `swipe` and `round` rows of that decision).
    case decision(String)
    /// A person's new notifications.
    case notifications(recipientID: String)

    /// The feed rows' `subject` for this topic.
    public var subject: String {
        switch self {
        case .decision(let id): id
        case .notifications(let recipientID): recipientID
        }
    }

    /// The kinds of the feed's rows this topic carries.
    public var kinds: Set<FeedEvent.Kind> {
        switch self {
        case .decision: [.decision, .ballot, .swipe, .round, .message]
        case .notifications: [.notification]
        }
    }

    /// True when `event` belongs to this topic.
    public func carries(_ event: FeedEvent) -> Bool {
        event.subject == subject && kinds.contains(event.kind)
    }
}
