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

/// How a search finds and ranks places: one definition, which every engine computes alike.
///
/// A text's words are its runs of letters and digits, folded (case, accents and width: "Café" gives "cafe"). A place
/// matches when each word of the query begins a word of its name, tags, cuisine or description. Its relevance is the
/// sum, over the query's words, of the weights of the fields holding such a word: the name 10, the labels (tags and
/// cuisine) 4, the description 1. So "harbor light" scores 20 on a place called "Harbor Lighthouse", 11 when
/// "light" is only in its description.
public enum SearchText {
    /// The fields a search reads, with their weights.
    public enum Field: Int, CaseIterable, Sendable {
        case name = 10
        case labels = 4
        case description = 1

        /// What a query word found in this field adds to the relevance.
        public var weight: Int { rawValue }
    }

    /// The searchable words of a text: runs of letters and digits, folded.
    public static func words(_ text: String) -> [String] {
        // Most text is ASCII: split and lowercase its bytes directly (a million places' fields go through here when
        // they are seeded into PostgreSQL).
        if text.utf8.allSatisfy({ $0 < 0x80 }) { return asciiWords(text) }
        var words: [String] = []
        var current = ""
        func finish() {
            guard !current.isEmpty else { return }
            // Folding may split a letter into letters ("ß" → "ss") but never adds a separator.
            words.append(current.unicodeScalars.allSatisfy(\.isASCII) ? current.lowercased() : current.folded.lowercased())
            current = ""
        }
        for scalar in text.nfc.unicodeScalars {
            if scalar.properties.isAlphabetic || scalar.properties.numericType != nil {
                current.unicodeScalars.append(scalar)
            } else {
                finish()
            }
        }
        finish()
        return words
    }

    /// `words(_:)` of an ASCII text.
    private static func asciiWords(_ text: String) -> [String] {
        var words: [String] = []
        var current: [UInt8] = []
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"): current.append(byte)
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): current.append(byte + 0x20)
            default:
                if !current.isEmpty {
                    words.append(String(decoding: current, as: UTF8.self))
                    current.removeAll(keepingCapacity: true)
                }
            }
        }
        if !current.isEmpty { words.append(String(decoding: current, as: UTF8.self)) }
        return words
    }

    /// The words of each field of a place, in the order of `Field.allCases`: what the engines index.
    public static func wordsByField(name: String, tags: [String], cuisine: String?, description: String) -> [(Field, [String])] {
        [(.name, words(name)), (.labels, tags.flatMap(words) + words(cuisine ?? "")), (.description, words(description))]
    }

    /// The words of each field of a place, each field's words joined by single spaces (as `relevance` reads them).
    public static func fieldWords(name: String, tags: [String], cuisine: String?, description: String) -> [Field: String] {
        Dictionary(
            uniqueKeysWithValues: wordsByField(name: name, tags: tags, cuisine: cuisine, description: description).map { field, words in
                (field, words.joined(separator: " "))
            }
        )
    }

    /// The relevance of a place whose fields hold `fieldWords` (as `fieldWords(…)` makes them) for the query's
    /// words; 0 when some query word begins no word of any field (the place does not match).
    public static func relevance(of queryWords: [String], in fieldWords: [Field: String]) -> Int {
        var total = 0
        for word in queryWords {
            var found = 0
            for field in Field.allCases where contains(fieldWords[field] ?? "", wordStartingWith: word) { found += field.weight }
            guard found > 0 else { return 0 }
            total += found
        }
        return total
    }

    /// True when some word of the space-joined `words` starts with `prefix`.
    static func contains(_ words: String, wordStartingWith prefix: String) -> Bool {
        words.split(separator: " ").contains { $0.hasPrefix(prefix) }
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
