import Foundation
import GeoIndex
import PlacesCore
import PlacesTestSupport
import Testing

/// Fixed moments and small builders the contract cases share: nothing reads the clock, so nothing can flake.
enum Sample {
    /// The moment every case starts from (whole seconds, so every engine stores it exactly).
    static let now = TestPlaces.now

    /// `seconds` after `now`.
    static func at(_ seconds: Int) -> Date { now.addingTimeInterval(TimeInterval(seconds)) }

    /// A gem near (lat, lon); seeded (owned by seeds) unless an owner is given.
    static func place(_ id: String, lat: Double = 40, lon: Double = -74, name: String? = nil, owner: String? = nil) -> Place {
        TestPlaces.place(
            id,
            lat: lat,
            lon: lon,
            name: name,
            description: "A place called \(id)",
            city: "Testville",
            tags: ["quiet", "view"],
            owner: owner,
            seedSource: "contract.json"
        )
    }

    /// A user with id `u-<username>` and that username, its e-mail and a phone number made from `number` (none for 0).
    static func user(_ username: String, number: Int = 0, displayName: String? = nil) -> User {
        User(
            id: "u-\(username.lowercased())",
            username: username,
            email: "\(username.lowercased())@example.com",
            phone: number == 0 ? nil : "+1555000\(String(format: "%04d", number))",
            passwordHash: "hash-of-\(username)",
            profile: User.Profile(displayName: displayName),
            createdAt: now,
            updatedAt: now
        )
    }

    /// A group as `insert` takes it (its members come from the repository).
    static func group(_ id: String, name: String, at seconds: Int = 0) -> Group {
        Group(id: id, name: name, description: "About \(name)", pictureURL: nil, createdAt: at(seconds), updatedAt: at(seconds), members: [])
    }

    /// A notification to `recipient`.
    static func notification(
        _ id: String,
        to recipient: String,
        kind: UserNotification.Kind = .friendRequest,
        at seconds: Int = 0,
        subject: UserNotification.Subject = UserNotification.Subject()
    ) -> UserNotification {
        UserNotification(
            id: id,
            recipientId: recipient,
            kind: kind,
            message: "Notification \(id)",
            subject: subject,
            channels: ["push"],
            createdAt: at(seconds)
        )
    }

    /// An active decision over `candidates`.
    static func decision(
        _ id: String,
        group: String?,
        by creator: String,
        participants: [String],
        candidates: [String] = ["p1", "p2"],
        at seconds: Int = 0,
        deadline: Int? = nil
    ) -> Decision {
        Decision(
            id: id,
            groupId: group,
            createdBy: creator,
            title: "Where to, \(id)?",
            method: .tiered,
            status: .active,
            candidates: candidates,
            participants: participants,
            weighted: false,
            scheduled: false,
            seed: 42,
            deadline: deadline.map(at),
            visitDate: nil,
            createdAt: at(seconds)
        )
    }
}

extension RepositoryStore {
    /// Stores users with these usernames (ids `u-<username>`, no phone) and answers their ids.
    @discardableResult
    func addUsers(_ usernames: String...) async throws -> [String] {
        var ids: [String] = []
        for username in usernames {
            let user = Sample.user(username)
            try await accounts.insert(user)
            ids.append(user.id)
        }
        return ids
    }

    /// Stores a group created by `creator` and answers its id.
    @discardableResult
    func addGroup(_ id: String, name: String, creator: String, members: [String] = [], at seconds: Int = 0) async throws -> String {
        try await groups.insert(Sample.group(id, name: name, at: seconds), creatorID: creator)
        for member in members {
            try await groups.insertInvitation(groupID: id, inviteeID: member, inviterID: creator, now: Sample.at(seconds), notifications: [])
            #expect(try await groups.answerInvitation(groupID: id, inviteeID: member, accept: true, now: Sample.at(seconds)))
        }
        return id
    }
}

/// Reads a whole list page by page with `limit`, checking that every page but the last is full and that the last
/// has no cursor; answers the items in the order the pages gave them.
func allPages<Item>(
    limit: Int,
    sourceLocation: SourceLocation = #_sourceLocation,
    _ fetch: (PageRequest) async throws -> Page<Item>
) async throws -> [Item] {
    var request = PageRequest(limit: limit)
    var items: [Item] = []
    for _ in 0..<1_000 {
        let page = try await fetch(request)
        #expect(page.items.count <= limit, "a page holds at most its limit", sourceLocation: sourceLocation)
        items += page.items
        guard let cursor = page.nextCursor else { return items }
        #expect(page.items.count == limit, "a page followed by another is full", sourceLocation: sourceLocation)
        request = try PageRequest.parse(limit: String(limit), cursor: cursor)
    }
    Issue.record("the list never ended", sourceLocation: sourceLocation)
    return items
}

/// The page after `page`, with the same limit.
func next<Item>(_ page: Page<Item>, limit: Int, sourceLocation: SourceLocation = #_sourceLocation) throws -> PageRequest {
    let cursor = try #require(page.nextCursor, "a next page", sourceLocation: sourceLocation)
    return try PageRequest.parse(limit: String(limit), cursor: cursor)
}

/// Expects `body` to throw a `PlacesError` with `code` (and `field`, when given).
func expectError(
    _ code: PlacesError.Code,
    field: String? = nil,
    sourceLocation: SourceLocation = #_sourceLocation,
    _ body: () async throws -> Void
) async {
    do {
        try await body()
        Issue.record("expected \(code.rawValue), nothing was thrown", sourceLocation: sourceLocation)
    } catch let error as PlacesError {
        #expect(error.code == code, "\(error)", sourceLocation: sourceLocation)
        if let field { #expect(error.field == field, "\(error)", sourceLocation: sourceLocation) }
    } catch {
        Issue.record("expected \(code.rawValue), got \(error)", sourceLocation: sourceLocation)
    }
}
