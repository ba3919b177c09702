import Foundation
import PlacesCore
import Testing

/// What every `PhotoRepository` does: bytes stored once per content in chunks and removed with their last photo, a
/// place's count and cover kept in its row (a place change on the feed), the bounds checked in the addition's
/// transaction, pictures, and photos that leave with their adder's account.
enum PhotoRepositoryContract {
    /// Bytes that are not an image (the repository stores what the service cleaned; it never reads them): `count`
    /// bytes made from `seed`.
    static func content(_ count: Int, seed: UInt8) -> PhotoContent {
        PhotoContent((0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31) ^ seed })
    }

    static func photo(_ id: String, of place: String?, by user: String, _ content: PhotoContent, at seconds: Int) -> Photo {
        Photo(
            id: id,
            placeID: place,
            userID: user,
            username: String(user.dropFirst(2)),
            format: .jpeg,
            width: 640,
            height: 480,
            byteCount: content.bytes.count,
            contentHash: content.hash,
            caption: place.map { "Photo \(id) of \($0)" },
            createdAt: Sample.at(seconds)
        )
    }

    /// Generous bounds, as of `seconds`.
    static func rules(perPlace: Int = 20, perDay: Int = 100, at seconds: Int) -> PhotoRules {
        PhotoRules(perPlace: perPlace, window: WindowLimit(allowed: perDay, since: Sample.at(seconds - 86_400)))
    }

    /// The whole stored bytes of a photo, read chunk by chunk.
    static func bytes(of id: String, _ store: any RepositoryStore) async throws -> [UInt8]? {
        guard let stored = try await store.photos.photo(id: id) else { return nil }
        var bytes: [UInt8] = []
        for index in 0..<stored.chunkCount {
            guard let chunk = try await store.photos.chunk(contentHash: stored.photo.contentHash, index: index) else { return nil }
            bytes += chunk
        }
        return bytes
    }

    static var cases: [ContractCase] {
        [
            ContractCase("photos", "a photo's bytes come back in chunks; the place counts it, shows the newest as its cover, and the feed says so") {
                store in
                let (ann, bob) = try await { let ids = try await store.addUsers("ann", "bob"); return (ids[0], ids[1]) }()
                try await store.places.seed([Sample.place("p-1", owner: nil)])
                let big = content(PhotoContent.chunkSize * 2 + 1_000, seed: 7)
                let small = content(5_000, seed: 9)
                let before = try await store.feedRows().count
                #expect(try await store.photos.add(photo("ph-1", of: "p-1", by: ann, big, at: 1), content: big, rules: rules(at: 1)) == .added)
                #expect(try await store.photos.add(photo("ph-2", of: "p-1", by: bob, small, at: 2), content: small, rules: rules(at: 2)) == .added)
                #expect(try await store.photos.add(photo("ph-3", of: "p-1", by: ann, small, at: 2), content: small, rules: rules(at: 2)) == .added)

                let stored = try #require(try await store.photos.photo(id: "ph-1"))
                #expect(stored.chunkCount == 3 && !stored.placeDeleted && stored.placeOwnerID == nil)
                #expect(stored.photo == photo("ph-1", of: "p-1", by: ann, big, at: 1))
                #expect(try await bytes(of: "ph-1", store) == big.bytes)
                #expect(try await store.photos.chunk(contentHash: big.hash, index: 0)?.count == PhotoContent.chunkSize)
                #expect(try await store.photos.chunk(contentHash: big.hash, index: 3) == nil)
                #expect(try await store.photos.photo(id: "ph-none") == nil)

                let place = try #require(try await store.places.place(id: "p-1"))
                #expect(place.photoCount == 3 && place.coverPhotoID == "ph-3", "newest first: by time, then id")
                let summary = try #require(try await store.places.liveSummaries().summaries.first { $0.id == "p-1" })
                #expect(summary.photoCount == 3 && summary.coverPhotoID == "ph-3")
                let placeRows = try await store.feedRows().dropFirst(before).filter { $0.kind == "place" }
                #expect(placeRows.count == 3 && placeRows.allSatisfy { $0.subject == "p-1" })

                let all = try await allPages(limit: 2) { try await store.photos.photos(placeID: "p-1", page: $0) }
                #expect(all.map(\.id) == ["ph-3", "ph-2", "ph-1"])
                #expect(all[1].username == "bob" && all[1].caption == "Photo ph-2 of p-1")
                #expect(try await store.photos.photos(userID: ann).map(\.id) == ["ph-1", "ph-3"])
            },
            ContractCase("photos", "identical bytes are stored once and go with their last photo; the cover moves back") { store in
                let ann = try await store.addUsers("ann")[0]
                try await store.places.seed([Sample.place("p-1"), Sample.place("p-2")])
                let shared = content(PhotoContent.chunkSize + 10, seed: 3)
                #expect(try await store.photos.add(photo("ph-1", of: "p-1", by: ann, shared, at: 1), content: shared, rules: rules(at: 1)) == .added)
                #expect(try await store.photos.add(photo("ph-2", of: "p-2", by: ann, shared, at: 2), content: shared, rules: rules(at: 2)) == .added)
                let other = content(100, seed: 4)
                #expect(try await store.photos.add(photo("ph-3", of: "p-1", by: ann, other, at: 3), content: other, rules: rules(at: 3)) == .added)

                #expect(try await store.photos.delete(id: "ph-1"))
                #expect(try await store.photos.delete(id: "ph-1") == false)
                #expect(try await bytes(of: "ph-2", store) == shared.bytes, "the other photo still shows them")
                #expect(try await store.photos.delete(id: "ph-2"))
                #expect(try await store.photos.chunk(contentHash: shared.hash, index: 0) == nil, "gone with the last photo")
                #expect(try await store.photos.delete(id: "ph-3"))
                #expect(try await store.photos.chunk(contentHash: other.hash, index: 0) == nil)
                let place = try #require(try await store.places.place(id: "p-1"))
                #expect(place.photoCount == 0 && place.coverPhotoID == nil)
            },
            ContractCase("photos", "an addition checks, in its transaction, the place, the photos per place and the photos in the window") {
                store in
                let (ann, bob) = try await { let ids = try await store.addUsers("ann", "bob"); return (ids[0], ids[1]) }()
                try await store.places.seed([Sample.place("p-1"), Sample.place("p-2")])
                let tiny = content(50, seed: 1)
                for index in 1...2 {
                    let outcome = try await store.photos.add(
                        photo("ph-\(index)", of: "p-1", by: ann, tiny, at: index * 10),
                        content: tiny,
                        rules: rules(perPlace: 2, perDay: 3, at: index * 10)
                    )
                    #expect(outcome == .added)
                }
                #expect(
                    try await store.photos.add(photo("ph-3", of: "p-1", by: ann, tiny, at: 30), content: tiny, rules: rules(perPlace: 2, perDay: 3, at: 30))
                        == .perPlaceReached
                )
                #expect(
                    try await store.photos.add(photo("ph-4", of: "p-1", by: bob, tiny, at: 30), content: tiny, rules: rules(perPlace: 2, perDay: 3, at: 30))
                        == .added,
                    "each person's own"
                )
                #expect(
                    try await store.photos.add(photo("ph-5", of: "p-2", by: ann, tiny, at: 40), content: tiny, rules: rules(perPlace: 2, perDay: 3, at: 40))
                        == .added
                )
                #expect(
                    try await store.photos.add(photo("ph-6", of: "p-2", by: ann, tiny, at: 50), content: tiny, rules: rules(perPlace: 2, perDay: 3, at: 50))
                        == .tooMany(oldestCounted: Sample.at(10))
                )
                var gone = try #require(try await store.places.place(id: "p-2"))
                gone.deletedAt = Sample.at(60)
                try await store.places.update(gone)
                #expect(try await store.photos.add(photo("ph-7", of: "p-2", by: bob, tiny, at: 70), content: tiny, rules: rules(at: 70)) == .placeGone)
                #expect(try await store.photos.add(photo("ph-8", of: "p-none", by: bob, tiny, at: 70), content: tiny, rules: rules(at: 70)) == .placeGone)
                // A photo of a deleted place is still stored (it answers again once the place is restored).
                #expect(try await store.photos.photo(id: "ph-5")?.placeDeleted == true)
            },
            ContractCase("photos", "one person's photos added at once are counted one at a time: the bound holds exactly") { store in
                let ann = try await store.addUsers("ann")[0]
                try await store.places.seed([Sample.place("p-1")])
                let outcomes = try await withThrowingTaskGroup(of: PhotoAddition.self) { group in
                    for index in 1...6 {
                        let bytes = content(40, seed: UInt8(index))
                        group.addTask {
                            try await store.photos.add(photo("ph-\(index)", of: "p-1", by: ann, bytes, at: 10), content: bytes, rules: rules(perPlace: 3, at: 10))
                        }
                    }
                    return try await group.reduce(into: []) { $0.append($1) }
                }
                #expect(outcomes.filter { $0 == .added }.count == 3)
                #expect(outcomes.filter { $0 == .perPlaceReached }.count == 3)
                #expect(try await store.places.place(id: "p-1")?.photoCount == 3)
            },
            ContractCase("photos", "bytes removed with a photo while another photo stores the same bytes are never lost") { store in
                let ann = try await store.addUsers("ann")[0]
                try await store.places.seed([Sample.place("p-1"), Sample.place("p-2")])
                for round in 0..<6 {
                    let shared = content(PhotoContent.chunkSize + 5, seed: UInt8(round))
                    #expect(try await store.photos.add(photo("ph-a\(round)", of: "p-1", by: ann, shared, at: round), content: shared, rules: rules(at: round)) == .added)
                    async let removed = store.photos.delete(id: "ph-a\(round)")
                    async let added = store.photos.add(photo("ph-b\(round)", of: "p-2", by: ann, shared, at: round), content: shared, rules: rules(at: round))
                    #expect(try await removed)
                    #expect(try await added == .added)
                    #expect(try await bytes(of: "ph-b\(round)", store) == shared.bytes)
                }
            },
            ContractCase("photos", "a picture replaces the one before; the account shows it; removing it frees its bytes") { store in
                let ann = try await store.addUsers("ann")[0]
                let first = content(300, seed: 1)
                let second = content(400, seed: 2)
                #expect(try await store.photos.setPicture(photo("ph-p1", of: nil, by: ann, first, at: 1), content: first))
                #expect(try await store.accounts.user(id: ann)?.profile.pictureURL == "/v1/photos/ph-p1")
                #expect(try await store.photos.setPicture(photo("ph-p2", of: nil, by: ann, second, at: 2), content: second))
                #expect(try await store.accounts.user(id: ann)?.profile.pictureURL == "/v1/photos/ph-p2")
                #expect(try await store.photos.photo(id: "ph-p1") == nil)
                #expect(try await store.photos.chunk(contentHash: first.hash, index: 0) == nil)
                #expect(try await bytes(of: "ph-p2", store) == second.bytes)
                #expect(try await store.photos.setPicture(photo("ph-p3", of: nil, by: "u-nobody", first, at: 3), content: first) == false)
                #expect(try await store.photos.removePicture(userID: ann))
                #expect(try await store.photos.removePicture(userID: ann) == false)
                #expect(try await store.accounts.user(id: ann)?.profile.pictureURL == nil)
                #expect(try await store.photos.chunk(contentHash: second.hash, index: 0) == nil)
            },
            ContractCase("photos", "deleting an account deletes its photos and picture, and the bytes only it showed") { store in
                let (ann, bob) = try await { let ids = try await store.addUsers("ann", "bob"); return (ids[0], ids[1]) }()
                try await store.places.seed([Sample.place("p-1")])
                let shared = content(200, seed: 5)
                let own = content(200, seed: 6)
                #expect(try await store.photos.add(photo("ph-1", of: "p-1", by: ann, shared, at: 1), content: shared, rules: rules(at: 1)) == .added)
                #expect(try await store.photos.add(photo("ph-2", of: "p-1", by: ann, own, at: 2), content: own, rules: rules(at: 2)) == .added)
                #expect(try await store.photos.add(photo("ph-3", of: "p-1", by: bob, shared, at: 3), content: shared, rules: rules(at: 3)) == .added)
                #expect(try await store.photos.setPicture(photo("ph-p", of: nil, by: ann, own, at: 4), content: own))
                try await store.accounts.delete(userID: ann)
                #expect(try await store.photos.photos(userID: ann).isEmpty)
                #expect(try await store.photos.photo(id: "ph-p") == nil)
                #expect(try await store.photos.chunk(contentHash: own.hash, index: 0) == nil)
                #expect(try await bytes(of: "ph-3", store) == shared.bytes)
                let place = try #require(try await store.places.place(id: "p-1"))
                #expect(place.photoCount == 1 && place.coverPhotoID == "ph-3")
            },
        ]
    }
}
