import Foundation

/// What a save wrote: the versions it left, and who has voted or answered once it is in.
@PublicInit
public struct SavedDecision: Sendable, Equatable {
    /// The decision's `version` after the save.
    public var version: Int64
    /// The decision's `decisionVersion` after the save.
    public var decisionVersion: Int64
    /// The participants with a ballot, as the save's own transaction sees them: of two last ballots saved at once, the
    /// one saved second finds everyone has voted (and so Core completes the decision).
    public var voters: Set<String>
    /// How many candidates each participant has answered in the swipe round, as the save's own transaction sees them
    /// (those with none are left out): of two last answers saved at once, the one saved second finds everyone done.
    public var answered: [String: Int]
}
