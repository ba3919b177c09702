import Foundation

/// The change feed's own operations, those about the feed as a whole rather than about the places, decisions or
/// notifications it names: how far its horizon is held back, and pruning its rows of every kind.
public protocol ChangeFeedRepository: Sendable {
    /// How long the oldest transaction holding the change feed's horizon back has been open, in seconds; 0 when none
    /// does (an engine with one writer at a time has no horizon to hold).
    func feedHorizonAge() async throws -> Double
    /// Deletes the change feed's rows (of every kind) written before `date` and answers how many; a reader that had not
    /// read as far as them loads everything instead.
    func pruneFeed(writtenBefore date: Date) async throws -> Int
    /// Rung whenever a write of this process that adds to the feed commits (and only then: the writes of leases ring it
    /// not), so that the feed's subscribers that follow this process's own writes hear of them at once.
    var commits: Doorbells { get }
}
