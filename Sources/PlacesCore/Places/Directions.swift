import Foundation
import GeoIndex

/// How to get to a place from a point, short of a road network (which needs a routing server): the great-circle
/// distance, the initial bearing, and a `geo:` URI (RFC 5870) that hands the trip to a phone's own maps app.
public struct Directions: Sendable, Hashable, Encodable {
    /// Where the trip starts.
    public var from: NearbyAnswer.Center
    /// Great-circle distance to the place, in metres, miles and kilometres.
    public var distanceMeters: Double
    public var distanceMiles: Double
    public var distanceKm: Double
    /// The initial bearing of the great circle to the place, in degrees clockwise from true north, in [0, 360);
    /// 0 when the trip starts at the place.
    public var bearingDegrees: Double
    /// The bearing as one of the 16 points of the compass (`N`, `NNE`, … `NNW`).
    public var compass: String
    /// `geo:LAT,LON` of the place (RFC 5870), which phones open in their maps app.
    public var geoURI: String

    /// The directions from `from` to `to`.
    public init(from: Coordinate, to: Coordinate) {
        self.from = NearbyAnswer.Center(lat: from.latitude, lon: from.longitude)
        let distance = PlaceDistance(meters: Geodesy.distanceMeters(from, to))
        distanceMeters = distance.meters
        distanceMiles = distance.miles
        distanceKm = distance.kilometers
        bearingDegrees = Geodesy.initialBearingDegrees(from: from, to: to)
        compass = Directions.points[Int((bearingDegrees / 22.5).rounded()) % 16]
        geoURI = "geo:\(Directions.decimal(to.latitude)),\(Directions.decimal(to.longitude))"
    }

    static let points = ["N", "NNE", "NE", "ENE", "E", "ESE", "SE", "SSE", "S", "SSW", "SW", "WSW", "W", "WNW", "NW", "NNW"]

    /// A coordinate as a geo URI writes it: plain decimal (never an exponent), at most 7 places (about a centimetre).
    static func decimal(_ value: Double) -> String {
        var text = String(format: "%.7f", value)
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text == "-0" ? "0" : text
    }

    /// Parses where a trip starts as a query string spells it, `LAT,LON`; `invalid_input` naming `field`.
    public static func parseOrigin(_ text: String, field: String = "from") throws(PlacesError) -> Coordinate {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
        guard text.utf8.count <= 100, parts.count == 2, let lat = DecimalText.number(String(parts[0])),
            let lon = DecimalText.number(String(parts[1]))
        else { throw .invalid(field, "\(field) must be LAT,LON in degrees, got \(PlacesError.quoted(text))") }
        guard (-90...90).contains(lat), (-180...180).contains(lon) else {
            throw .invalid(field, "\(field) must be a latitude from -90 to 90 and a longitude from -180 to 180")
        }
        return Coordinate(latitude: lat, longitude: lon)
    }
}
