extension NearbyAnswer {
    /// The answer as a GeoJSON FeatureCollection (RFC 7946): one Point feature a place, ready to drop on a map.
    ///
    /// The answer's own fields (`radiusMiles`, `radiusMeters`, `radiusKm`, `capped`, `count`, `center`) ride along
    /// as foreign members; each feature's properties are the place exactly as `json()` shows it, from the same JSON
    /// the index keeps. Keys are sorted, like every answer's.
    public func geoJSON() -> [UInt8] {
        var writer = JSONWriter(capacity: 256 + places.reduce(0) { $0 + $1.jsonCapacity + 160 + $1.id.utf8.count })
        writer.object { writer in
            writeMembers(to: &writer, placesKey: "features") { writer, place in place.writeFeature(to: &writer) }
            writer.key("type")
            writer.string("FeatureCollection")
        }
        return writer.bytes
    }
}

extension NearbyPlace {
    /// Writes the place as a GeoJSON Point feature whose properties are the place's JSON object.
    func writeFeature(to writer: inout JSONWriter) {
        writer.object { writer in
            writer.key("geometry")
            writer.object { writer in
                writer.key("coordinates")
                writer.array { writer in
                    writer.number(lon)
                    writer.number(lat)
                }
                writer.key("type")
                writer.string("Point")
            }
            writer.key("id")
            writer.string(id)
            writer.key("properties")
            write(to: &writer)
            writer.key("type")
            writer.string("Feature")
        }
    }
}
