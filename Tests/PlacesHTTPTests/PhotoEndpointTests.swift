import Foundation
import Hummingbird
import HummingbirdTesting
import PlacesCore
import PlacesTestSupport
import Synchronization
import Testing

/// Photos over HTTP: uploads checked by their bytes and cleaned of where they were taken, the bytes served to anyone
/// with tags and a day's caching, lists, counts and covers in every list of places, who may delete, the bounds,
/// people's pictures, the export and account deletion.
@Suite("Photos over HTTP")
struct PhotoEndpointTests {
    static let places = Lisbon.places

    /// Sends `bytes` as the body with `contentType`.
    static func upload(
        _ client: some TestClientProtocol,
        _ uri: String,
        method: HTTPRequest.Method = .post,
        token: String?,
        bytes: [UInt8],
        contentType: String?
    ) async throws -> TestResponse {
        var headers: HTTPFields = [:]
        if let token { headers[.authorization] = "Bearer \(token)" }
        if let contentType { headers[.contentType] = contentType }
        return try await client.execute(uri: uri, method: method, headers: headers, body: ByteBuffer(bytes: bytes)) { $0 }
    }

    /// The JPEG with comment segments (COM, at most 65,533 bytes each) after its start marker, until it holds at least
    /// `size` bytes: a valid file of any size.
    static func padded(_ jpeg: [UInt8], to size: Int) -> [UInt8] {
        var padding: [UInt8] = []
        while jpeg.count + padding.count < size {
            let length = min(65_533, size - jpeg.count - padding.count)
            padding += [0xFF, 0xFE, UInt8((length + 2) >> 8), UInt8((length + 2) & 0xFF)] + Array(repeating: 0x61, count: length)
        }
        return Array(jpeg.prefix(2)) + padding + Array(jpeg.dropFirst(2))
    }

    @Test func anUploadedJPEGIsServedWithoutItsLocationAndShowsInThePlaceAndItsLists() async throws {
        try await TestApp.withClient(Self.places) { client in
            let ana = try await client.signUp("ana")
            let original = TestImages.jpeg(width: 64, height: 48, gps: true, orientation: 6, xmp: true, comment: true, mpf: true, trailer: true)
            #expect(!TestImages.leaks(original).isEmpty, "the test image carries a location")
            let added = try await Self.upload(
                client, "/v1/places/lx-a-tasca/photos?caption=The%20counter", token: ana, bytes: original, contentType: "image/jpeg"
            )
            #expect(added.status == .created, "\(String(buffer: added.body))")
            let photo = try TestApp.object(added.body)
            let id = try #require(photo["id"] as? String)
            let url = try #require(photo["url"] as? String)
            #expect(url == "/v1/photos/\(id)" && added.headers[.location] == url)
            #expect(id.hasPrefix("ph-") && id.count == 35, "128 random bits")
            #expect(photo["width"] as? Int == 64 && photo["height"] as? Int == 48 && photo["mediaType"] as? String == "image/jpeg")
            #expect(photo["caption"] as? String == "The counter" && photo["addedBy"] as? String == "ana" && photo["placeId"] as? String == "lx-a-tasca")

            // Served to anyone, without a token: no GPS, no XMP, no comment, no MPF, nothing after the image; still a JPEG.
            let served = try await client.execute(uri: url, method: .get) { $0 }
            #expect(served.status == .ok)
            let bytes = Array(served.body.readableBytesView)
            #expect(served.headers[.contentType] == "image/jpeg")
            #expect(served.headers[.cacheControl] == "public, max-age=86400")
            #expect(bytes.count == photo["bytes"] as? Int)
            #expect(TestImages.leaks(bytes) == [])
            let reread = try PhotoFile.clean(bytes, declaredMediaType: "image/jpeg")
            #expect(reread.bytes == bytes && reread.width == 64 && reread.height == 48 && reread.orientation == 6)
            let tag = try #require(served.headers[.eTag])
            let again = try await client.execute(uri: url, method: .get, headers: [.ifNoneMatch: tag]) { $0 }
            #expect(again.status == .notModified && again.body.readableBytes == 0 && again.headers[.eTag] == tag)

            // The place shows its newest photos; lists show the count and the cover.
            let place = try await client.object(.get, "/v1/places/lx-a-tasca", token: nil)
            #expect(place["photoCount"] as? Int == 1 && place["coverPhotoURL"] as? String == url)
            #expect((place["photos"] as? [[String: Any]])?.map { $0["id"] as? String } == [id])
            let other = try await client.object(.get, "/v1/places/lx-b-miradouro", token: nil)
            #expect(other["photoCount"] == nil && other["coverPhotoURL"] == nil && (other["photos"] as? [Any])?.isEmpty == true)
            let nearby = try await client.object(.get, "/v1/places/nearby?lat=38.7130&lon=-9.1450&radius=1", token: nil)
            let hits = try #require(nearby["places"] as? [[String: Any]])
            let tasca = try #require(hits.first { $0["id"] as? String == "lx-a-tasca" })
            #expect(tasca["photoCount"] as? Int == 1 && tasca["coverPhotoURL"] as? String == url)
            #expect(hits.filter { $0["id"] as? String != "lx-a-tasca" }.allSatisfy { $0["photoCount"] == nil && $0["coverPhotoURL"] == nil })
            let search = try await client.object(.get, "/v1/places/search?q=tasca", token: nil)
            let found = try #require((search["items"] as? [[String: Any]])?.first)
            #expect(found["photoCount"] as? Int == 1 && found["coverPhotoURL"] as? String == url)
            let list = try await client.object(.get, "/v1/places/lx-a-tasca/photos", token: nil)
            #expect((list["items"] as? [[String: Any]])?.first?["caption"] as? String == "The counter")
        }
    }

