import Foundation
import GeoIndex
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
            ContractCase("places", "a seed counts the places it added, and finds (and removes) those under a prefix in a box it did not write") {
                store in
                let owner = try await store.addUsers("ann")[0]
                var otherFile = Sample.place("osm:n8", lat: 11, lon: 11)
                otherFile.seedSource = "other.csv"
                try await store.places.seed([
                    otherFile, Sample.place("osm:n1", lat: 10, lon: 10), Sample.place("osm:n2", lat: 11, lon: 11),
                    Sample.place("osm:n3", lat: 12, lon: 12), Sample.place("osm:n9", lat: 50, lon: 50),
                    Sample.place("own-1", lat: 11, lon: 11), Sample.place("osm:n4", lat: 11.5, lon: 11.5),
                ])
                try await store.places.insert(Sample.place("osm:n5", lat: 11, lon: 11, owner: owner))
                var deleted = try #require(try await store.places.place(id: "osm:n4"))
                deleted.deletedAt = Sample.at(5)
                try await store.places.update(deleted)

                let box = GeoBox(west: 9, south: 9, east: 13, north: 13)
                let transaction = try await store.places.beginSeed()
                #expect(try await transaction.upsert([Sample.place("osm:n1", lat: 10, lon: 10), Sample.place("osm:n6", lat: 10.5, lon: 10.5)]).isEmpty)
                #expect(try await transaction.upsert([Sample.place("osm:n7", lat: 10.7, lon: 10.7)]).isEmpty)
                #expect(try await transaction.addedCount() == 2, "n6 and n7 are new; n1 was updated")
                // Not n1 (written), n4 (deleted already), n5 (added through the API), n8 (a source not asked about), n9
                // (outside), own-1 (no prefix).
                #expect(try await transaction.unwritten(idPrefix: "osm:", within: box, sources: { $0 != "other.csv" }, remove: false, now: Sample.at(9)) == ["osm:n2", "osm:n3"])
                #expect(try await transaction.unwritten(idPrefix: "osm:", within: box, sources: { $0 != "other.csv" }, remove: true, now: Sample.at(9)) == ["osm:n2", "osm:n3"])
                #expect(try await transaction.unwritten(idPrefix: "osm:", within: box, sources: { $0 != "other.csv" }, remove: false, now: Sample.at(9)) == [], "removed in it")
                try await transaction.commit()

                #expect(try await store.places.place(id: "osm:n2")?.deletedAt == Sample.at(9))
                #expect(try await store.places.place(id: "osm:n3")?.deletedAt == Sample.at(9))
                #expect(try await store.places.place(id: "osm:n9")?.deletedAt == nil)
                #expect(try await store.places.place(id: "own-1")?.deletedAt == nil)
                #expect(try await store.places.place(id: "osm:n5")?.deletedAt == nil)
                let live = try await store.places.liveSummaries().summaries.map(\.id).sorted()
                #expect(live == ["osm:n1", "osm:n5", "osm:n6", "osm:n7", "osm:n8", "osm:n9", "own-1"], "the index's read sees the removal")

                // A later seed that holds a removed place again brings it back.
                try await store.places.seed([Sample.place("osm:n2", lat: 11, lon: 11)])
                #expect(try await store.places.place(id: "osm:n2")?.deletedAt == nil)

                // A box across the antimeridian holds both of its sides.
                try await store.places.seed([Sample.place("osm:e1", lat: 0, lon: 179.5), Sample.place("osm:w1", lat: 0, lon: -179.5)])
                let across = try await store.places.beginSeed()
                let wide = try await across.unwritten(idPrefix: "osm:", within: GeoBox(west: 179, south: -1, east: -179, north: 1), sources: { _ in true }, remove: false, now: Sample.at(10))
                #expect(wide == ["osm:e1", "osm:w1"])
                await across.rollback()
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
                #expect(try await store.places.unapplied(since: before, leavingOut: []).changes == 0)
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
                #expect(try await store.places.unapplied(since: before, leavingOut: []).changes == 0)
                #expect(try await store.places.changes(since: before, limit: 10)?.upserted.isEmpty == true)
            },
        ]
    }
}
