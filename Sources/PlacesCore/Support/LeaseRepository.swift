import Foundation

/// Leases stored in the database: who may run a task (the deadline round) while several instances could, and until
/// when. A lease is a row (name, holder, expiry), never a lock tied to a connection, so a holder that dies or loses
/// the database simply stops renewing it and another takes over once it expires.
public protocol LeaseRepository: Sendable {
    /// Takes the lease `name` for `holder` until `expiresAt` when it is free or expired at `now`, or renews it when
    /// `holder` already holds it, in one conditional statement; false (and nothing changed) when another holder's lease
    /// is still running.
    func acquire(_ name: String, holder: String, now: Date, until expiresAt: Date) async throws -> Bool
    /// Gives the lease up when `holder` holds it, so another may take it at once; nothing otherwise.
    func release(_ name: String, holder: String) async throws
    /// The holder of lease `name` at `now`; nil when it is free or expired.
    func holder(of name: String, now: Date) async throws -> String?
}
