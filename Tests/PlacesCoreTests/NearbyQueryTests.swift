import GeoIndex
import Testing

@testable import PlacesCore

@Suite("Nearby query parsing")
struct NearbyQueryTests {
    @Test func defaultsApplyWhenOnlyTheCentreIsGiven() throws {
        let query = try NearbyQuery.parse(lat: "37.77", lon: "-122.42")
        #expect(query.center == Coordinate(latitude: 37.77, longitude: -122.42))
        #expect(query.radiusMiles == 5)
        #expect(query.limit == 50)
        #expect(query.kind == nil)
        #expect(!query.capped)
    }

    @Test func aRadiusAboveTwentyMilesIsCappedNotRefused() throws {
        let query = try NearbyQuery.parse(lat: "0", lon: "0", radius: "50")
        #expect(query.radiusMiles == 20)
        #expect(query.capped)
        #expect(query.radiusMeters == 32_186.88)
    }

    @Test func exactlyTwentyMilesIsNotCapped() throws {
        let query = try NearbyQuery.parse(lat: "0", lon: "0", radius: "20")
        #expect(!query.capped)
    }

    @Test(
        arguments: [
            (nil, "1", "lat"), ("", "1", "lat"), ("abc", "1", "lat"), ("NaN", "1", "lat"), ("nan", "1", "lat"),
            ("inf", "1", "lat"), ("91", "1", "lat"), ("-90.0001", "1", "lat"), ("1", nil, "lon"), ("1", "180.5", "lon"),
            ("1", "-181", "lon"), ("1", "0x10", "lon"), (" 51.5", "1", "lat"), ("51.5\u{200B}", "1", "lat"),
        ] as [(String?, String?, String)]
    )
    func badCoordinatesNameTheirField(lat: String?, lon: String?, field: String) {
        #expect(
            performing: { _ = try NearbyQuery.parse(lat: lat, lon: lon) },
            throws: { error in
                (error as? PlacesError)?.field == field && (error as? PlacesError)?.code == .invalidInput
            }
        )
    }

    @Test(arguments: [("0", "radius"), ("-1", "radius"), ("abc", "radius"), ("nan", "radius"), ("inf", "radius")])
    func badRadiusIsRefused(radius: String, field: String) {
        #expect(
            performing: { _ = try NearbyQuery.parse(lat: "1", lon: "1", radius: radius) },
            throws: { error in
                (error as? PlacesError)?.field == field && (error as? PlacesError)?.code == .invalidInput
            }
        )
    }

    @Test(arguments: ["0", "501", "-5", "2.5", "ten"])
    func badLimitIsRefused(limit: String) {
        #expect(
            performing: { _ = try NearbyQuery.parse(lat: "1", lon: "1", limit: limit) },
            throws: { error in
                (error as? PlacesError)?.field == "limit"
            }
        )
    }

    @Test func limitBoundsAreInclusive() throws {
        #expect(try NearbyQuery.parse(lat: "1", lon: "1", limit: "1").limit == 1)
        #expect(try NearbyQuery.parse(lat: "1", lon: "1", limit: "500").limit == 500)
    }

    @Test func kindIsParsedAndUnknownKindsRefused() throws {
        #expect(try query(kind: "restaurant").kind == .restaurant)
        for kind in ["Restaurant", " gem", ""] {
            #expect(
                performing: { _ = try query(kind: kind) },
                throws: { error in
                    (error as? PlacesError)?.field == "kind"
                }
            )
        }
        #expect(
            performing: { _ = try query(kind: "bar") },
            throws: { error in
                (error as? PlacesError)?.field == "kind"
            }
        )
    }

    @Test func hugeInputIsNotEchoedBackWhole() {
        let huge = String(repeating: "x", count: 65_000)
        #expect(
            performing: { _ = try NearbyQuery.parse(lat: huge, lon: "1") },
            throws: { error in
                guard let error = error as? PlacesError else { return false }
                return error.message.count < 200 && error.message.contains("65000 characters")
            }
        )
    }

    @Test func boundaryCoordinatesAreAccepted() throws {
        _ = try NearbyQuery.parse(lat: "90", lon: "180")
        _ = try NearbyQuery.parse(lat: "-90", lon: "-180")
        _ = try NearbyQuery.parse(lat: "1.5e1", lon: "+2")
    }

    /// A query at (1, 1) whose only filter is `kind`, parsed as a nearby request's is.
    private func query(kind: String) throws -> NearbyQuery {
        let filter = try PlaceFilter.parse(kind: kind, tags: [], cuisine: nil, minPrice: nil, maxPrice: nil, minRating: nil, openAt: nil)
        return try NearbyQuery.parse(lat: "1", lon: "1", filter: filter)
    }
}
