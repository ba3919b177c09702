import Foundation

extension GroupService {
    /// The longest alert, in characters.
    public static let maximumAlertLength = 280

    /// Sends an admin's alert to the group: one `adminAlert` notification to every other member whose settings allow
    /// it. Admins only (`forbidden` for other members and for anyone else); 429 `too_many_attempts` (with the seconds
    /// to wait) past `limits.alertsPerGroupPerHour` alerts to the group in an hour, whoever of its admins sent them.
    public func sendAlert(_ caller: User, groupID: String, _ command: SendAlert) async throws {
        let limit = GroupService.maximumAlertLength
        guard let message = try TextRules.shownName(command.message, field: "message", limit: limit) else {
            throw PlacesError.invalid("message", "message is required: 1 to \(limit) characters")
        }
        let group = try await adminGroup(caller, groupID)
        let now = clock()
        let others = group.members.map(\.user.id).filter { $0 != caller.id }
        let notifications = try await notifier.notifications(
            .adminAlert,
            to: others,
            message: "\(caller.username), admin of \(group.name): \(message)",
            subject: .init(userId: caller.id, groupId: group.id)
        )
        let alert = GroupAlert(id: RandomID.make("a-"), groupId: group.id, senderId: caller.id, createdAt: now)
        let window = RateWindow(allowed: limits.alertsPerGroupPerHour, per: 60 * 60)
        switch try await repository.insertAlert(alert, limit: window.limit(at: now), notifications: notifications) {
        case .stored:
            return
        case .noGroup:
            throw PlacesError.notFound("no group with id \(PlacesError.quoted(groupID))")
        case .tooMany(let oldestCounted):
            throw window.refusal(now: now, oldestCounted: oldestCounted) { seconds in
                "the group's admins sent it \(window.allowed) alerts in the last hour; try again in \(seconds) seconds"
            }
        }
    }
}
