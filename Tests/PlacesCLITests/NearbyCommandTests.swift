import ArgumentParser
import Foundation
import GeoIndex
import PlacesCore
import Testing

@testable import PlacesCLI

@Suite("places nearby")
struct NearbyCommandTests {
    @Test func negativeCoordinatesParseAsUsersTypeThem() throws {
        let command = try Places.Nearby.parse(["--lat", "-16.8", "--lon", "-179.99", "--radius", "2", "--json"])
        #expect(command.lat == "-16.8")
        #expect(command.lon == "-179.99")
        #expect(command.listing.json)
    }

    @Test func badInputExits64() throws {
        let failure = Failure.exit(PlacesError.invalid("lat", "lat must be a number"))
        #expect(failure.rawValue == 64)
        #expect(Failure.exit(PlacesError(.internalError, "boom")).rawValue == 1)
    }

    @Test func theTableListsEveryPlaceNearestFirst() throws {
        let query = try NearbyQuery(center: Coordinate(latitude: 37.77, longitude: -122.42), radiusMiles: 25)
        let places = [
            NearbyPlace(summary: PlaceSummary(id: "a", kind: .gem, name: "Steps", coordinate: query.center, city: "SF"), distanceMeters: 10),
            NearbyPlace(summary: PlaceSummary(id: "b", kind: .restaurant, name: "Tacos", coordinate: query.center), distanceMeters: 1_609.344),
        ]
        let table = NearbyOutput.table(NearbyAnswer(query: query, places: places))
        let lines = table.split(separator: "\n")
        #expect(lines[0] == "2 places within 20.00 mi of 37.77000, -122.42000 (radius capped at 20 mi)")
        #expect(lines[1].hasPrefix("MILES"))
        #expect(lines[2].contains("Steps") && lines[2].contains("0.01"))
        #expect(lines[3].contains("Tacos") && lines[3].hasPrefix("1.00"))
    }

    @Test func byScoreTheTableShowsTheScoreFirst() throws {
        let query = try NearbyQuery(center: Coordinate(latitude: 37.77, longitude: -122.42), radiusMiles: 5, sort: .score)
        var rated = PlaceSummary(id: "b", kind: .restaurant, name: "Tacos", coordinate: query.center)
        rated.rating = RatingAggregate(count: 5, sum: 25)
        let places = [
            NearbyPlace(summary: rated, distanceMeters: 1_609.344),
            NearbyPlace(summary: PlaceSummary(id: "a", kind: .gem, name: "Steps", coordinate: query.center), distanceMeters: 10),
        ]
        let lines = NearbyOutput.table(NearbyAnswer(query: query, places: places)).split(separator: "\n")
        #expect(lines[1].hasPrefix("SCORE  MILES"))
        #expect(lines[2].hasPrefix("4.00") && lines[2].contains("Tacos"))
        #expect(lines[3].hasPrefix("3.00") && lines[3].contains("Steps"))
        #expect(throws: PlacesError.self) { _ = try NearbyQuery.parse(lat: "1", lon: "2", sort: "best") }
        #expect(try Places.Nearby.parse(["--lat", "1", "--lon", "2", "--sort", "score"]).sort == "score")
    }

    @Test func jsonIsTheAPIAnswer() throws {
        let query = try NearbyQuery(center: Coordinate(latitude: 1, longitude: 2), radiusMiles: 1)
        let text = NearbyOutput.json(NearbyAnswer(query: query, places: []))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        #expect(object["count"] as? Int == 0)
        #expect(object["capped"] as? Bool == false)
        #expect(object["radiusMiles"] as? Double == 1)
    }
}
