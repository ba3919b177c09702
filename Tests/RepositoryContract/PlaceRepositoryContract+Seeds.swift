import Foundation
import PlacesCore
import Testing

/// What every `PlaceRepository` does with seed transactions.
extension PlaceRepositoryContract {
    static var seedCases: [ContractCase] {
        [
            ContractCase("places", "a seed inserts its places and a later seed brings them back to the file's contents") { store in
                try await store.places.seed([Sample.place("s1"), Sample.place("s2")])
                var deleted = Sample.place("s2")
                deleted.deletedAt = Sample.at(5)
                try await store.places.update(deleted)
                try await store.places.seed([Sample.place("s1", name: "Renamed"), Sample.place("s2")])
                #expect(try await store.places.place(id: "s1")?.name == "Renamed")
                #expect(try await store.places.place(id: "s2")?.deletedAt == nil, "re-seeding brings a deleted seeded place back")
                #expect(try await store.places.liveCount() == 2)
            },
            ContractCase("places", "a seed's batches answer refused places by position and write the others") { store in
                let owner = try await store.addUsers("ann")[0]
                try await store.places.insert(Sample.place("api-1", owner: owner))
                let transaction = try await store.places.beginSeed()
                let refused = try await transaction.upsert([
                    Sample.place("s1"), Sample.place("api-1"), Sample.place("s2"), Sample.place("s1", name: "Twice"),
                ])
                #expect(refused.keys.sorted() == [1, 3])
                #expect(refused[1]?.code == .conflict, "an API place's id belongs to the API")
                #expect(refused[3]?.code == .invalidInput, "the transaction already wrote this id")
                let later = try await transaction.upsert([Sample.place("s3"), Sample.place("s2", name: "Again")])
                #expect(later.keys.sorted() == [1])
                #expect(later[1]?.code == .invalidInput, "an id written by an earlier batch of the same transaction")
                try await transaction.commit()

                #expect(try await store.places.place(id: "s1")?.name == "Place s1")
                #expect(try await store.places.place(id: "s2")?.name == "Place s2")
                #expect(try await store.places.place(id: "s3") != nil)
                let api = try await store.places.place(id: "api-1")
                #expect(api?.ownerID == owner && api?.seedSource == nil, "seeds never touch an API place")
                #expect(try await store.places.liveCount() == 4)
            },
            ContractCase("places", "a seed transaction rolled back leaves nothing behind, in the feed neither") { store in
                try await store.places.seed([Sample.place("kept")])
                // Once the feed is past the seed: on PostgreSQL, another case's open transaction can hold its horizon
                // below the seed's announcement for a moment.
                let before = try await ChangeFeedContract.settled(store)
                let transaction = try await store.places.beginSeed()
                _ = try await transaction.upsert([Sample.place("x"), Sample.place("kept", name: "Changed")])
                _ = try await transaction.upsert([Sample.place("y"), Sample.place("x")])
                await transaction.rollback()

                #expect(try await store.places.place(id: "x") == nil)
                #expect(try await store.places.place(id: "y") == nil)
                #expect(try await store.places.place(id: "kept")?.name == "Place kept")
                let after = try await store.places.liveSummaries()
                // The feed's position may move on (on PostgreSQL it counts every transaction, rolled back or not), but
                // it names nothing the rollback wrote.
                #expect(after.revision >= before)
                #expect(after.summaries.map(\.id) == ["kept"])
                let changes = try #require(try await store.places.changes(since: before, limit: 10))
                #expect(changes.upserted.isEmpty && changes.deleted.isEmpty)
                #expect(try await store.places.changeCount(since: before) == 0)
                // The store still takes writes after a rollback.
                try await store.places.seed([Sample.place("z")])
                #expect(try await ChangeFeedContract.settled(store) > before)
            },
            ContractCase("places", "seed(_:) refuses the whole set when one place is refused, leaving nothing of it") { store in
                let owner = try await store.addUsers("ann")[0]
                try await store.places.insert(Sample.place("api-1", owner: owner))
                let before = try await ChangeFeedContract.settled(store)
                await expectError(.conflict) { try await store.places.seed([Sample.place("s1"), Sample.place("api-1")]) }
                await expectError(.invalidInput) { try await store.places.seed([Sample.place("s2"), Sample.place("s2")]) }
                #expect(try await store.places.place(id: "s1") == nil)
                #expect(try await store.places.place(id: "s2") == nil)
                #expect(try await store.places.changeCount(since: before) == 0)
                #expect(try await store.places.changes(since: before, limit: 10)?.upserted.isEmpty == true)
            },
        ]
    }
}
