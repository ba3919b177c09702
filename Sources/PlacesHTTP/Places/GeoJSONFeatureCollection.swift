import PlacesCore

/// A nearby answer as a GeoJSON FeatureCollection (RFC 7946): one Point feature a place, ready to drop on a map.
///
/// The answer's own fields (`radiusMiles`, `radiusMeters`, `radiusKm`, `capped`, `count`, `center`) ride along as foreign members.
struct GeoJSONFeatureCollection: Encodable {
    struct Feature: Encodable {
        struct Geometry: Encodable {
            var type = "Point"
            var coordinates: [Double]
        }
        var type = "Feature"
        var id: String
        var geometry: Geometry
        var properties: NearbyPlace
    }

    var type = "FeatureCollection"
    var center: NearbyAnswer.Center
    var radiusMiles: Double
    var radiusMeters: Double
    var radiusKm: Double
    var capped: Bool
    var count: Int
    var features: [Feature]

    init(_ answer: NearbyAnswer) {
        center = answer.center
        radiusMiles = answer.radiusMiles
        radiusMeters = answer.radiusMeters
        radiusKm = answer.radiusKm
        capped = answer.capped
        count = answer.count
        features = answer.places.map { place in
            Feature(id: place.id, geometry: .init(coordinates: [place.lon, place.lat]), properties: place)
        }
    }
}
