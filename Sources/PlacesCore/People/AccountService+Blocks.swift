import Foundation

extension AccountService {
    // MARK: - Blocks

    /// Blocks `username` (204 however often): ends a friendship, pending friend requests and pending invitations
    /// between the two, in one transaction. `not_found` for an unknown name, `invalid_input` for oneself.
    public func block(_ caller: User, username: String) async throws {
        let other = try await user(username: username)
        guard other.id != caller.id else { throw PlacesError.invalid("username", "you cannot block yourself") }
        try await repository.block(blockerID: caller.id, blockedID: other.id, now: clock())
    }

    /// Ends the caller's block of `username` (204 whether or not there was one); `not_found` for an unknown name.
    public func unblock(_ caller: User, username: String) async throws {
        let other = try await user(username: username)
        guard other.id != caller.id else { throw PlacesError.invalid("username", "you cannot block yourself") }
        try await repository.unblock(blockerID: caller.id, blockedID: other.id)
    }

    /// A page of the people the caller blocks.
    public func blocked(_ caller: User, page: PageRequest) async throws -> Page<BlockedUser> {
        try await repository.blocked(blockerID: caller.id, page: page)
    }

    // MARK: - Status

    /// Sets the caller's status line.
    public func setStatus(_ caller: User, _ command: SetStatus) async throws -> UserStatus {
        let status = try UserStatus.checked(command, now: clock())
        try await repository.setStatus(status, userID: caller.id)
        return status
    }

    /// Clears the caller's status line (nothing when there is none).
    public func clearStatus(_ caller: User) async throws {
        try await repository.setStatus(nil, userID: caller.id)
    }

    /// The caller's own status while it shows.
    public func status(_ caller: User) async throws -> UserStatus? {
        try await repository.statuses(of: [caller.id], visibleTo: caller.id, now: clock())[caller.id]
    }
}
