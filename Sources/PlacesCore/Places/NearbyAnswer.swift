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
    /// The radius applied, in kilometres.
    public var radiusKm: Double
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
        self.radiusKm = query.radiusMeters / 1_000
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
    /// Tags, lowercase.
    public var tags: [String]
    /// The cuisine, if any.
    public var cuisine: String?
    /// Price level 1–4, if any.
    public var priceLevel: Int?
    /// The mean of its ratings; absent when unrated.
    public var ratingAverage: Double?
    /// How many people rated it.
    public var ratingCount: Int
    /// The Bayesian-adjusted rating (README, "Ratings").
    public var score: Double
    /// When the query gave `openAt`: `open`, or `unknown` for a place without opening hours.
    public var openStatus: OpenStatus?

    /// Makes an entry from a summary and its distance in metres.
    public init(summary: PlaceSummary, distanceMeters: Double, openStatus: OpenStatus? = nil) {
        self.id = summary.id
        self.name = summary.name
        self.kind = summary.kind
        self.lat = summary.coordinate.latitude
        self.lon = summary.coordinate.longitude
        self.city = summary.city
        self.distanceMeters = distanceMeters
        self.distanceMiles = distanceMeters / Geodesy.metersPerMile
        self.distanceKm = distanceMeters / 1_000
        self.tags = summary.tags
        self.cuisine = summary.cuisine
        self.priceLevel = summary.priceLevel
        self.ratingAverage = summary.rating.average
        self.ratingCount = summary.rating.count
        self.score = summary.rating.score
        self.openStatus = openStatus
    }
}
