import GeoIndex

/// The answer to a meet query: the origins and the places within 20 miles of every one of them, the fairest first.
public struct MeetAnswer: Sendable {
    /// The origins asked about, in order.
    public var at: [NearbyAnswer.Center]
    /// The places, the fairest first.
    public var places: [MeetPlace]
    /// How far every place may be from every origin, in metres (20 miles).
    public var radiusMeters: Double

    /// Makes an answer for `query` from its places, already in order.
    public init(query: MeetQuery, places: [MeetPlace]) {
        at = query.origins.map { NearbyAnswer.Center(lat: $0.latitude, lon: $0.longitude) }
        self.places = places
        radiusMeters = query.radiusMeters
    }

    /// The answer as JSON, keys sorted; each place is the JSON the index keeps for it, with its distances set in.
    public func json() -> [UInt8] {
        var writer = JSONWriter(capacity: 256 + places.reduce(0) { $0 + $1.place.jsonCapacity(asFeature: false) + 48 * at.count })
        writer.object { writer in
            writer.key("at")
            writer.array { writer in
                for origin in at { origin.write(to: &writer) }
            }
            writer.key("count")
            writer.number(places.count)
            writer.key("places")
            writer.array { writer in
                for place in places { place.write(to: &writer) }
            }
            writer.key("radiusMeters")
            writer.number(radiusMeters)
            writer.key("radiusMiles")
            writer.number(radiusMeters / Geodesy.metersPerMile)
        }
        return writer.bytes
    }
}

/// One place of a meet answer: its distance from each origin, in order, and from the farthest.
public struct MeetPlace: Sendable {
    let place: IndexedPlace
    /// From each origin, in the query's order.
    public let distances: [PlaceDistance]
    /// When the query gave `openAt`: `open`, or `unknown` for a place without opening hours.
    public let openStatus: OpenStatus?

    init(_ place: IndexedPlace, distances: [PlaceDistance], openStatus: OpenStatus?) {
        self.place = place
        self.distances = distances
        self.openStatus = openStatus
    }

    /// The place's id.
    public var id: String { place.id }
    /// What the index keeps of the place.
    public var summary: PlaceSummary { place.summary }
    /// From the farthest origin: what the answer is ordered by.
    public var farthest: PlaceDistance { distances.max { $0.meters < $1.meters } ?? PlaceDistance(meters: 0) }

    /// Writes the place as nearby does, its `distanceMeters` (and km, miles) the farthest origin's, with `distances`
    /// (each origin's, in meters and miles) beside them.
    public func write(to writer: inout JSONWriter) {
        place.write(to: &writer, distance: farthest, openStatus: openStatus, distances: distances)
    }
}
