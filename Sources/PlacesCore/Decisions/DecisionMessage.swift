import Foundation

/// One message of a decision's conversation: its participants and its starter talk it over on the decision itself.
@PublicInit
public struct DecisionMessage: Sendable, Hashable, Encodable {
    /// Its id (`m-` and 16 hex digits).
    public var id: String
    /// The decision it belongs to.
    public var decisionId: String
    /// Who wrote it (a message leaves with its author's account).
    public var author: PublicUser
    /// What it says: 1 to 500 characters, on one line, as a decision's title.
    public var text: String
    /// When it was posted.
    public var createdAt: Date
}
