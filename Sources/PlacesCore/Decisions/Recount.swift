import Foundation

/// A recomputed result beside the stored one.
public struct Recount: Sendable, Encodable {
    /// True when the two are the same.
    public var agrees: Bool
    /// The result stored when the decision ended.
    public var stored: DecisionResult
    /// The result computed now from the stored ballots and seed.
    public var recounted: DecisionResult
}
