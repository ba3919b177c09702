import PlacesCore

/// A nearby answer as a GeoJSON FeatureCollection (RFC 7946): one Point feature a place, ready to drop on a map.
///
/// The answer's own fields (`radiusMiles`, `radiusMeters`, `radiusKm`, `capped`, `count`, `center`) ride along as
/// foreign members; each feature's properties are the place as the JSON answer shows it. Written with `JSONWriter`
/// (keys sorted, like every answer) for the same reason as the JSON answer: it is on the hot path.
enum GeoJSONFeatureCollection {
    /// The collection's JSON bytes.
    static func json(_ answer: NearbyAnswer) -> [UInt8] {
        var writer = JSONWriter(capacity: 256 + answer.places.count * 500)
        writer.object { writer in
            answer.writeMembers(to: &writer, placesKey: "features", writePlace: feature)
            writer.key("type")
            writer.string("FeatureCollection")
        }
        return writer.bytes
    }

    private static func feature(_ writer: inout JSONWriter, _ place: NearbyPlace) {
        writer.object { writer in
            writer.key("geometry")
            writer.object { writer in
                writer.key("coordinates")
                writer.array { writer in
                    writer.number(place.lon)
                    writer.number(place.lat)
                }
                writer.key("type")
                writer.string("Point")
            }
            writer.key("id")
            writer.string(place.id)
            writer.key("properties")
            place.write(to: &writer)
            writer.key("type")
            writer.string("Feature")
        }
    }
}
