import GeoIndex

/// "Where can we all meet?": 2 to 20 origins, nearby's filters, and how many places at most. The places within 20
/// miles of every origin, the fairest first: the least distance from the farthest origin, then the least sum of
/// distances, then by id.
public struct MeetQuery: Sendable, Hashable {
    /// The fewest origins a meet takes.
    public static let minimumOrigins = 2
    /// The most origins a meet takes.
    public static let maximumOrigins = 20
    /// Places when a query names no limit.
    public static let defaultLimit = 50
    /// The largest limit accepted.
    public static let maximumLimit = 500

    /// Where everyone is, in the order given (each place's `distances` follow it).
    public var origins: [Coordinate]
    /// Which places count.
    public var filter: PlaceFilter
    /// At most this many places.
    public var limit: Int

    /// Every place is within this of every origin: 20 miles.
    public var radiusMeters: Double { NearbyQuery.maximumRadiusMiles * Geodesy.metersPerMile }

    /// Makes a query; `parse` checks one that comes from outside.
    public init(origins: [Coordinate], filter: PlaceFilter = PlaceFilter(), limit: Int = MeetQuery.defaultLimit) {
        self.origins = origins
        self.filter = filter
        self.limit = limit
    }

    /// Parses the origins (`LAT,LON` each, field `at`) and the limit as a query string spells them.
    public static func parse(at: [String], limit: String?, filter: PlaceFilter = PlaceFilter()) throws(PlacesError) -> MeetQuery {
        guard (minimumOrigins...maximumOrigins).contains(at.count) else {
            throw .invalid("at", "give from \(minimumOrigins) to \(maximumOrigins) origins as at=LAT,LON, got \(at.count)")
        }
        var origins: [Coordinate] = []
        for text in at {
            origins.append(try Directions.parseOrigin(text, field: "at"))
        }
        var count = defaultLimit
        if let limit {
            guard let value = Int(limit), (1...maximumLimit).contains(value) else {
                throw .invalid("limit", "limit must be a whole number from 1 to \(maximumLimit)")
            }
            count = value
        }
        return MeetQuery(origins: origins, filter: filter, limit: count)
    }
}
