import Foundation

/// Someone the caller blocked, and since when.
@PublicInit
public struct BlockedUser: Sendable, Hashable, Encodable {
    /// The person blocked.
    public var user: PublicUser
    /// When they were blocked.
    public var since: Date
}

/// Who of two people blocks the other.
@PublicInit
public struct BlockBetween: Sendable, Hashable {
    /// The first person blocks the second.
    public var firstBlocksSecond: Bool = false
    /// The second person blocks the first.
    public var secondBlocksFirst: Bool = false

    /// Neither blocks the other.
    public static let none = BlockBetween()
}

extension AccountRepository {
    /// Refuses naming `other` (as `name`, in `field`) when a block stands between them and the caller. When `other`
    /// blocked the caller, the answer is the one a name that does not exist gets (`unknown_reference`, the same
    /// message), so nothing tells the caller of the block; when the caller blocked `other`, a `conflict` says so.
    /// Commands that name people run it before any other check about the person named.
    /// `write`, which stores something between the caller and `other` and checks again for a block inside its own
    /// transaction (a block saved after `checkNoBlock` looked, by a request at the same moment): refused then as
    /// `checkNoBlock` refuses that block, so a block and a request racing it never leave the request behind.
    func checkingNoBlock<Value>(callerID: String, other: User, name: String, field: String, _ write: () async throws -> Value) async throws -> Value {
        do {
            return try await write()
        } catch let error as PlacesError where error.cause == .blocked {
            try await checkNoBlock(callerID: callerID, other: other, name: name, field: field)
            throw PlacesError(.conflict, "a block between you changed while this was saved; try again", field: field)
        }
    }

    func checkNoBlock(callerID: String, other: User, name: String, field: String) async throws {
        let block = try await blocks(between: callerID, other.id)
        if block.secondBlocksFirst {
            throw PlacesError.unknownReference(field, "no user named \(PlacesError.quoted(name))")
        }
        if block.firstBlocksSecond {
            throw PlacesError(.conflict, "you blocked \(other.username): unblock them first", field: field)
        }
    }

    /// `users` with the status each has that `viewerID` may see now (see `statuses(of:visibleTo:now:)`); the rest
    /// without one. One read, whatever the number of users.
    public func showingStatuses(_ users: [PublicUser], to viewerID: String, now: Date) async throws -> [PublicUser] {
        guard !users.isEmpty else { return users }
        let statuses = try await statuses(of: users.map(\.id), visibleTo: viewerID, now: now)
        return users.map { user in
            var user = user
            user.status = statuses[user.id]
            return user
        }
    }
}
