import ArgumentParser
import Foundation
import GeoIndex
import PlacesCore
import Testing

@testable import PlacesCLI

@Suite("places nearby and meet")
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

    /// The fairest place first, with the farthest origin's distance and each origin's; one origin is bad input.
    @Test func meetListsTheFairestPlaceFirst() throws {
        let places = try PlacesBinary()
        defer { try? FileManager.default.removeItem(at: places.folder) }
        try places.seed(
            #"""
            [{"id":"mission","name":"Mission Tacos","kind":"restaurant","lat":37.76,"lon":-122.42},
             {"id":"between","name":"Halfway Café","kind":"restaurant","lat":37.78,"lon":-122.34},
             {"id":"oakland","name":"Lake Merritt Bench","kind":"gem","lat":37.80,"lon":-122.26},
             {"id":"sacramento","name":"Capitol Park","kind":"gem","lat":38.58,"lon":-121.49}]
            """#,
            named: "bay.json"
        )
        let origins = ["--at", "37.76,-122.42", "--at", "37.80,-122.26"]
        let answer = try places.json(["meet"] + origins)
        let found = answer["places"] as? [[String: Any]] ?? []
        #expect(found.compactMap { $0["id"] as? String } == ["between", "mission", "oakland"], "Sacramento is far from both")
        #expect((found.first?["distances"] as? [Any])?.count == 2)
        let table = try places.run(["meet"] + origins + ["--kind", "gem"])
        #expect(table.status == 0 && table.out.hasPrefix("1 place within 20 mi of all 2 origins") && table.out.contains("Lake Merritt Bench"), "\(table.out)")
        let one = try places.run(["meet", "--at", "37.76,-122.42"])
        #expect(one.status == 64 && one.err.contains("at"))
        #expect(try places.run(["meet", "--at", "-33.86,151.21", "--at", "-33.87,151.2"]).status == 0, "a negative latitude is a value")
    }
}
