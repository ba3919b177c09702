import Foundation
import GeoIndex

/// A place people can find: a hidden gem or a restaurant, with where it is and what it offers. Its initialiser takes
/// every field; use `PlaceDraft.validated` to make one from user input.
@PublicInit
public struct Place: Sendable, Hashable, Identifiable {
    /// Stable id: from the seed file, derived from name and coordinate, or generated.
    public var id: String
    /// Gem or restaurant.
    public var kind: PlaceKind
    /// Display name (NFC, 1–200 characters).
    public var name: String
    /// Free text (NFC, up to 5,000 characters).
    public var description: String = ""
    /// Where it is (WGS-84 degrees).
    public var coordinate: Coordinate
    /// Street address, if known.
    public var address: String?
    /// City, if known.
    public var city: String?
    /// Short labels (at most 20, each up to 40 characters).
    public var tags: [String] = []
    /// Restaurant only: the cuisine.
    public var cuisine: String?
    /// Restaurant only: 1 (cheap) to 4 (expensive).
    public var priceLevel: Int?
    /// Restaurant only: phone number as written.
    public var phone: String?
    /// Restaurant only: http(s) website.
    public var website: String?
    /// Restaurant only: the weekly schedule.
    public var openingHours: OpeningHours?
    /// The place's IANA time zone, which its opening hours are in.
    public var timeZone: String?
    /// The person who added it; nil for seeded places.
    public var ownerID: String?
    /// The seed file that owns it (its file name); nil for places added through the API.
    public var seedSource: String?
    /// When it was first stored.
    public var createdAt: Date
    /// When it last changed.
    public var updatedAt: Date
    /// When it was soft-deleted; deleted places leave every query.
    public var deletedAt: Date?
    /// Its ratings in aggregate.
    public var rating: RatingAggregate = RatingAggregate()
    /// How many photos it has.
    public var photoCount: Int = 0
    /// Its newest photo's id, when it has one (its cover in lists).
    public var coverPhotoID: String?

    /// What the in-memory index keeps of this place to answer nearby queries without the database.
    public var summary: PlaceSummary {
        var summary = PlaceSummary(id: id, kind: kind, name: name, coordinate: coordinate, city: city)
        summary.tags = tags
        summary.cuisine = cuisine
        summary.description = description
        summary.priceLevel = priceLevel
        summary.rating = rating
        summary.openingHours = openingHours
        summary.timeZone = timeZone
        summary.photoCount = photoCount
        summary.coverPhotoID = coverPhotoID
        return summary
    }
}

/// What a nearby answer shows and its filters read, and the text a search reads, kept in memory beside the grid index.
///
/// A summary is its labels (id, name, city and cuisine: what an answer shows and few filters read) and its attributes
/// (what filters, orders and search read). The index keeps only the attributes as fields: the labels are in each
/// place's ready JSON already (see `IndexedPlace`), so it reads them from there rather than holding them twice.
public struct PlaceSummary: Sendable, Hashable {
    /// The place's id.
    public var id: String
    /// Display name.
    public var name: String
    /// City, if known.
    public var city: String?
    /// The cuisine, if any.
    public var cuisine: String?
    /// What filters, orders and search read.
    var attributes: PlaceAttributes

    /// Gem or restaurant.
    public var kind: PlaceKind {
        get { attributes.kind }
        set { attributes.kind = newValue }
    }

    /// Where it is.
    public var coordinate: Coordinate {
        get { attributes.coordinate }
        set { attributes.coordinate = newValue }
    }

    /// Tags, lowercase.
    public var tags: [String] {
        get { attributes.tags }
        set { attributes.tags = newValue }
    }

    /// The description: not shown in lists, but searched (the index keeps its words for search as you type).
    public var description: String {
        get { attributes.description }
        set { attributes.description = newValue }
    }

    /// The weekly schedule, if any.
    public var openingHours: OpeningHours? {
        get { attributes.openingHours }
        set { attributes.openingHours = newValue }
    }

    /// The IANA time zone its hours are in.
    public var timeZone: String? {
        get { attributes.timeZone }
        set { attributes.timeZone = newValue }
    }

    /// Its newest photo's id, when it has photos.
    public var coverPhotoID: String? {
        get { attributes.coverPhotoID }
        set { attributes.coverPhotoID = newValue }
    }

    /// How many photos it has.
    public var photoCount: Int {
        get { attributes.photoCount }
        set { attributes.photoCount = newValue }
    }

    /// Its cover photo's address, when it has photos.
    public var coverPhotoURL: String? { attributes.coverPhotoURL }

    /// Price level 1–4, if any.
    public var priceLevel: Int? {
        get { attributes.priceLevel }
        set { attributes.priceLevel = newValue }
    }

    /// Ratings in aggregate.
    public var rating: RatingAggregate {
        get { attributes.rating }
        set { attributes.rating = newValue }
    }

