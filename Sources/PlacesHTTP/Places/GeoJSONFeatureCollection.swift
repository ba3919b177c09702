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
            writer.key("capped")
            writer.bool(answer.capped)
            writer.key("center")
            writer.object { writer in
                writer.key("lat")
                writer.number(answer.center.lat)
                writer.key("lon")
                writer.number(answer.center.lon)
            }
            writer.key("count")
            writer.number(answer.count)
            writer.key("features")
            writer.array { writer in
                for place in answer.places { feature(place, to: &writer) }
            }
            writer.key("radiusKm")
            writer.number(answer.radiusKm)
            writer.key("radiusMeters")
            writer.number(answer.radiusMeters)
            writer.key("radiusMiles")
            writer.number(answer.radiusMiles)
            writer.key("type")
            writer.string("FeatureCollection")
        }
        return writer.bytes
    }

    private static func feature(_ place: NearbyPlace, to writer: inout JSONWriter) {
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
