import Foundation

/// A decision's swipe round, as asked when it starts: before the method runs, every participant answers yes, no or
/// veto on each candidate, privately, and only the candidates that survive go on.
@PublicInit
public struct SwipeRule: Sendable, Hashable, Codable {
    /// How many vetoes each participant may cast (0 to 10).
    public var vetoes: Int
    /// The fewest `yes` a candidate needs to survive, when set (1 to the number of participants).
    public var minYes: Int?
    /// When the round ends, if set: before the decision's own deadline.
    public var deadline: Date?

    /// Vetoes each participant may cast when the start leaves it out.
    public static let defaultVetoes = 1
    /// The most vetoes a round may allow each participant.
    public static let maximumVetoes = 10
}
