import Foundation
import PlacesCore
import Testing

/// What every `CollectionRepository` does with collections and their ordered entries.
enum CollectionRepositoryContract {
    static func collection(_ id: String, name: String, owner: String? = nil, group: String? = nil) -> PlaceCollection {
        PlaceCollection(
            id: id,
            ownerId: owner,
            groupId: group,
            name: name,
            description: "About \(name)",
            createdAt: Sample.now,
            updatedAt: Sample.now
        )
    }

    static var cases: [ContractCase] {
        [
            ContractCase("collections", "a collection is stored, read, counted, saved and deleted with its entries") { store in
                let ids = try await store.addUsers("ann", "bob")
                let (ann, bob) = (ids[0], ids[1])
                try await store.addGroup("g-1", name: "Lunch", creator: ann)
                try await store.places.seed([Sample.place("p1")])
                let personal = collection("c-1", name: "Mine", owner: ann)
                try await store.collections.insert(personal)
                try await store.collections.insert(collection("c-2", name: "Ours", group: "g-1"))
                try await store.collections.insert(collection("c-3", name: "Bob's", owner: bob))
                #expect(try await store.collections.collection(id: "c-1") == personal)
                #expect(try await store.collections.collection(id: "c-ghost") == nil)
                #expect(try await store.collections.entries(collectionID: "c-1").isEmpty, "a new collection is empty")
                #expect(try await store.collections.collectionCount(ownerID: ann, groupID: nil) == 1)
                #expect(try await store.collections.collectionCount(ownerID: nil, groupID: "g-1") == 1)
                #expect(try await store.collections.collectionCount(ownerID: "u-ghost", groupID: nil) == 0)

                var changed = personal
                changed.name = "Renamed"
                changed.description = nil
                changed.updatedAt = Sample.at(30)
                try await store.collections.update(changed)
                #expect(try await store.collections.collection(id: "c-1") == changed)

                try await store.collections.add(placeID: "p1", to: "c-1", at: nil, by: ann, now: Sample.at(40))
                try await store.collections.delete(id: "c-1")
                #expect(try await store.collections.collection(id: "c-1") == nil)
                #expect(try await store.collections.entries(collectionID: "c-1").isEmpty)
                #expect(try await store.collections.collectionCount(ownerID: ann, groupID: nil) == 0)
                #expect(try await store.collections.collection(id: "c-3") != nil)
            },
            ContractCase("collections", "collections page by name then id over the person's own and their groups', holding the cursor's place") {
                store in
                let ids = try await store.addUsers("ann", "bob")
                let (ann, bob) = (ids[0], ids[1])
                try await store.addGroup("g-1", name: "Lunch", creator: ann)
                try await store.addGroup("g-2", name: "Other", creator: bob)
                for (id, name) in [("c-5", "delta"), ("c-2", "Alpha"), ("c-1", "alpha"), ("c-3", "Charlie")] {
                    try await store.collections.insert(collection(id, name: name, owner: ann))
                }
                try await store.collections.insert(collection("c-4", name: "bravo", group: "g-1"))
                try await store.collections.insert(collection("c-6", name: "Bob's", owner: bob))
                try await store.collections.insert(collection("c-7", name: "Bravo too", group: "g-2"))
                let all = try await allPages(limit: 2) { try await store.collections.collections(ownerID: ann, groupIDs: ["g-1"], page: $0) }
                #expect(Set(all.prefix(2).map(\.id)) == ["c-1", "c-2"], "Alpha and alpha first, in some order of case")
                #expect(all.dropFirst(2).map(\.id) == ["c-4", "c-3", "c-5"])
                #expect(try await store.collections.collections(ownerID: ann, groupIDs: [], page: PageRequest()).items.count == 4)

                let first = try await store.collections.collections(ownerID: ann, groupIDs: ["g-1"], page: PageRequest(limit: 3))
                #expect(first.items.last?.id == "c-4")
                try await store.collections.insert(collection("c-8", name: "Aardvark", owner: ann))
                try await store.collections.delete(id: "c-2")
                let second = try await store.collections.collections(ownerID: ann, groupIDs: ["g-1"], page: try next(first, limit: 3))
                #expect(second.items.map(\.id) == ["c-3", "c-5"])
                #expect(second.nextCursor == nil)
            },
            ContractCase("collections", "entries keep people's order: appended, inserted at a position, removed and reordered") { store in
                let ann = try await store.addUsers("ann")[0]
                try await store.places.seed(["p1", "p2", "p3", "p4", "p5"].map { Sample.place($0) })
                try await store.collections.insert(collection("c-1", name: "Mine", owner: ann))
                try await store.collections.add(placeID: "p1", to: "c-1", at: nil, by: ann, now: Sample.at(1))
                try await store.collections.add(placeID: "p2", to: "c-1", at: nil, by: ann, now: Sample.at(2))
                try await store.collections.add(placeID: "p3", to: "c-1", at: 0, by: ann, now: Sample.at(3))
                try await store.collections.add(placeID: "p4", to: "c-1", at: 2, by: ann, now: Sample.at(4))
                try await store.collections.add(placeID: "p5", to: "c-1", at: 99, by: ann, now: Sample.at(5))
                var entries = try await store.collections.entries(collectionID: "c-1")
                #expect(entries.map(\.placeID) == ["p3", "p1", "p4", "p2", "p5"])
                #expect(entries.first == CollectionEntry(placeID: "p3", addedBy: ann, addedAt: Sample.at(3)))
                #expect(try await store.collections.collection(id: "c-1")?.updatedAt == Sample.at(5), "a change of places touches it")

                await expectError(.conflict) { try await store.collections.add(placeID: "p4", to: "c-1", at: 0, by: ann, now: Sample.at(6)) }
                await expectError(.unknownReference, field: "placeId") {
                    try await store.collections.add(placeID: "ghost", to: "c-1", at: nil, by: ann, now: Sample.at(6))
                }
                await expectError(.notFound) { try await store.collections.add(placeID: "p1", to: "c-ghost", at: nil, by: ann, now: Sample.at(6)) }

                #expect(try await store.collections.remove(placeID: "p4", from: "c-1", now: Sample.at(7)))
                #expect(try await !store.collections.remove(placeID: "p4", from: "c-1", now: Sample.at(8)))
                #expect(try await store.collections.entries(collectionID: "c-1").map(\.placeID) == ["p3", "p1", "p2", "p5"])
                try await store.collections.add(placeID: "p4", to: "c-1", at: 1, by: ann, now: Sample.at(9))
                #expect(try await store.collections.entries(collectionID: "c-1").map(\.placeID) == ["p3", "p4", "p1", "p2", "p5"])

                try await store.collections.reorder(collectionID: "c-1", placeIDs: ["p5", "p4", "p3", "p2", "p1"], now: Sample.at(10))
                entries = try await store.collections.entries(collectionID: "c-1")
                #expect(entries.map(\.placeID) == ["p5", "p4", "p3", "p2", "p1"])
                #expect(entries.first { $0.placeID == "p3" }?.addedAt == Sample.at(3), "reordering keeps who added what, when")
                #expect(try await store.collections.collection(id: "c-1")?.updatedAt == Sample.at(10))
                await expectError(.invalidInput) {
                    try await store.collections.reorder(collectionID: "c-1", placeIDs: ["p5", "p4", "p3", "p2"], now: Sample.at(11))
                }
                await expectError(.invalidInput) {
                    try await store.collections.reorder(collectionID: "c-1", placeIDs: ["p5", "p4", "p3", "p2", "p2"], now: Sample.at(11))
                }
                #expect(try await store.collections.entries(collectionID: "c-1").map(\.placeID) == ["p5", "p4", "p3", "p2", "p1"])

                var deleted = Sample.place("p3")
                deleted.deletedAt = Sample.at(12)
                try await store.places.update(deleted)
                #expect(try await store.collections.entries(collectionID: "c-1").count == 5, "a deleted place keeps its entry")
            },
        ]
    }
}