    @Test func pngAndWebPLoseTheirTextAndExifChunks() async throws {
        try await TestApp.withClient(Self.places) { client in
            let ana = try await client.signUp("ana")
            for (bytes, type) in [(TestImages.png(textGPS: true, exif: true), "image/png"), (TestImages.webp(gps: true, xmp: true), "image/webp")] {
                let added = try await Self.upload(client, "/v1/places/lx-b-miradouro/photos", token: ana, bytes: bytes, contentType: type)
                #expect(added.status == .created, "\(type): \(String(buffer: added.body))")
                let url = try #require(try TestApp.object(added.body)["url"] as? String)
                let served = Array(try await client.execute(uri: url, method: .get) { $0 }.body.readableBytesView)
                #expect(TestImages.leaks(served) == [], "\(type)")
                #expect(try PhotoFile.clean(served, declaredMediaType: type).bytes == served)
            }
        }
    }

    @Test func filesThatLieAboutTheirTypeOrAreBrokenAreRefusedWithClearCodes() async throws {
        try await TestApp.withClient(Self.places) { client in
            let ana = try await client.signUp("ana")
            let route = "/v1/places/lx-a-tasca/photos"
            let jpeg = TestImages.jpeg()
            func refused(_ bytes: [UInt8], _ type: String?, token: String? = nil, _ uri: String = route) async throws -> (HTTPResponse.Status, String?, String) {
                let response = try await Self.upload(client, uri, token: token ?? ana, bytes: bytes, contentType: type)
                let error = try TestApp.object(response.body)["error"] as? [String: Any]
                return (response.status, error?["code"] as? String, error?["message"] as? String ?? "")
            }
            #expect(try await refused(TestImages.svg, "image/svg+xml").1 == "unsupported_media_type")
            #expect(try await refused(TestImages.svg, "image/png").0 == .unsupportedMediaType)
            #expect(try await refused(TestImages.html, "image/png").0 == .unsupportedMediaType)
            #expect(try await refused(jpeg, "image/png").0 == .unsupportedMediaType, "a JPEG declared PNG")
            #expect(try await refused(jpeg, nil).0 == .unsupportedMediaType)
            let heic = try await refused(TestImages.heic, "image/heic")
            #expect(heic.0 == .unsupportedMediaType && heic.2.contains("image/jpeg") && heic.2.contains("image/png") && heic.2.contains("image/webp"))
            let truncated = try await refused(Array(jpeg.prefix(jpeg.count - 40)), "image/jpeg")
            #expect(truncated.0 == .badRequest && truncated.1 == "invalid_input")
            #expect(try await refused([], "image/jpeg").0 == .badRequest)
            #expect(try await refused(TestImages.jpeg(width: 8_001, height: 10), "image/jpeg").0 == .badRequest)
            let longCaption = try await Self.upload(
                client, route + "?caption=" + String(repeating: "a", count: 201), token: ana, bytes: jpeg, contentType: "image/jpeg"
            )
            #expect(longCaption.status == .badRequest)
            #expect(try TestApp.error(longCaption.body).field == "caption")
            #expect(try await refused(jpeg, "image/jpeg", "/v1/places/lx-none/photos").0 == .notFound)
            let anonymous = try await Self.upload(client, route, token: nil, bytes: jpeg, contentType: "image/jpeg")
            #expect(anonymous.status == .unauthorized)
            #expect(try await client.json(.get, "/v1/photos/ph-0123", token: nil).status == .notFound)
            #expect(try await client.json(.get, "/v1/photos/ph-" + String(repeating: "0", count: 32), token: nil).status == .notFound)
        }
    }

