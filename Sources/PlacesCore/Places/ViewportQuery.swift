import GeoIndex

/// "What is inside my map's viewport?": a box, the nearby filters, and one page of the places in it, best score first.
public struct ViewportQuery: Sendable, Hashable {
    /// The box; a west edge east of the east edge crosses the antimeridian.
    public var box: GeoBox
    /// What the places must be, as for nearby.
    public var filter: PlaceFilter
    /// At most this many places (nearby's limits: 1–500, 50 when not given).
    public var limit: Int
    /// Where the page before ended, in the viewport's order; nil for the first page.
    var after: PlaceRank.Position?

    /// Makes the first page's query; `invalid_input` naming `bbox` for an invalid box, `limit` for a bad limit.
    public init(box: GeoBox, filter: PlaceFilter = PlaceFilter(), limit: Int = NearbyQuery.defaultLimit) throws(PlacesError) {
        guard box.isValid else { throw .invalid("bbox", "bbox must hold valid edges, its south edge not north of its north edge") }
        guard (1...NearbyQuery.maximumLimit).contains(limit) else {
            throw .invalid("limit", "limit must be a whole number from 1 to \(NearbyQuery.maximumLimit)")
        }
        self.box = box
        self.filter = filter
        self.limit = limit
    }

    /// Parses a query as a URL query string spells it: `bbox=WEST,SOUTH,EAST,NORTH`, `limit`, `cursor`.
    public static func parse(bbox: String?, limit: String?, cursor: String?, filter: PlaceFilter) throws(PlacesError) -> ViewportQuery {
        let box = try GeoBox.parse(bbox)
        var limitValue = NearbyQuery.defaultLimit
        if let limit {
            guard let value = Int(limit) else {
                throw .invalid("limit", "limit must be a whole number from 1 to \(NearbyQuery.maximumLimit), got \(PlacesError.quoted(limit))")
            }
            limitValue = value
        }
        var query = try ViewportQuery(box: box, filter: filter, limit: limitValue)
        if let cursor {
            guard let key = PageRequest.key(cursor: cursor), key.count == 2 else { throw PageRequest.foreignCursor }
            let score = try PageRequest.double(key[0])
            guard score.isFinite else { throw PageRequest.foreignCursor }
            query.after = PlaceRank.Position(score: score, id: key[1])
        }
        return query
    }
}

/// The answer to a viewport query: one page of the places in the box, best score first, then by id.
public struct ViewportAnswer: Sendable {
    /// The box asked about.
    public var box: GeoBox
    /// The page's places.
    let places: [IndexedPlace]
    /// Their open status, when the query asked about a time (`openAt`); otherwise empty.
    let openStatuses: [OpenStatus]
    /// Pass as `cursor` for the next page; nil on the last.
    public var nextCursor: String?

    init(box: GeoBox, places: [IndexedPlace], openStatuses: [OpenStatus], more: Bool) {
        self.box = box
        self.places = places
        self.openStatuses = openStatuses
        if more, let last = places.last {
            nextCursor = PageRequest.cursor(key: [PageRequest.keyPart(last.rating.score), last.id])
        }
    }

    /// The ids of the page's places, in order.
    public var ids: [String] { places.map(\.id) }

    /// What the page shows of its places, in order.
    public var summaries: [PlaceSummary] { places.map(\.summary) }

    /// The answer as JSON: `bbox`, `count`, `nextCursor` (when more follow) and `places`, each place as nearby shows it but without
    /// distances (a box has no centre); keys sorted.
    public func json() -> [UInt8] {
        write(asFeatures: false)
    }

    /// The answer as a GeoJSON FeatureCollection (RFC 7946), whose `bbox` is the box asked about; each feature's
    /// properties are the place as `json()` shows it.
    public func geoJSON() -> [UInt8] {
        write(asFeatures: true)
    }

    private func write(asFeatures: Bool) -> [UInt8] {
        var writer = JSONWriter(capacity: 256 + places.reduce(0) { $0 + $1.jsonCapacity(asFeature: asFeatures) })
        writer.object { writer in
            writer.key("bbox")
            writer.array { writer in
                for edge in [box.west, box.south, box.east, box.north] { writer.number(edge) }
            }
            writer.key("count")
            writer.number(places.count)
            if asFeatures {
                writer.key("features")
                writePlaces(to: &writer, asFeatures: true)
                writer.member("nextCursor", nextCursor) { $0.string($1) }
                writer.key("type")
                writer.string("FeatureCollection")
            } else {
                writer.member("nextCursor", nextCursor) { $0.string($1) }
                writer.key("places")
                writePlaces(to: &writer, asFeatures: false)
            }
        }
        return writer.bytes
    }

    private func writePlaces(to writer: inout JSONWriter, asFeatures: Bool) {
        writer.array { writer in
            for (i, place) in places.enumerated() {
                let openStatus = openStatuses.isEmpty ? nil : openStatuses[i]
                if asFeatures {
                    place.writeFeature(to: &writer, distance: nil, openStatus: openStatus)
                } else {
                    place.write(to: &writer, distance: nil, openStatus: openStatus)
                }
            }
        }
    }
}
