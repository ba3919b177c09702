import Foundation
import GeoIndex
import Testing

@testable import PlacesPostgres

/// The bounds a search inside a circle filters on in SQL: they hold every point of the circle (checked on points at the
/// circle's edge all round it), and are narrow in longitude wherever the circle does not reach a pole.
@Suite("A circle's bounds")
struct CircleBoundsTests {
    static let radius = 32_186.88

    /// The point `meters` from `origin` along `bearing` degrees (the spherical direct problem).
    static func destination(_ origin: Coordinate, meters: Double, bearing: Double) -> Coordinate {
        let angle = meters / Geodesy.earthRadiusMeters
        let direction = bearing * Double.pi / 180
        let phi = origin.latitude * Double.pi / 180
        let lambda = origin.longitude * Double.pi / 180
        let latitude = asin(min(1, max(-1, sin(phi) * cos(angle) + cos(phi) * sin(angle) * cos(direction))))
        var longitude = (lambda + atan2(sin(direction) * sin(angle) * cos(phi), cos(angle) - sin(phi) * sin(latitude))) * 180 / Double.pi
        if longitude > 180 { longitude -= 360 }
        if longitude < -180 { longitude += 360 }
        return Coordinate(latitude: latitude * 180 / Double.pi, longitude: longitude)
    }

    @Test(arguments: [
        Coordinate(latitude: 0, longitude: 0), Coordinate(latitude: -16.8, longitude: 179.95), Coordinate(latitude: -16.8, longitude: -179.97),
        Coordinate(latitude: 70, longitude: 179.9), Coordinate(latitude: 89.6, longitude: 10), Coordinate(latitude: 89.9, longitude: 30),
        Coordinate(latitude: -89.95, longitude: -120), Coordinate(latitude: 45, longitude: -180), Coordinate(latitude: 45, longitude: 180),
    ])
    func everyPointOfTheCircleIsInside(_ centre: Coordinate) {
        let bounds = CircleBounds(center: centre, radiusMeters: Self.radius)
        for step in 0..<3_600 {
            let edge = Self.destination(centre, meters: Self.radius * 0.999_999_9, bearing: Double(step) / 10)
            #expect(bounds.contains(edge), "\(edge) of the circle around \(centre) is outside \(bounds)")
        }
        #expect(bounds.contains(centre))
    }

    @Test func longitudesAreBoundedAndSplitAtTheAntimeridian() throws {
        let equator = CircleBounds(center: Coordinate(latitude: 0, longitude: 0), radiusMeters: Self.radius)
        let halfWidth = Self.radius / Geodesy.earthRadiusMeters * 180 / Double.pi
        #expect(equator.longitudes.count == 1)
        #expect(abs(equator.longitudes[0].upperBound - halfWidth) < 1e-6 && abs(equator.longitudes[0].lowerBound + halfWidth) < 1e-6)

        let north = CircleBounds(center: Coordinate(latitude: 60, longitude: 10), radiusMeters: Self.radius)
        #expect(north.longitudes.count == 1)
        #expect(abs(north.longitudes[0].upperBound - 10 - halfWidth * 2) < 0.01, "twice as wide at 60°")

        let taveuni = CircleBounds(center: Coordinate(latitude: -16.8, longitude: 179.95), radiusMeters: Self.radius)
        #expect(taveuni.longitudes.count == 2)
        #expect(taveuni.longitudes[0].upperBound == 180 && taveuni.longitudes[1].lowerBound == -180)
        #expect(taveuni.longitudes[0].lowerBound > 179.6 && taveuni.longitudes[1].upperBound < -179.7)
        #expect(!taveuni.contains(Coordinate(latitude: -16.8, longitude: 0)))
        #expect(!taveuni.contains(Coordinate(latitude: -16.8, longitude: -179)) && !taveuni.contains(Coordinate(latitude: -16.8, longitude: 179)))

        let west = CircleBounds(center: Coordinate(latitude: -16.8, longitude: -179.97), radiusMeters: Self.radius)
        #expect(west.longitudes.count == 2 && west.longitudes[0].upperBound == 180 && west.longitudes[1].lowerBound == -180)
    }

    @Test func aCircleOverAPoleTakesEveryLongitude() {
        let pole = CircleBounds(center: Coordinate(latitude: 89.9, longitude: 30), radiusMeters: Self.radius)
        #expect(pole.longitudes == [-180...180])
        #expect(pole.latitude.upperBound == 90)
        let south = CircleBounds(center: Coordinate(latitude: -89.95, longitude: -120), radiusMeters: Self.radius)
        #expect(south.longitudes == [-180...180] && south.latitude.lowerBound == -90)
    }
}