    @Test func photoUploadsTakeFiveMebibytesWhereEveryOtherRouteTakesOne() async throws {
        try await TestApp.withClient(Self.places) { client in
            let ana = try await client.signUp("ana")
            // Over 1 MiB of comments before the image: accepted on the photo route (and the comments removed).
            let large = Self.padded(TestImages.jpeg(), to: 1_300_000)
            #expect(large.count > 1_048_576)
            let added = try await Self.upload(client, "/v1/places/lx-a-tasca/photos", token: ana, bytes: large, contentType: "image/jpeg")
            #expect(added.status == .created)
            #expect((try TestApp.object(added.body)["bytes"] as? Int ?? .max) < 10_000)
            let picture = try await Self.upload(client, "/v1/me/picture", method: .put, token: ana, bytes: large, contentType: "image/jpeg")
            #expect(picture.status == .ok)
            // The same size elsewhere is 413 naming 1 MiB; over 5 MiB on the photo route names 5 MiB.
            let elsewhere = try await Self.upload(client, "/v1/places", token: ana, bytes: large, contentType: "application/json")
            #expect(elsewhere.status == .contentTooLarge && String(buffer: elsewhere.body).contains("1 MiB"))
            let huge = Self.padded(TestImages.jpeg(), to: 5_300_000)
            let tooLarge = try await Self.upload(client, "/v1/places/lx-a-tasca/photos", token: ana, bytes: huge, contentType: "image/jpeg")
            #expect(tooLarge.status == .contentTooLarge && String(buffer: tooLarge.body).contains("5 MiB"))
        }
    }

    @Test func whoAddedAPhotoOrOwnsItsPlaceMayDeleteItAndADeletedPlaceHidesItsPhotos() async throws {
        try await TestApp.withClient(Self.places) { client in
            let ana = try await client.signUp("ana")
            let ben = try await client.signUp("ben")
            let spot = try await client.object(
                .post, "/v1/places", token: ana, body: ["name": "Ana's Spot", "kind": "gem", "lat": 38.71, "lon": -9.14], expect: .created
            )
            let spotID = try #require(spot["id"] as? String)
            func add(_ token: String, to place: String, seed: Int) async throws -> String {
                let added = try await Self.upload(
                    client, "/v1/places/\(place)/photos", token: token, bytes: TestImages.jpeg(width: 10 + seed), contentType: "image/jpeg"
                )
                #expect(added.status == .created)
                return try #require(try TestApp.object(added.body)["id"] as? String)
            }
            let bensOfAnas = try await add(ben, to: spotID, seed: 1)
            let bensOfSeeded = try await add(ben, to: "lx-a-tasca", seed: 2)
            let anasOfSeeded = try await add(ana, to: "lx-a-tasca", seed: 3)
            // Ben may not delete Ana's photo of a seeded place; Ana may not delete Ben's there (nobody owns it).
            #expect(try await client.error(.delete, "/v1/photos/\(anasOfSeeded)", token: ben, expect: .forbidden).code == "forbidden")
            #expect(try await client.error(.delete, "/v1/photos/\(bensOfSeeded)", token: ana, expect: .forbidden).code == "forbidden")
            #expect(try await client.error(.delete, "/v1/photos/\(bensOfSeeded)", token: nil, expect: .unauthorized).code == "unauthorized")
            // Ana owns her spot: she may remove Ben's photo of it. Ben removes his own.
            #expect(try await client.json(.delete, "/v1/photos/\(bensOfAnas)", token: ana).status == .noContent)
            #expect(try await client.json(.delete, "/v1/photos/\(bensOfSeeded)", token: ben).status == .noContent)
            #expect(try await client.json(.get, "/v1/photos/\(bensOfSeeded)").status == .notFound)
            #expect(try await client.object(.get, "/v1/places/lx-a-tasca", token: nil)["photoCount"] as? Int == 1)

            // A photo of a deleted place answers 404 until the place is restored.
            let anasOfSpot = try await add(ana, to: spotID, seed: 4)
            #expect(try await client.json(.delete, "/v1/places/\(spotID)", token: ana).status == .noContent)
            #expect(try await client.json(.get, "/v1/photos/\(anasOfSpot)").status == .notFound)
            #expect(try await client.json(.get, "/v1/places/\(spotID)/photos").status == .notFound)
            _ = try await client.object(.post, "/v1/places/\(spotID)/restore", token: ana)
            #expect(try await client.json(.get, "/v1/photos/\(anasOfSpot)").status == .ok)
        }
    }

