import Foundation
import GeoIndex
import PlacesCore
import PlacesTestSupport
import Testing

extension PlaceRepositoryContract {
    /// Search inside a circle answers exactly the places within its radius (Geodesy's distance, checked by brute force
    /// over every stored place), where a circle's latitude band and longitudes are awkward: astride the antimeridian,
    /// at high latitude, and over a pole.
    static var circleCases: [ContractCase] {
        [
            ContractCase("places", "search inside a circle finds exactly the places within it, across the antimeridian and over a pole") {
                store in
                let centres = [
                    Coordinate(latitude: -16.8, longitude: 179.95),  // Taveuni, astride the 180° meridian
                    Coordinate(latitude: -16.8, longitude: -179.97),
                    Coordinate(latitude: 70, longitude: 179.9),  // far north: the circle spans a degree of longitude
                    Coordinate(latitude: 89.9, longitude: 30),  // the circle covers the North Pole
                    Coordinate(latitude: -89.95, longitude: -120),  // and the South Pole
                    Coordinate(latitude: 0, longitude: 0),
                ]
                var random = SplitMix64(seed: 20)
                var places: [Place] = []
                for (number, centre) in centres.enumerated() {
                    let spread = min(180, 0.7 / max(0.01, cos(centre.latitude * Double.pi / 180)))
                    for index in 0..<60 {
                        let coordinate = random.coordinate(near: centre, latitudeSpread: 0.7, longitudeSpread: spread, latitudes: -89.999...89.999)
                        places.append(Sample.place("c\(number)-\(index)", lat: coordinate.latitude, lon: coordinate.longitude, name: "Circle Stop"))
                    }
                }
                try await store.places.seed(places)
                for centre in centres {
                    let query = { (page: PageRequest) in
                        try PlaceSearchQuery.parse(q: "circle", lat: "\(centre.latitude)", lon: "\(centre.longitude)", radius: "20", page: page)
                    }
                    let radius = try #require(try query(PageRequest()).circle?.radiusMeters)
                    let hits = try await allPages(limit: 50) { page in try await store.search(try query(page)) }
                    let expected = places.map { (id: $0.id, distance: Geodesy.distanceMeters(centre, $0.coordinate)) }
                        .filter { $0.distance <= radius }
                        .sorted { ($0.distance, $0.id) < ($1.distance, $1.id) }
                    #expect(!expected.isEmpty && expected.count < places.count, "\(centre): \(expected.count) inside")
                    #expect(hits.map(\.place.id) == expected.map(\.id), "\(centre)")
                    #expect(hits.map { $0.place.distanceMeters ?? -1 } == expected.map(\.distance), "\(centre)")
                }
            }
        ]
    }
}
