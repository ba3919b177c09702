import Foundation
import PlacesCore
import Testing

/// What every engine keeps true when writes that touch the same rows arrive at once: each is one transaction, so
/// uniqueness, aggregates and positions come out as if the writes had run one after another. Nothing here waits on a
/// clock; every interleaving must pass.
enum ConcurrentWritesContract {
    static var cases: [ContractCase] {
        [
            ContractCase("places", "of places inserted at once under one id, exactly one is stored and the others are conflicts") { store in
                let ann = try await store.addUsers("ann")[0]
                let places = store.places
                let outcomes = await outcomes(of: 6) { index in
                    try await places.insert(Sample.place("same", name: "Version \(index)", owner: ann))
                }
                #expect(outcomes.filter { $0 == nil }.count == 1, "\(outcomes)")
                #expect(outcomes.compactMap { $0 }.allSatisfy { $0 == .conflict }, "\(outcomes)")
                #expect(try await store.places.liveCount() == 1)
            },
            ContractCase("places", "ratings saved at once all count: each save answers a new aggregate and the last one is exact") { store in
                let voters = ["ann", "bob", "cy", "dee", "eve", "fay"]
                let ids = try await store.addUsers(voters[0], voters[1], voters[2], voters[3], voters[4], voters[5])
                try await store.places.seed([Sample.place("p1")])
                let before = try await ChangeFeedContract.settled(store)
                let places = store.places
                let answers = try await withThrowingTaskGroup(of: RatingAggregate.self) { tasks in
                    for (index, id) in ids.enumerated() {
                        tasks.addTask {
                            let stars = index % 5 + 1
                            return try await places.save(
                                Rating(placeId: "p1", userId: id, stars: stars, review: nil, createdAt: Sample.now, updatedAt: Sample.now)
                            )
                        }
                    }
                    return try await tasks.reduce(into: [RatingAggregate]()) { $0.append($1) }
                }
                let expected = RatingAggregate(count: 6, sum: 1 + 2 + 3 + 4 + 5 + 1)
                #expect(answers.map(\.count).sorted() == [1, 2, 3, 4, 5, 6], "\(answers)")
                #expect(answers.contains(expected))
                #expect(try await store.places.place(id: "p1")?.rating == expected)
                let changes = try #require(try await store.places.changes(since: before, limit: 10))
                #expect(changes.upserted.map(\.rating) == [expected])
            },
            ContractCase("groups", "of friend requests sent at once between two people, either way round, exactly one is stored") { store in
                let ids = try await store.addUsers("ann", "bob")
                let (ann, bob) = (ids[0], ids[1])
                let groups = store.groups
                let outcomes = await outcomes(of: 6) { index in
                    let (from, to) = index % 2 == 0 ? (ann, bob) : (bob, ann)
                    try await groups.insertFriendRequest(from: from, to: to, now: Sample.at(index), notifications: [])
                }
                #expect(outcomes.filter { $0 == nil }.count == 1, "\(outcomes)")
                #expect(outcomes.compactMap { $0 }.allSatisfy { $0 == .conflict }, "\(outcomes)")
                let pending =
                    try await store.groups.pendingFriendRequestCount(requesterID: ann)
                    + store.groups.pendingFriendRequestCount(requesterID: bob)
                #expect(pending == 1)
            },
            ContractCase("groups", "of invitations sent at once to one person for one group, exactly one is stored") { store in
                let ids = try await store.addUsers("ann", "bob", "cy")
                try await store.addGroup("g-1", name: "Lunch", creator: ids[0], members: [ids[2]])
                let groups = store.groups
                let outcomes = await outcomes(of: 6) { index in
                    let inviter = index % 2 == 0 ? ids[0] : ids[2]
                    try await groups.insertInvitation(groupID: "g-1", inviteeID: ids[1], inviterID: inviter, now: Sample.at(index), notifications: [])
                }
                #expect(outcomes.filter { $0 == nil }.count == 1, "\(outcomes)")
                #expect(outcomes.compactMap { $0 }.allSatisfy { $0 == .conflict }, "\(outcomes)")
                #expect(try await store.groups.invitations(inviteeID: ids[1], page: PageRequest()).items.count == 1)
            },
            ContractCase("collections", "places added at once each take their own position, and one place added at once is stored once") {
                store in
                let ann = try await store.addUsers("ann")[0]
                let placeIDs = (1...6).map { "p\($0)" }
                try await store.places.seed((placeIDs + ["late"]).map { Sample.place($0) })
                try await store.collections.insert(CollectionRepositoryContract.collection("c-1", name: "Mine", owner: ann))
                let collections = store.collections
                let appended = await outcomes(of: placeIDs.count) { index in
                    try await collections.add(placeID: placeIDs[index], to: "c-1", at: nil, by: ann, now: Sample.at(index))
                }
                #expect(appended.allSatisfy { $0 == nil }, "\(appended)")
                let order = try await store.collections.entries(collectionID: "c-1").map(\.placeID)
                #expect(order.sorted() == placeIDs)
                try await store.collections.add(placeID: "late", to: "c-1", at: 2, by: ann, now: Sample.at(10))
                let expected = Array(order.prefix(2)) + ["late"] + Array(order.dropFirst(2))
                #expect(try await store.collections.entries(collectionID: "c-1").map(\.placeID) == expected, "positions stayed distinct")

                try await store.collections.insert(CollectionRepositoryContract.collection("c-2", name: "Other", owner: ann))
                let twice = await outcomes(of: 4) { index in
                    try await collections.add(placeID: "p1", to: "c-2", at: nil, by: ann, now: Sample.at(index))
                }
                #expect(twice.filter { $0 == nil }.count == 1, "\(twice)")
                #expect(twice.compactMap { $0 }.allSatisfy { $0 == .conflict }, "\(twice)")
                #expect(try await store.collections.entries(collectionID: "c-2").map(\.placeID) == ["p1"])
            },
        ]
    }

    /// Runs `count` writes at once and answers each one's outcome: nil when it was stored, the error's code otherwise.
    static func outcomes(
        of count: Int,
        _ write: @escaping @Sendable (Int) async throws -> Void
    ) async -> [PlacesError.Code?] {
        await withTaskGroup(of: PlacesError.Code?.self) { tasks in
            for index in 0..<count {
                tasks.addTask {
                    do {
                        try await write(index)
                        return nil
                    } catch {
                        return (error as? PlacesError)?.code ?? .internalError
                    }
                }
            }
            return await tasks.reduce(into: [PlacesError.Code?]()) { $0.append($1) }
        }
    }
}
