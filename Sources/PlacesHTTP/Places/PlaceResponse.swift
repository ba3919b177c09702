import Foundation
import PlacesCore

/// A place as the API shows it. Restaurant-only fields are absent for gems and when unknown.
public struct PlaceResponse: Encodable, Sendable {
    var id: String
    var kind: PlaceKind
    var name: String
    var description: String
    var lat: Double
    var lon: Double
    var address: String?
    var city: String?
    var tags: [String]
    var cuisine: String?
    var priceLevel: Int?
    var phone: String?
    var website: String?
    var openingHours: OpeningHours?
    var timeZone: String?
    var ownerId: String?
    var ratingAverage: Double?
    var ratingCount: Int
    var score: Double
    var createdAt: Date
    var updatedAt: Date

    /// The API view of `place`.
    public init(_ place: Place) {
        id = place.id
        kind = place.kind
        name = place.name
        description = place.description
        lat = place.coordinate.latitude
        lon = place.coordinate.longitude
        address = place.address
        city = place.city
        tags = place.tags
        cuisine = place.cuisine
        priceLevel = place.priceLevel
        phone = place.phone
        website = place.website
        openingHours = place.openingHours
        timeZone = place.timeZone
        ownerId = place.ownerID
        ratingAverage = place.rating.average
        ratingCount = place.rating.count
        score = place.rating.score
        createdAt = place.createdAt
        updatedAt = place.updatedAt
    }
}
