import GeoIndex

/// "What is near me?": a centre, a radius (capped at 20 miles), how many places at most, and an optional kind.
public struct NearbyQuery: Sendable, Hashable {
    /// The largest radius ever applied: 20 miles.
    public static let maximumRadiusMiles = 20.0
    /// The radius used when a request names none: 5 miles.
    public static let defaultRadiusMiles = 5.0
    /// The number of places returned when a request names no limit.
    public static let defaultLimit = 50
    /// The largest limit accepted.
    public static let maximumLimit = 500

    /// The centre of the circle.
    public var center: Coordinate
    /// The radius applied, in miles (at most 20).
    public var radiusMiles: Double
    /// True when the request asked for more than 20 miles and the cap was applied.
    public var capped: Bool
    /// At most this many places, nearest first.
    public var limit: Int
    /// Only places of this kind, when given.
    public var kind: PlaceKind?

    /// The radius applied, in metres.
    public var radiusMeters: Double { radiusMiles * Geodesy.metersPerMile }

    /// Makes a query from typed values, checking each the way `parse` does.
    public init(
        center: Coordinate,
        radiusMiles: Double = NearbyQuery.defaultRadiusMiles,
        limit: Int = NearbyQuery.defaultLimit,
        kind: PlaceKind? = nil
    ) throws(PlacesError) {
        try center.check()
        guard radiusMiles.isFinite, radiusMiles > 0 else {
            throw .invalid("radius", "radius must be a positive number of miles")
        }
        guard (1...NearbyQuery.maximumLimit).contains(limit) else {
            throw .invalid("limit", "limit must be a whole number from 1 to \(NearbyQuery.maximumLimit)")
        }
        self.center = center
        self.capped = radiusMiles > NearbyQuery.maximumRadiusMiles
        self.radiusMiles = min(radiusMiles, NearbyQuery.maximumRadiusMiles)
        self.limit = limit
        self.kind = kind
    }

    /// Parses a query as a URL query string or the command line spells it; nil means "not given".
    ///
    /// The one parser for HTTP and CLI alike, so both refuse the same input with the same code and field. It is
    /// strict, as the API document says: plain decimal numbers without surrounding spaces, `kind` exactly
    /// `gem` or `restaurant`.
    public static func parse(
        lat: String?,
        lon: String?,
        radius: String? = nil,
        limit: String? = nil,
        kind: String? = nil
    ) throws(PlacesError) -> NearbyQuery {
        let latitude = try requiredNumber(lat, field: "lat")
        let longitude = try requiredNumber(lon, field: "lon")
        let radiusMiles = try radius.map { text throws(PlacesError) in try number(text, field: "radius") } ?? defaultRadiusMiles
        let limitValue: Int
        if let limit {
            guard let value = Int(limit) else {
                throw .invalid("limit", "limit must be a whole number from 1 to \(maximumLimit), got \(PlacesError.quoted(limit))")
            }
            limitValue = value
        } else {
            limitValue = defaultLimit
        }
        let kindValue = try kind.map { text throws(PlacesError) in
            guard let kind = PlaceKind(rawValue: text) else {
                throw .invalid("kind", "kind must be gem or restaurant, got \(PlacesError.quoted(text))")
            }
            return kind
        }
        return try NearbyQuery(
            center: Coordinate(latitude: latitude, longitude: longitude),
            radiusMiles: radiusMiles,
            limit: limitValue,
            kind: kindValue
        )
    }

    private static func requiredNumber(_ text: String?, field: String) throws(PlacesError) -> Double {
        guard let text, !text.isEmpty else { throw .invalid(field, "\(field) is required") }
        return try number(text, field: field)
    }

    private static func number(_ text: String, field: String) throws(PlacesError) -> Double {
        guard let value = DecimalText.number(text) else {
            throw .invalid(field, "\(field) must be a number, got \(PlacesError.quoted(text))")
        }
        return value
    }
}
