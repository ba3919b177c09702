import Foundation

/// One participant's answer on one candidate in a decision's swipe round, as stored. Nobody but its author ever sees
/// it; the round's result tells only counts per candidate.
@PublicInit
public struct Swipe: Sendable, Hashable, Codable {
    /// Who answered.
    public var userId: String
    /// The candidate.
    public var placeId: String
    /// Yes, no or veto.
    public var answer: SwipeAnswer
    /// When last given or changed.
    public var updatedAt: Date
}
