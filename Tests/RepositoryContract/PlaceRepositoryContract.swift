import Foundation
import GeoIndex
import PlacesCore
import Synchronization
import Testing

/// What every `PlaceRepository` does with places written through the API, favourites and ratings, and what a search finds in the places it loads into the index.
enum PlaceRepositoryContract {
    static var cases: [ContractCase] {
        [
            ContractCase("places", "a new store is empty, and a stored place reads back whole while unknown ids read nil") { store in
                #expect(try await store.places.isEmpty())
                #expect(try await store.places.liveCount() == 0)
                #expect(try await store.places.liveSummaries().summaries.isEmpty)
                let owner = try await store.addUsers("ann")[0]
                var place = Sample.place("api-1", owner: owner)
                place.address = "1 Main St"
                place.priceLevel = 2
                try await store.places.insert(place)
                #expect(try await store.places.place(id: "api-1") == place)
                #expect(try await store.places.place(id: "nope") == nil)
                #expect(try await !store.places.isEmpty())
                #expect(try await store.places.liveCount() == 1)

                // Every field a summary keeps comes back as written, in a snapshot and in the change feed.
                let before = try await ChangeFeedContract.settled(store)
                var restaurant = Sample.place("api-2", owner: owner)
                restaurant.kind = .restaurant
                restaurant.cuisine = "mexican"
                restaurant.priceLevel = 3
                restaurant.phone = "+1 415 555 0100"
                restaurant.openingHours = try OpeningHours.parse(["fri": ["18:00-02:00"], "sat": ["11:00-15:00", "18:00-23:30"]])
                restaurant.timeZone = "America/Los_Angeles"
                try await store.places.insert(restaurant)
                #expect(try await store.places.place(id: "api-2") == restaurant)
                let snapshot = try await store.places.liveSummaries().summaries.first { $0.id == "api-2" }
                #expect(snapshot == restaurant.summary)
                #expect(try await store.places.changes(since: before, limit: 10)?.upserted == [restaurant.summary])
            },
            ContractCase("places", "a whole read hands every live place over once, in batches of the read's size, the last one short") { store in
                let count = PlaceSnapshot.batchSize + 10
                try await store.places.seed((0..<count).map { Sample.place(String(format: "b%05d", $0), lat: Double($0 % 80), lon: Double($0 % 170)) })
                var deleted = try #require(try await store.places.place(id: "b00003"))
                deleted.deletedAt = Sample.at(5)
                try await store.places.update(deleted)
                let batches = BatchesReceived()
                let snapshot = try await store.places.liveSummaries(into: batches)
                #expect(snapshot.summaries.isEmpty, "the receiver has them")
                #expect(batches.sizes == [PlaceSnapshot.batchSize, count - 1 - PlaceSnapshot.batchSize])
                #expect(batches.ids.sorted() == (0..<count).filter { $0 != 3 }.map { String(format: "b%05d", $0) })
                #expect(try await store.places.liveSummaries().summaries.map(\.id) == batches.ids, "the same read, collected")
            },
            ContractCase("places", "insert refuses a taken id with conflict, whether an API or a seeded place holds it") { store in
                let owner = try await store.addUsers("ann")[0]
                try await store.places.insert(Sample.place("api-1", owner: owner))
                try await store.places.seed([Sample.place("seed-1")])
                await expectError(.conflict) { try await store.places.insert(Sample.place("api-1", name: "Again", owner: owner)) }
                await expectError(.conflict) { try await store.places.insert(Sample.place("seed-1", name: "Again", owner: owner)) }
                #expect(try await store.places.place(id: "api-1")?.name == "Place api-1")
                #expect(try await store.places.place(id: "seed-1")?.name == "Place seed-1")
                #expect(try await store.places.liveCount() == 2)
            },
            ContractCase("places", "update saves a place whole and answers not_found for a place never stored") { store in
                let owner = try await store.addUsers("ann")[0]
                try await store.places.insert(Sample.place("api-1", owner: owner))
                var changed = Sample.place("api-1", lat: 41, lon: -73, name: "Renamed", owner: owner)
                changed.tags = ["new"]
                changed.website = "https://example.com"
                changed.updatedAt = Sample.at(60)
                try await store.places.update(changed)
                #expect(try await store.places.place(id: "api-1") == changed)
                await expectError(.notFound) { try await store.places.update(Sample.place("ghost", owner: owner)) }
                #expect(try await store.places.place(id: "ghost") == nil)
            },
            ContractCase("places", "a place deleted through update leaves every live read, still reads by id, and comes back when restored") {
                store in
                let owner = try await store.addUsers("ann")[0]
                try await store.places.insert(Sample.place("a", name: "Lighthouse", owner: owner))
                try await store.places.insert(Sample.place("b", name: "Lantern", owner: owner))
                let before = try await ChangeFeedContract.settled(store)
                var deleted = Sample.place("a", name: "Lighthouse", owner: owner)
                deleted.deletedAt = Sample.at(10)
                deleted.updatedAt = Sample.at(10)
                try await store.places.update(deleted)

                #expect(try await store.places.place(id: "a")?.deletedAt == Sample.at(10))
                #expect(try await store.places.liveSummaries().summaries.map(\.id) == ["b"])
                #expect(try await store.places.liveCount() == 1)
                #expect(try await !store.places.isEmpty(), "a place was stored once, deleted or not")
                let search = try PlaceSearchQuery.parse(q: "place", lat: nil, lon: nil, radius: nil, page: PageRequest())
                #expect(try await store.search(search).items.map(\.place.id) == ["b"])
                let gone = try #require(try await store.places.changes(since: before, limit: 10))
                #expect(gone.deleted == ["a"] && gone.upserted.isEmpty)

                var restored = deleted
                restored.deletedAt = nil
                restored.updatedAt = Sample.at(20)
                try await store.places.update(restored)
                let back = try #require(try await store.places.changes(since: gone.revision, limit: 10))
                #expect(back.upserted.map(\.id) == ["a"] && back.deleted.isEmpty)
                #expect(Set(try await store.places.liveSummaries().summaries.map(\.id)) == ["a", "b"])
                #expect(try await store.places.liveCount() == 2)
            },
            ContractCase("places", "additionBlocking answers the allowed-th newest of the person's additions at or after a moment") { store in
                let ids = try await store.addUsers("ann", "bob")
                let (ann, bob) = (ids[0], ids[1])
                for (id, seconds) in [("a3", 300), ("a1", 100), ("a2", 200)] {
                    var place = Sample.place(id, owner: ann)
                    place.createdAt = Sample.at(seconds)
                    try await store.places.insert(place)
                }
                try await store.places.insert(Sample.place("b1", owner: bob))
                try await store.places.seed([Sample.place("s1")])
                #expect(try await store.places.additionBlocking(ownerID: ann, since: Sample.at(200), allowed: 1) == Sample.at(300))
                #expect(try await store.places.additionBlocking(ownerID: ann, since: Sample.at(200), allowed: 2) == Sample.at(200))
                #expect(try await store.places.additionBlocking(ownerID: ann, since: Sample.at(200), allowed: 3) == nil, "two since then")
                #expect(try await store.places.additionBlocking(ownerID: ann, since: Sample.at(0), allowed: 3) == Sample.at(100))
                #expect(try await store.places.additionBlocking(ownerID: ann, since: Sample.at(301), allowed: 1) == nil)
                #expect(try await store.places.additionBlocking(ownerID: bob, since: Sample.at(0), allowed: 2) == nil)
            },
            ContractCase("places", "an insert with a limit on additions stores the place only while its owner added fewer") { store in
                let ann = try await store.addUsers("ann")[0]
                let limit = AdditionLimit(allowed: 2, since: Sample.at(100))
                for (id, seconds) in [("old", 50), ("a1", 100), ("a2", 200)] {
                    var place = Sample.place(id, owner: ann)
                    place.createdAt = Sample.at(seconds)
                    #expect(try await store.places.insert(place, limit: limit), "\(id): fewer than two since 100")
                }
                var third = Sample.place("a3", owner: ann)
                third.createdAt = Sample.at(300)
                #expect(try await store.places.insert(third, limit: limit) == false)
                #expect(try await store.places.place(id: "a3") == nil, "nothing stored")
                #expect(try await store.places.insert(third, limit: AdditionLimit(allowed: 2, since: Sample.at(101))))
                #expect(try await store.places.place(id: "a3")?.ownerID == ann)
            },
            ContractCase("places", "favourites are marked idempotently, listed newest first and unmarked") { store in
                let ann = try await store.addUsers("ann", "bob")[0]
                try await store.places.seed(["a", "b", "c"].map { Sample.place($0) })
                try await store.places.setFavorite(userID: ann, placeID: "b", favorite: true, now: Sample.at(10))
                try await store.places.setFavorite(userID: ann, placeID: "a", favorite: true, now: Sample.at(30))
                try await store.places.setFavorite(userID: ann, placeID: "c", favorite: true, now: Sample.at(20))
                try await store.places.setFavorite(userID: ann, placeID: "b", favorite: true, now: Sample.at(40))
                let favourites = try await store.places.favorites(userID: ann)
                #expect(favourites.map(\.placeID) == ["a", "c", "b"])
                #expect(favourites.map(\.createdAt) == [Sample.at(30), Sample.at(20), Sample.at(10)], "marking again keeps the first time")
                try await store.places.setFavorite(userID: ann, placeID: "c", favorite: false, now: Sample.at(50))
                try await store.places.setFavorite(userID: ann, placeID: "c", favorite: false, now: Sample.at(50))
                #expect(try await store.places.favorites(userID: ann).map(\.placeID) == ["a", "b"])
                #expect(try await store.places.favorites(userID: "u-bob").isEmpty)
            },
            ContractCase("places", "ratings keep each place's count and sum: saved, replaced, removed, and nil when there was none") { store in
                let ids = try await store.addUsers("ann", "bob")
                try await store.places.seed([Sample.place("a"), Sample.place("b")])
                func rating(_ user: String, _ stars: Int, on place: String = "a") -> Rating {
                    Rating(placeId: place, userId: user, stars: stars, review: "\(stars) stars", createdAt: Sample.now, updatedAt: Sample.now)
                }
                #expect(try await store.places.save(rating(ids[0], 4)) == RatingAggregate(count: 1, sum: 4))
                #expect(try await store.places.save(rating(ids[1], 2)) == RatingAggregate(count: 2, sum: 6))
                #expect(try await store.places.save(rating(ids[0], 5)) == RatingAggregate(count: 2, sum: 7), "a second rating replaces the first")
                #expect(try await store.places.save(rating(ids[0], 1, on: "b")) == RatingAggregate(count: 1, sum: 1))
                #expect(try await store.places.place(id: "a")?.rating == RatingAggregate(count: 2, sum: 7))
                let live = try await store.places.liveSummaries().summaries.first { $0.id == "a" }
                #expect(live?.rating == RatingAggregate(count: 2, sum: 7))

                #expect(try await store.places.deleteRating(userID: ids[1], placeID: "a") == RatingAggregate(count: 1, sum: 5))
                #expect(try await store.places.deleteRating(userID: ids[1], placeID: "a") == nil)
                #expect(try await store.places.deleteRating(userID: ids[1], placeID: "b") == nil)
                #expect(try await store.places.place(id: "a")?.rating == RatingAggregate(count: 1, sum: 5))
                #expect(try await store.places.place(id: "b")?.rating == RatingAggregate(count: 1, sum: 1))
            },
            ContractCase("places", "a rating of a place that is not stored, or deleted, is not_found and changes nothing") { store in
                let ann = try await store.addUsers("ann")[0]
                var gone = Sample.place("gone")
                try await store.places.seed([Sample.place("a"), gone])
                gone.deletedAt = Sample.at(5)
                try await store.places.update(gone)
                for placeID in ["missing", "gone"] {
                    let rating = Rating(placeId: placeID, userId: ann, stars: 3, review: nil, createdAt: Sample.now, updatedAt: Sample.now)
                    await #expect(throws: PlacesError.notFound("no place with id '\(placeID)'")) { try await store.places.save(rating) }
                }
                #expect(try await store.places.place(id: "gone")?.rating == RatingAggregate(count: 0, sum: 0))
                #expect(try await store.places.deleteRating(userID: ann, placeID: "gone") == nil)
            },
            ContractCase("places", "search finds live places matching every word as a prefix, inside the circle, and pages in one order") {
                store in
                try await store.places.seed([
                    Sample.place("near-1", lat: 40, lon: -74, name: "Harbor Lighthouse"),
                    Sample.place("near-2", lat: 40.01, lon: -74, name: "Lighthouse Cafe"),
                    Sample.place("near-3", lat: 40.02, lon: -74, name: "Light Bakery"),
                    Sample.place("near-4", lat: 40.03, lon: -74, name: "Harbor Market"),
                    Sample.place("far-1", lat: 10, lon: 10, name: "Lighthouse Far Away"),
                ])
                func search(_ q: String, circle: Bool = false, _ page: PageRequest = PageRequest(limit: 100)) async throws -> [String] {
                    let query = try PlaceSearchQuery.parse(q: q, lat: circle ? "40" : nil, lon: circle ? "-74" : nil, radius: nil, page: page)
                    return try await store.search(query).items.map(\.place.id)
                }
                #expect(Set(try await search("lighthouse")) == ["near-1", "near-2", "far-1"])
                #expect(Set(try await search("ligh")) == ["near-1", "near-2", "near-3", "far-1"], "a word matches as a prefix")
                #expect(try await search("harbor light") == ["near-1"], "every word must match")
                #expect(Set(try await search("lighthouse", circle: true)) == ["near-1", "near-2"])
                #expect(try await search("zeppelin").isEmpty)

                let whole = try await search("ligh")
                let paged = try await allPages(limit: 1) { page in
                    try await store.search(try PlaceSearchQuery.parse(q: "ligh", lat: nil, lon: nil, radius: nil, page: page))
                }
                #expect(paged.map(\.place.id) == whole, "pages of one follow the order of one big page")
                let pagedInCircle = try await allPages(limit: 2) { page in
                    try await store.search(try PlaceSearchQuery.parse(q: "ligh", lat: "40", lon: "-74", radius: nil, page: page))
                }
                #expect(pagedInCircle.map(\.place.id) == (try await search("ligh", circle: true)))
            },
            ContractCase("places", "search hits that match alike come by distance inside a circle, then by id") { store in
                func twin(_ id: String, lat: Double) -> Place {
                    var place = Sample.place(id, lat: lat, lon: -74, name: "Twin Tower")
                    place.description = "Same words"
                    return place
                }
                try await store.places.seed([twin("t-c", lat: 40.01), twin("t-b", lat: 40), twin("t-a", lat: 40.01), twin("t-d", lat: 40.02)])
                let plain = try PlaceSearchQuery.parse(q: "twin", lat: nil, lon: nil, radius: nil, page: PageRequest(limit: 100))
                #expect(try await store.search(plain).items.map(\.place.id) == ["t-a", "t-b", "t-c", "t-d"])
                let circle = try PlaceSearchQuery.parse(q: "twin", lat: "40", lon: "-74", radius: "5", page: PageRequest(limit: 100))
                let hits = try await store.search(circle).items
                #expect(hits.map(\.place.id) == ["t-b", "t-a", "t-c", "t-d"])
                #expect(hits.first?.place.distanceMeters == 0)
                let paged = try await allPages(limit: 1) { page in
                    try await store.search(try PlaceSearchQuery.parse(q: "twin", lat: "40", lon: "-74", radius: "5", page: page))
                }
                #expect(paged.map(\.place.id) == ["t-b", "t-a", "t-c", "t-d"])

                // A cursor is the client's to send back: whatever numbers one holds, the answer is a page, never a crash.
                for bits in [Double.infinity, -.infinity, .nan, 1e300] {
                    let crafted = PageRequest(limit: 5, after: [PageRequest.keyPart(bits), "t-a"])
                    _ = try await store.search(try PlaceSearchQuery.parse(q: "twin", lat: nil, lon: nil, radius: nil, page: crafted))
                }
            },
            ContractCase("places", "search near a point orders hits that match alike by distance from it, excludes none, and pages in one order") {
                store in
                var described = Sample.place("sf-described", lat: 37.78, lon: -122.40, name: "Corner Spot")
                described.description = "pier tacos"
                try await store.places.seed([
                    Sample.place("sf-pier", lat: 37.80, lon: -122.41, name: "Pier Tacos"),
                    Sample.place("cdmx-pier", lat: 19.43, lon: -99.13, name: "Pier Tacos"),
                    Sample.place("ny-pier", lat: 40.71, lon: -74.0, name: "Pier Tacos"),
                    Sample.place("sf-unmatched", lat: 37.79, lon: -122.40, name: "Corner Spot"), described,
                ])
                func hits(near: String?, _ page: PageRequest = PageRequest(limit: 100)) async throws -> [PlaceSearchHit] {
                    try await store.search(try PlaceSearchQuery.parse(q: "pier taco", lat: nil, lon: nil, radius: nil, near: near, page: page)).items
                }
                #expect(try await hits(near: nil).map(\.place.id) == ["cdmx-pier", "ny-pier", "sf-pier", "sf-described"])
                let fromSF = try await hits(near: "37.7749,-122.4194")
                #expect(fromSF.map(\.place.id) == ["sf-pier", "cdmx-pier", "ny-pier", "sf-described"], "nearest first among alike")
                #expect(fromSF.allSatisfy { $0.place.distanceMeters != nil })
                let sfDistance = Geodesy.distanceMeters(Coordinate(latitude: 37.7749, longitude: -122.4194), Coordinate(latitude: 37.80, longitude: -122.41))
                #expect(abs((fromSF.first?.place.distanceMeters ?? 0) - sfDistance) < 0.01)
                #expect(try await hits(near: "40.7,-74").map(\.place.id) == ["ny-pier", "cdmx-pier", "sf-pier", "sf-described"])
                let paged = try await allPages(limit: 1) { page in
                    try await store.search(try PlaceSearchQuery.parse(q: "pier taco", lat: nil, lon: nil, radius: nil, near: "40.7,-74", page: page))
                }
                #expect(paged.map(\.place.id) == ["ny-pier", "cdmx-pier", "sf-pier", "sf-described"])
                for (near, lat) in [("91,0", nil), ("37.7", nil), ("a,b", nil), ("37.7,-122.4", "37.7")] as [(String, String?)] {
                    do {
                        _ = try PlaceSearchQuery.parse(q: "pier", lat: lat, lon: lat.map { _ in "-122.4" }, radius: nil, near: near, page: PageRequest())
                        Issue.record("near=\(near) was accepted")
                    } catch let error as PlacesError {
                        #expect(error.field == "near", "\(near)")
                    }
                }
            },
            ContractCase("places", "search ignores case and accents, and ranks by SearchText's relevance (name 10, labels 4, description 1)") {
                store in
                func place(_ id: String, name: String, tags: [String], cuisine: String?, description: String) -> Place {
                    var place = Sample.place(id, name: name)
                    place.tags = tags
                    place.cuisine = cuisine
                    place.description = description
                    return place
                }
                try await store.places.seed([
                    place("named", name: "Café Lumière", tags: ["quiet"], cuisine: nil, description: "Coffee"),
                    place("labelled", name: "Corner Spot", tags: ["CAFÉ"], cuisine: "Crêpes", description: "Coffee and crêpes"),
                    place("described", name: "Old Mill", tags: ["quiet"], cuisine: nil, description: "Once a cafe, now a mill"),
                    place("nowhere", name: "Harbor", tags: ["view"], cuisine: nil, description: "Boats and decaf"),
                ])
                func hits(_ q: String) async throws -> [String] {
                    let query = try PlaceSearchQuery.parse(q: q, lat: nil, lon: nil, radius: nil, page: PageRequest(limit: 100))
                    return try await store.search(query).items.map { "\($0.place.id) \(Int($0.details.relevance))" }
                }
                #expect(try await hits("cafe") == ["named 10", "labelled 4", "described 1"], "'decaf' holds cafe, but does not begin with it")
                #expect(try await hits("CAFÉ") == ["named 10", "labelled 4", "described 1"])
                #expect(try await hits("crepe coffee") == ["labelled 6"], "crêpes: labels 4 + description 1; coffee: description 1")
                #expect(try await hits("lumi cafe") == ["named 20"])
                #expect(try await hits("quiet") == ["described 4", "named 4"], "equal relevance: by id")
            },
        ] + PlaceRepositoryContract.seedCases + PlaceRepositoryContract.circleCases
    }
}

/// The batches of a whole read, as they came.
private final class BatchesReceived: PlaceSummaryReceiver {
    private let received = Mutex<[[PlaceSummary]]>([])

    func receive(_ batch: [PlaceSummary]) {
        received.withLock { $0.append(batch) }
    }

    var sizes: [Int] { received.withLock { $0.map(\.count).filter { $0 > 0 } } }
    var ids: [String] { received.withLock { $0.flatMap { $0.map(\.id) } } }
}
