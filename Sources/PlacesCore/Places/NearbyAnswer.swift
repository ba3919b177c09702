import GeoIndex

/// The answer to a nearby query: the radius applied and the places inside it, in the query's order.
///
/// The CLI's `--json` and the HTTP API write this same value (`json()`), so both show the same fields.
public struct NearbyAnswer: Sendable, Hashable {
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
    /// The places, ordered by (distance, id), or by (score descending, distance, id) for `sort=score`.
    public var places: [NearbyPlace]
    /// The order of `places`, as the query asked (the JSON leaves it out: the request says it).
    public var sort: NearbyOrder

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
        self.sort = query.sort
    }
}

/// One place in a nearby answer, with its distance from the centre.
///
/// It holds the index's entry for the place (one reference), so an answer neither copies a summary's fields nor
/// remakes its JSON: `write(to:)` copies the entry's JSON around the distances.
public struct NearbyPlace: Sendable, Hashable {
    let place: IndexedPlace
    /// Distance from the centre.
    public let distance: PlaceDistance
    /// When the query gave `openAt`: `open`, or `unknown` for a place without opening hours.
    public let openStatus: OpenStatus?

    /// Makes an entry from a summary and its distance in metres.
    public init(summary: PlaceSummary, distanceMeters: Double, openStatus: OpenStatus? = nil) {
        self.init(IndexedPlace.make(summary), distance: PlaceDistance(meters: distanceMeters), openStatus: openStatus)
    }

    init(_ place: IndexedPlace, distance: PlaceDistance, openStatus: OpenStatus?) {
        self.place = place
        self.distance = distance
        self.openStatus = openStatus
    }

    /// What the index keeps of the place.
    public var summary: PlaceSummary { place.summary }
    /// The place's id.
    public var id: String { place.id }
    /// Display name.
    public var name: String { place.summary.name }
    /// Gem or restaurant.
    public var kind: PlaceKind { place.kind }
    /// Latitude in degrees.
    public var lat: Double { place.coordinate.latitude }
    /// Longitude in degrees.
    public var lon: Double { place.coordinate.longitude }
    /// City, if known.
    public var city: String? { place.summary.city }
    /// Great-circle distance from the centre, in metres.
    public var distanceMeters: Double { distance.meters }
    /// The same distance in miles.
    public var distanceMiles: Double { distance.miles }
    /// The same distance in kilometres.
    public var distanceKm: Double { distance.kilometers }
    /// Tags, lowercase.
    public var tags: [String] { place.attributes.tags }
    /// The cuisine, if any.
    public var cuisine: String? { place.cuisine }
    /// Price level 1–4, if any.
    public var priceLevel: Int? { place.attributes.priceLevel }
    /// The mean of its ratings; absent when unrated.
    public var ratingAverage: Double? { place.rating.average }
    /// How many people rated it.
    public var ratingCount: Int { place.rating.count }
    /// The Bayesian-adjusted rating (README, "Places you add, favourite and rate").
    public var score: Double { place.rating.score }
    /// How many photos it has.
    public var photoCount: Int { place.attributes.photoCount }
    /// Its cover photo's address, when it has photos.
    public var coverPhotoURL: String? { place.attributes.coverPhotoURL }

    /// Equal when they show the same place at the same distance with the same open status.
    public static func == (a: NearbyPlace, b: NearbyPlace) -> Bool {
        (a.place.isSameEntry(as: b.place) || a.place.summary == b.place.summary) && a.distance == b.distance && a.openStatus == b.openStatus
    }

    /// Hashes what `==` compares.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(place.summary)
        hasher.combine(distance)
        hasher.combine(openStatus)
    }
}
