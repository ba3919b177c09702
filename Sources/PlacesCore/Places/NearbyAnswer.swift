import GeoIndex

/// The answer to a nearby query: the radius applied and the places inside it, nearest first.
///
/// The CLI's `--json` and the HTTP API encode this same value, so both show the same fields.
public struct NearbyAnswer: Sendable, Hashable, Codable {
    /// The centre asked about.
    public var center: Center
    /// The radius applied, in miles (at most 20).
    public var radiusMiles: Double
    /// The radius applied, in metres.
    public var radiusMeters: Double
    /// True when the request asked for more than 20 miles.
    public var capped: Bool
    /// How many places `places` holds.
    public var count: Int
    /// The places, ordered by (distance, id).
    public var places: [NearbyPlace]

    /// A centre as JSON shows it.
    public struct Center: Sendable, Hashable, Codable {
        /// Latitude in degrees.
        public var lat: Double
        /// Longitude in degrees.
        public var lon: Double
    }

    /// Makes an answer for `query` from the hits, already in order.
    public init(query: NearbyQuery, places: [NearbyPlace]) {
        self.center = Center(lat: query.center.latitude, lon: query.center.longitude)
        self.radiusMiles = query.radiusMiles
        self.radiusMeters = query.radiusMeters
        self.capped = query.capped
        self.count = places.count
        self.places = places
    }
}

/// One place in a nearby answer, with its distance from the centre.
public struct NearbyPlace: Sendable, Hashable, Codable {
    /// The place's id.
    public var id: String
    /// Display name.
    public var name: String
    /// Gem or restaurant.
    public var kind: PlaceKind
    /// Latitude in degrees.
    public var lat: Double
    /// Longitude in degrees.
    public var lon: Double
    /// City, if known.
    public var city: String?
    /// Great-circle distance from the centre, in metres.
    public var distanceMeters: Double
    /// The same distance in miles.
    public var distanceMiles: Double
    /// The same distance in kilometres.
    public var distanceKm: Double

    /// Makes an entry from a summary and its distance in metres.
    public init(summary: PlaceSummary, distanceMeters: Double) {
        self.id = summary.id
        self.name = summary.name
        self.kind = summary.kind
        self.lat = summary.coordinate.latitude
        self.lon = summary.coordinate.longitude
        self.city = summary.city
        self.distanceMeters = distanceMeters
        self.distanceMiles = distanceMeters / Geodesy.metersPerMile
        self.distanceKm = distanceMeters / 1_000
    }
}
