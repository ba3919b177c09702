import Foundation

/// One participant's ranking of the candidates, best first; candidates left out tie below the ranked ones.
@PublicInit
public struct Ballot: Sendable, Hashable, Codable {
    /// Who voted.
    public var userId: String
    /// Place ids, best first, each at most once.
    public var ranking: [String]
    /// When first cast.
    public var castAt: Date
    /// When last changed.
    public var updatedAt: Date
}
