import Foundation
import PlacesCore

/// A place as the API shows it, written straight from the place. Restaurant-only fields are absent for gems and when
/// unknown.
public struct PlaceResponse: Encodable, Sendable {
    let place: Place
    /// How to get there, when the request said where from (`from`, or the caller's default location).
    var directions: Directions?
    /// Whether it is open at the time the request asked about (`openAt`), on its own clock.
    var openStatus: OpenStatus?
    /// Its newest photos (`GET /v1/places/{id}` shows them; other answers leave them out).
    var photos: [Photo]?

    /// The API view of `place`.
    public init(_ place: Place, directions: Directions? = nil) {
        self.place = place
        self.directions = directions
    }

    private enum CodingKeys: String, CodingKey {
        case id, kind, name, description, lat, lon, address, city, tags, cuisine, priceLevel, phone, website, openingHours, timeZone
        case ownerId, ratingAverage, ratingCount, score, createdAt, updatedAt, directions, openStatus
        case photoCount, coverPhotoURL, photos
    }

    public func encode(to encoder: any Encoder) throws {
        var fields = encoder.container(keyedBy: CodingKeys.self)
        try fields.encode(place.id, forKey: .id)
        try fields.encode(place.kind, forKey: .kind)
        try fields.encode(place.name, forKey: .name)
        try fields.encode(place.description, forKey: .description)
        try fields.encode(place.coordinate.latitude, forKey: .lat)
        try fields.encode(place.coordinate.longitude, forKey: .lon)
        try fields.encodeIfPresent(place.address, forKey: .address)
        try fields.encodeIfPresent(place.city, forKey: .city)
        try fields.encode(place.tags, forKey: .tags)
        try fields.encodeIfPresent(place.cuisine, forKey: .cuisine)
        try fields.encodeIfPresent(place.priceLevel, forKey: .priceLevel)
        try fields.encodeIfPresent(place.phone, forKey: .phone)
        try fields.encodeIfPresent(place.website, forKey: .website)
        try fields.encodeIfPresent(place.openingHours, forKey: .openingHours)
        try fields.encodeIfPresent(place.timeZone, forKey: .timeZone)
        try fields.encodeIfPresent(place.ownerID, forKey: .ownerId)
        try fields.encodeIfPresent(place.rating.average, forKey: .ratingAverage)
        try fields.encode(place.rating.count, forKey: .ratingCount)
        try fields.encode(place.rating.score, forKey: .score)
        try fields.encode(place.createdAt, forKey: .createdAt)
        try fields.encode(place.updatedAt, forKey: .updatedAt)
        try fields.encodeIfPresent(directions, forKey: .directions)
        try fields.encodeIfPresent(openStatus, forKey: .openStatus)
        if place.photoCount > 0 { try fields.encode(place.photoCount, forKey: .photoCount) }
        try fields.encodeIfPresent(place.coverPhotoID.map(Photo.url(id:)), forKey: .coverPhotoURL)
        try fields.encodeIfPresent(photos, forKey: .photos)
    }
}
