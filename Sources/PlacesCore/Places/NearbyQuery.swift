import GeoIndex

/// How nearby orders the places in its circle.
public enum NearbyOrder: String, Sendable, Hashable, CaseIterable {
    /// Nearest first, then by id (the default).
    case distance
    /// Best score first ("popular near here"), then nearest, then by id.
    case score
}

/// "What is near me?": a centre, a radius (capped at 20 miles), how many places at most, in which order, and filters.
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
    /// At most this many places, the first in `sort`'s order.
    public var limit: Int
    /// The order of the places: nearest first, or best score first.
    public var sort: NearbyOrder
    /// What the places must be (kind, tags, cuisine, price, rating, open at a time).
    public var filter: PlaceFilter

    /// Only places of this kind, when given.
    public var kind: PlaceKind? {
        get { filter.kind }
        set { filter.kind = newValue }
    }

    /// The radius applied, in metres.
    public var radiusMeters: Double { radiusMiles * Geodesy.metersPerMile }

    /// Makes a query from typed values, checking each the way `parse` does.
    public init(
        center: Coordinate,
        radiusMiles: Double = NearbyQuery.defaultRadiusMiles,
        limit: Int = NearbyQuery.defaultLimit,
        kind: PlaceKind? = nil,
        filter: PlaceFilter = PlaceFilter(),
        sort: NearbyOrder = .distance
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
        self.sort = sort
        self.filter = filter
        if let kind { self.filter.kind = kind }
    }

    /// Where a signed-in person's queries centre, and their radius, when a request leaves them out.
    @PublicInit
    public struct Defaults: Sendable, Hashable {
        /// The default centre, if they set one.
        public var center: Coordinate?
        /// The default radius in miles.
        public var radiusMiles: Double
    }

    /// Parses a query as a URL query string or the command line spells it; nil means "not given".
    ///
    /// The one parser for HTTP and CLI alike, so both refuse the same input with the same code and field. It is
    /// strict, as the API document says: plain decimal numbers without surrounding spaces, `kind` exactly
    /// `gem` or `restaurant`. `radius` is in miles, `radiusKm` in kilometres (not both). Without `lat` and `lon`
    /// the centre is the caller's default location; without a radius, their default radius. `sort` is `distance` (the
    /// default) or `score`.
    public static func parse(
        lat: String?,
        lon: String?,
        radius: String? = nil,
        radiusKm: String? = nil,
        limit: String? = nil,
        sort: String? = nil,
        filter: PlaceFilter = PlaceFilter(),
        defaults: Defaults? = nil
    ) throws(PlacesError) -> NearbyQuery {
        let center: Coordinate
        if lat == nil, lon == nil, let home = defaults?.center {
            center = home
        } else {
            let hint = defaults == nil ? "" : " (or save a defaultLocation in your settings)"
            guard let lat, !lat.isEmpty else { throw .invalid("lat", "lat is required\(hint)") }
            guard let lon, !lon.isEmpty else { throw .invalid("lon", "lon is required\(hint)") }
            center = Coordinate(latitude: try number(lat, field: "lat"), longitude: try number(lon, field: "lon"))
        }
        let radiusMiles: Double
        switch (radius, radiusKm) {
        case (.some, .some): throw .invalid("radiusKm", "give radius (miles) or radiusKm (kilometres), not both")
        case (.some(let miles), nil): radiusMiles = try number(miles, field: "radius")
        case (nil, .some(let kilometres)):
            let value = try number(kilometres, field: "radiusKm")
            guard value.isFinite, value > 0 else { throw .invalid("radiusKm", "radiusKm must be a positive number of kilometres") }
            radiusMiles = value * 1_000 / Geodesy.metersPerMile
        case (nil, nil): radiusMiles = defaults?.radiusMiles ?? defaultRadiusMiles
        }
        let limitValue: Int
        if let limit {
            guard let value = Int(limit) else {
                throw .invalid("limit", "limit must be a whole number from 1 to \(maximumLimit), got \(PlacesError.quoted(limit))")
            }
            limitValue = value
        } else {
            limitValue = defaultLimit
        }
        var order = NearbyOrder.distance
        if let sort {
            guard let value = NearbyOrder(rawValue: sort) else {
                throw .invalid("sort", "sort must be distance or score, got \(PlacesError.quoted(sort))")
            }
            order = value
        }
        return try NearbyQuery(center: center, radiusMiles: radiusMiles, limit: limitValue, filter: filter, sort: order)
    }

    private static func number(_ text: String, field: String) throws(PlacesError) -> Double {
        guard let value = DecimalText.number(text) else {
            throw .invalid(field, "\(field) must be a number, got \(PlacesError.quoted(text))")
        }
        return value
    }
}
