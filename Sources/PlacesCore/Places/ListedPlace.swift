import GeoIndex

/// What every list of places shows of one (search hits, favourites, a collection's places): which place, where, its
/// overall score, its photo count and cover (absent when it has no photos), and its distance in metres, miles and kilometres when the request gave a location (the three
/// members are absent otherwise).
public struct ListedPlace: Sendable, Encodable {
    public var id: String
    public var name: String
    public var kind: PlaceKind
    public var lat: Double
    public var lon: Double
    public var city: String?
    public var score: Double
    /// How many photos it has; absent when none.
    public var photoCount: Int?
    /// Its cover photo's address; absent when it has none.
    public var coverPhotoURL: String?
    public var distanceMeters: Double?
    public var distanceMiles: Double?
    public var distanceKm: Double?

    init(_ summary: PlaceSummary, distanceMeters: Double?) {
        id = summary.id
        name = summary.name
        kind = summary.kind
        lat = summary.coordinate.latitude
        lon = summary.coordinate.longitude
        city = summary.city
        score = summary.rating.score
        photoCount = summary.photoCount > 0 ? summary.photoCount : nil
        coverPhotoURL = summary.coverPhotoURL
        self.distanceMeters = distanceMeters
        let distance = distanceMeters.map(PlaceDistance.init(meters:))
        distanceMiles = distance?.miles
        distanceKm = distance?.kilometers
    }
}

/// A place in a list with what that list says about it: `details`' members stand beside the place's in one JSON
/// object.
public struct Listed<Details: Sendable & Encodable>: Sendable, Encodable {
    /// The place as every list shows it.
    public var place: ListedPlace
    /// What this list adds.
    public var details: Details

    public func encode(to encoder: any Encoder) throws {
        try place.encode(to: encoder)
        try details.encode(to: encoder)
    }
}
