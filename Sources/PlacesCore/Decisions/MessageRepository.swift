import Foundation

/// Stores decisions' conversations. A message is written in one transaction that also checks what allows it: its
/// decision still active, and its author under the rate's bound (counted in the database, so a cluster shares it).
public protocol MessageRepository: Sendable {
    /// Stores `message` (its author by id) when its decision is still active and its author posted fewer than
    /// `limit.allowed` messages at or after `limit.since`, in any decision; otherwise writes nothing and says why.
    func insert(_ message: NewMessage, limit: WindowLimit) async throws -> MessageInsert
    /// A page of the decision's messages, newest first (then by id, descending), after the page's cursor; with
    /// `readerID`, without the messages of people the reader blocks (in the query, so pages stay full).
    func messages(decisionID: String, readerID: String?, page: PageRequest) async throws -> Page<DecisionMessage>
    /// The decision's messages with these ids (those that still exist), newest first; with `readerID`, without the
    /// messages of people the reader blocks.
    func messages(ids: [String], decisionID: String, readerID: String?) async throws -> [DecisionMessage]
    /// Every message the person wrote, oldest first (then by id), for their export.
    func messages(authorID: String) async throws -> [DecisionMessage]
}

extension MessageRepository {
    /// A page of the decision's messages, whoever reads them.
    public func messages(decisionID: String, page: PageRequest) async throws -> Page<DecisionMessage> {
        try await messages(decisionID: decisionID, readerID: nil, page: page)
    }

    /// The decision's messages with these ids, whoever reads them.
    public func messages(ids: [String], decisionID: String) async throws -> [DecisionMessage] {
        try await messages(ids: ids, decisionID: decisionID, readerID: nil)
    }
}

/// What an insert of a message did.
public enum MessageInsert: Sendable, Hashable {
    /// It is stored.
    case stored
    /// The decision is no longer active (or no longer exists): nothing was stored.
    case decisionEnded
    /// The author reached the bound: nothing was stored. `oldestCounted` is when the oldest of the messages that reach
    /// it was posted (the bound frees one place a window after it).
    case tooMany(oldestCounted: Date)
}
