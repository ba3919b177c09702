extension NearbyAnswer {
    /// The answer as a GeoJSON FeatureCollection (RFC 7946): one Point feature a place, ready to drop on a map.
    ///
    /// The answer's own fields (`radiusMiles`, `radiusMeters`, `radiusKm`, `capped`, `count`, `center`) ride along
    /// as foreign members; each feature's properties are the place exactly as `json()` shows it, from the same JSON
    /// the index keeps. Keys are sorted, like every answer's.
    public func geoJSON() -> [UInt8] {
        var writer = JSONWriter(capacity: 256 + places.reduce(0) { $0 + $1.place.jsonCapacity(asFeature: true) })
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
        place.writeFeature(to: &writer, distance: distance, openStatus: openStatus)
    }
}
