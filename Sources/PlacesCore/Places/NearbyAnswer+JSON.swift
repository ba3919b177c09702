extension NearbyAnswer {
    /// The answer as JSON: the same bytes `PlacesJSON.makeEncoder()` writes for it, several times faster.
    ///
    /// The HTTP API and the CLI's `--json` both answer with this.
    public func json() -> [UInt8] {
        var writer = JSONWriter(capacity: 256 + places.count * 400)
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
        writer.object { writer in
            writer.key("lat")
            writer.number(center.lat)
            writer.key("lon")
            writer.number(center.lon)
        }
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
    /// Writes the place as a JSON object, its keys in sorted order (as `PlacesJSON.makeEncoder()` orders them).
    public func write(to writer: inout JSONWriter) {
        writer.object { writer in
            writer.member("city", city) { $0.string($1) }
            writer.member("cuisine", cuisine) { $0.string($1) }
            writer.key("distanceKm")
            writer.number(distanceKm)
            writer.key("distanceMeters")
            writer.number(distanceMeters)
            writer.key("distanceMiles")
            writer.number(distanceMiles)
            writer.key("id")
            writer.string(id)
            writer.key("kind")
            writer.string(kind.rawValue)
            writer.key("lat")
            writer.number(lat)
            writer.key("lon")
            writer.number(lon)
            writer.key("name")
            writer.string(name)
            writer.member("openStatus", openStatus) { $0.string($1.rawValue) }
            writer.member("priceLevel", priceLevel) { $0.number($1) }
            writer.member("ratingAverage", ratingAverage) { $0.number($1) }
            writer.key("ratingCount")
            writer.number(ratingCount)
            writer.key("score")
            writer.number(score)
            writer.key("tags")
            writer.array { writer in
                for tag in tags { writer.string(tag) }
            }
        }
    }
}