    /// The bytes the fields kept apart take in their own allocation (not their strings' and lists' storage).
    var rareFieldsBytes: Int { attributes.rareFieldsBytes }

    /// Makes a summary.
    public init(id: String, kind: PlaceKind, name: String, coordinate: Coordinate, city: String? = nil) {
        self.init(id: id, name: name, city: city, cuisine: nil, attributes: PlaceAttributes(kind: kind, coordinate: coordinate))
    }

    /// Makes a summary of its labels and its attributes.
    init(id: String, name: String, city: String?, cuisine: String?, attributes: PlaceAttributes) {
        self.id = id
        self.name = name
        self.city = city
        self.cuisine = cuisine
        self.attributes = attributes
    }
}

/// What nearby's filters, the orders and search read of a place: every field of its summary but the labels.
///
/// A million of these stay in memory, so they are stored compactly (the rating as two 32-bit counts, the photo count
/// and the price level after them, 48 bytes in all), equal tag lists, time zones and opening hours share their storage
/// (see the SQLite repository's `SharedValues`), and what most places lack (a description, opening hours and their
/// time zone, a cover photo) is kept apart, in one allocation of its own when a place has any of it.
struct PlaceAttributes: Sendable, Hashable {
    /// Where it is.
    var coordinate: Coordinate
    /// Tags, lowercase.
    var tags: [String] = []
    /// The fields few places have; nil when the place has none of them.
    private var rare: RareFields?
    private var ratingCount: Int32 = 0
    private var ratingSum: Int32 = 0
    private var storedPhotoCount: Int32 = 0
    /// Gem or restaurant.
    var kind: PlaceKind
    private var storedPriceLevel: Int8?

    init(kind: PlaceKind, coordinate: Coordinate) {
        self.kind = kind
        self.coordinate = coordinate
    }

    var description: String {
        get { rare?.values.description ?? "" }
        set { changeRare { $0.description = newValue } }
    }

    var openingHours: OpeningHours? {
        get { rare?.values.openingHours }
        set { changeRare { $0.openingHours = newValue } }
    }

    var timeZone: String? {
        get { rare?.values.timeZone }
        set { changeRare { $0.timeZone = newValue } }
    }

    var coverPhotoID: String? {
        get { rare?.values.coverPhotoID }
        set { changeRare { $0.coverPhotoID = newValue } }
    }

    var coverPhotoURL: String? { coverPhotoID.map(Photo.url(id:)) }

    /// Changes the fields kept apart: a new allocation holds them, or none when the place has none of them.
    private mutating func changeRare(_ change: (inout RareFields.Values) -> Void) {
        var values = rare?.values ?? RareFields.Values()
        change(&values)
        rare = values.isEmpty ? nil : RareFields(values)
    }

    /// The bytes the fields kept apart take in their own allocation (not their strings' and lists' storage).
    var rareFieldsBytes: Int {
        rare == nil ? 0 : HeapCensus.chunk(16 + MemoryLayout<RareFields.Values>.stride)
    }

    var photoCount: Int {
        get { Int(storedPhotoCount) }
        set { storedPhotoCount = Int32(clamping: newValue) }
    }

    var priceLevel: Int? {
        get { storedPriceLevel.map(Int.init) }
        set { storedPriceLevel = newValue.map { Int8(clamping: $0) } }
    }

    var rating: RatingAggregate {
        get { RatingAggregate(count: Int(ratingCount), sum: Int(ratingSum)) }
        set {
            ratingCount = Int32(clamping: newValue.count)
            ratingSum = Int32(clamping: newValue.sum)
        }
    }
}

/// A summary's fields that few places have, in an allocation of their own (never changed once made: a change makes
/// another), equal when their values are.
private final class RareFields: Sendable, Hashable {
    /// The fields themselves.
    struct Values: Sendable, Hashable {
        var description = ""
        var openingHours: OpeningHours?
        var timeZone: String?
        var coverPhotoID: String?

        /// True when the place has none of them.
        var isEmpty: Bool { description.isEmpty && openingHours == nil && timeZone == nil && coverPhotoID == nil }
    }

    let values: Values

    init(_ values: Values) {
        self.values = values
    }

    static func == (a: RareFields, b: RareFields) -> Bool { a.values == b.values }

    func hash(into hasher: inout Hasher) { hasher.combine(values) }
}

extension PlaceAttributes {
    /// The price level of the attributes at `place`, read in place (a computed property of `pointee` copies them).
    static func priceLevel(at place: UnsafePointer<PlaceAttributes>) -> Int? {
        place.pointee.storedPriceLevel.map(Int.init)
    }

    /// The ratings of the attributes at `place`, read in place.
    static func rating(at place: UnsafePointer<PlaceAttributes>) -> RatingAggregate {
        RatingAggregate(count: Int(place.pointee.ratingCount), sum: Int(place.pointee.ratingSum))
    }
}
