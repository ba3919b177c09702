import Foundation

/// A participant who left the decision's group while it was open: no longer a participant, their ballot withdrawn.
@PublicInit
public struct Departure: Sendable, Hashable, Codable {
    /// Who left.
    public var userId: String
    /// When they stopped taking part.
    public var at: Date
    /// True when they had voted and their ballot was taken out of the count.
    public var ballotWithdrawn: Bool
}
