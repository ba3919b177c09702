import Foundation

/// A message as it is stored: its author by id (the answers name them as `DecisionMessage`).
@PublicInit
public struct NewMessage: Sendable, Hashable {
    public var id: String
    public var decisionId: String
    public var authorId: String
    public var text: String
    public var createdAt: Date
}
