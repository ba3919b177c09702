import Foundation

/// A ballot as a participant casts it (`PUT /v1/decisions/{id}/ballot`, `places decision vote`): candidate place
/// ids, best first.
@PublicInit
public struct CastBallot: Sendable, Equatable {
    /// Candidate place ids, best first, each at most once.
    public var ranking: [String]
}
