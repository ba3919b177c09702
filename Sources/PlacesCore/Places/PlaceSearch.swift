import Foundation
import GeoIndex

/// A full-text search: words to find (each as a prefix), optionally inside a circle, one page of hits.
public struct PlaceSearchQuery: Sendable, Hashable {
    /// The words, folded as `SearchText.words` folds them, each matched as a word prefix over name, description, tags
    /// and cuisine.
    public var words: [String]
    /// Only places inside this circle, when given.
    public var circle: (center: Coordinate, radiusMeters: Double)? {
        get { center.map { ($0, radiusMeters) } }
        set {
            center = newValue?.center
            radiusMeters = newValue?.radiusMeters ?? 0
        }
    }
    private var center: Coordinate?
    private var radiusMeters: Double = 0
    /// Where the person is looking (the map's centre): among hits that match alike, nearer ones come first. It
    /// excludes nothing, and cannot be given with a circle (whose centre already orders its hits).
    public var near: Coordinate?
    /// The page asked for.
    public var page: PageRequest

    /// Most words in one query.
    public static let maximumWords = 10

    /// Parses `q`, an optional circle (`lat`, `lon`, `radius` in miles, default 5, capped at 20) or an optional bias
    /// (`near` as `LAT,LON`), and the page.
    public static func parse(
        q: String?,
        lat: String?,
        lon: String?,
        radius: String?,
        near: String? = nil,
        page: PageRequest
    ) throws(PlacesError) -> PlaceSearchQuery {
        guard let q, !q.trimmingWhitespace().isEmpty else { throw .invalid("q", "q is required: the words to search for") }
        guard q.unicodeScalars.count <= 200 else { throw .invalid("q", "q is longer than 200 characters") }
        let words = SearchText.words(q)
        guard !words.isEmpty else { throw .invalid("q", "q holds no letters or digits to search for") }
        guard words.count <= maximumWords else { throw .invalid("q", "q holds more than \(maximumWords) words") }
        var query = PlaceSearchQuery(words: words, page: page)
        if lat != nil || lon != nil || radius != nil {
            let nearby = try NearbyQuery.parse(lat: lat, lon: lon, radius: radius, limit: nil, filter: PlaceFilter())
            query.circle = (nearby.center, nearby.radiusMeters)
        }
        if let near {
            guard query.circle == nil else {
                throw .invalid("near", "near cannot be given with lat, lon or radius: inside a circle, hits come by distance from its centre")
            }
            query.near = try Directions.parseOrigin(near, field: "near")
        }
        return query
    }

    init(words: [String], page: PageRequest) {
        self.words = words
        self.page = page
    }

    public static func == (a: PlaceSearchQuery, b: PlaceSearchQuery) -> Bool {
        a.words == b.words && a.center == b.center && a.radiusMeters == b.radiusMeters && a.near == b.near && a.page == b.page
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(words)
        hasher.combine(center)
        hasher.combine(radiusMeters)
        hasher.combine(near)
        hasher.combine(page)
    }
}

/// One search hit: the place as every list shows it (its distance when the search had a circle), and how well the
/// text matched.
public typealias PlaceSearchHit = Listed<SearchMatch>

/// What a search says of a hit besides the place: its tags, cuisine, price and ratings, and how well the text matched.
public struct SearchMatch: Sendable, Encodable {
    public var tags: [String]
    public var cuisine: String?
    public var priceLevel: Int?
    public var ratingAverage: Double?
    public var ratingCount: Int
    /// How well the text matched, as `SearchText.relevance` defines it: higher is better.
    public var relevance: Double
}

extension Listed<SearchMatch> {
    /// Makes a hit from a place's summary.
    init(summary: PlaceSummary, relevance: Double, distanceMeters: Double?) {
        self.init(
            place: ListedPlace(summary, distanceMeters: distanceMeters),
            details: SearchMatch(
                tags: summary.tags,
                cuisine: summary.cuisine,
                priceLevel: summary.priceLevel,
                ratingAverage: summary.rating.average,
                ratingCount: summary.rating.count,
                relevance: relevance
            )
        )
    }
}

/// A favourite as `GET /v1/me/favorites` lists it: the place (its distance when the request gave a location), its
/// ratings and when it was favourited.
public typealias FavoritePlace = Listed<Favorite>

/// What the favourites list says of a place besides the place: its ratings and when it was favourited.
public struct Favorite: Sendable, Encodable {
    public var ratingAverage: Double?
    public var ratingCount: Int
    public var favoritedAt: Date
}

extension Listed<Favorite> {
    init(summary: PlaceSummary, favoritedAt: Date, distanceMeters: Double?) {
        self.init(
            place: ListedPlace(summary, distanceMeters: distanceMeters),
            details: Favorite(ratingAverage: summary.rating.average, ratingCount: summary.rating.count, favoritedAt: favoritedAt)
        )
    }
}
