extension NearbyAnswer {
    /// The answer as JSON, keys sorted as `PlacesJSON.makeEncoder()` sorts them; each place is copied from the JSON
    /// the index keeps for it.
    ///
    /// The HTTP API and the CLI's `--json` both answer with this.
    public func json() -> [UInt8] {
        var writer = JSONWriter(capacity: 256 + places.reduce(0) { $0 + $1.place.jsonCapacity(asFeature: false) })
        writer.object { writer in
            writeMembers(to: &writer, placesKey: "places") { writer, place in place.write(to: &writer) }
        }
        return writer.bytes
    }

    /// Writes the answer's members, in sorted key order, with its places as a list under `placesKey` (which must
    /// sort between `count` and `radiusKm`), each written by `writePlace`. GeoJSON shares this with its own features.
    public func writeMembers(
        to writer: inout JSONWriter,
        placesKey: StaticString,
        writePlace: (inout JSONWriter, NearbyPlace) -> Void
    ) {
        writer.key("capped")
        writer.bool(capped)
        writer.key("center")
        center.write(to: &writer)
        writer.key("count")
        writer.number(count)
        writer.key(placesKey)
        writer.array { writer in
            for place in places { writePlace(&writer, place) }
        }
        writer.key("radiusKm")
        writer.number(radiusKm)
        writer.key("radiusMeters")
        writer.number(radiusMeters)
        writer.key("radiusMiles")
        writer.number(radiusMiles)
    }
}

extension NearbyPlace {
    /// Writes the place as a JSON object, its keys in sorted order (as `PlacesJSON.makeEncoder()` orders them): the
    /// JSON the index made for it, with the distances and the open status set in.
    public func write(to writer: inout JSONWriter) {
        place.write(to: &writer, distance: distance, openStatus: openStatus)
    }
}

extension NearbyAnswer.Center {
    /// Writes the centre as `{"lat": …, "lon": …}`.
    public func write(to writer: inout JSONWriter) {
        writer.object("lat", lat, "lon", lon)
    }
}