    @Test func twentyPhotosOfAPlaceAndTheDailyBoundAreEnforced() async throws {
        let now = Mutex(TestApp.now)
        let limits = UsageLimits(photosPerPlace: 2, photosPerDay: 3)
        let app = try await TestApp.togetherServices(Self.places, clock: { now.withLock { $0 } }, limits: limits).app
        try await app.test(.router) { client in
            let ana = try await client.signUp("ana")
            func add(_ place: String, width: Int) async throws -> TestResponse {
                try await Self.upload(client, "/v1/places/\(place)/photos", token: ana, bytes: TestImages.jpeg(width: width), contentType: "image/jpeg")
            }
            #expect(try await add("lx-a-tasca", width: 1).status == .created)
            #expect(try await add("lx-a-tasca", width: 2).status == .created)
            let third = try await add("lx-a-tasca", width: 3)
            #expect(third.status == .conflict)
            #expect(try TestApp.error(third.body).code == "limit_reached")
            now.withLock { $0 = TestApp.now.addingTimeInterval(3_600) }
            #expect(try await add("lx-b-miradouro", width: 4).status == .created)
            let fourth = try await add("lx-b-miradouro", width: 5)
            #expect(fourth.status == .tooManyRequests)
            #expect(try TestApp.error(fourth.body).code == "too_many_attempts")
            #expect(fourth.headers[.retryAfter] == String(86_400 - 3_600))
        }
    }

    @Test func aPictureShowsOnTheAccountIsReplacedAndRemovedAndGoesWithTheAccount() async throws {
        try await TestApp.withClient(Self.places) { client in
            let ana = try await client.signUp("ana")
            let ben = try await client.signUp("ben")
            let set = try await Self.upload(client, "/v1/me/picture", method: .put, token: ana, bytes: TestImages.png(), contentType: "image/png")
            #expect(set.status == .ok)
            let url = try #require(try TestApp.object(set.body)["url"] as? String)
            #expect(try await client.object(.get, "/v1/me", token: ana)["pictureURL"] as? String == url)
            let found = try await client.object(.get, "/v1/users/search?q=ana", token: ben)
            #expect((found["items"] as? [[String: Any]])?.first?["pictureURL"] as? String == url)
            let captioned = try await Self.upload(client, "/v1/me/picture?caption=me", method: .put, token: ana, bytes: TestImages.png(), contentType: "image/png"
            )
            #expect(captioned.status == .badRequest)

            let replaced = try await Self.upload(client, "/v1/me/picture", method: .put, token: ana, bytes: TestImages.jpeg(gps: true), contentType: "image/jpeg")
            let newURL = try #require(try TestApp.object(replaced.body)["url"] as? String)
            #expect(try await client.json(.get, url).status == .notFound, "the old picture goes")
            #expect(try await client.json(.get, newURL).status == .ok)
            #expect(try await client.json(.delete, "/v1/me/picture", token: ana).status == .noContent)
            #expect(try await client.json(.delete, "/v1/me/picture", token: ana).status == .noContent)
            #expect(try await client.object(.get, "/v1/me", token: ana)["pictureURL"] == nil)

            // The export lists photos and the picture; deleting the account deletes them.
            _ = try await Self.upload(client, "/v1/me/picture", method: .put, token: ana, bytes: TestImages.png(width: 3), contentType: "image/png")
            let added = try await Self.upload(client, "/v1/places/lx-a-tasca/photos", token: ana, bytes: TestImages.jpeg(), contentType: "image/jpeg")
            let photoURL = try #require(try TestApp.object(added.body)["url"] as? String)
            let export = try await client.object(.get, "/v1/me/export", token: ana)
            #expect((export["photos"] as? [[String: Any]])?.count == 2)
            #expect(try await client.json(.delete, "/v1/me", token: ana, body: ["password": "correct horse battery"]).status == .noContent)
            #expect(try await client.json(.get, photoURL).status == .notFound)
            #expect(try await client.object(.get, "/v1/places/lx-a-tasca", token: nil)["photoCount"] == nil)
        }
    }
}
