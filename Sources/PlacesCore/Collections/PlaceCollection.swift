import Foundation
import GeoIndex

/// A named, ordered list of places: personal (its owner's alone) or a group's (every member reads and adds).
@PublicInit
public struct PlaceCollection: Sendable, Hashable, Encodable {
    /// `c-` and 16 hex digits.
    public var id: String
    /// The owner of a personal collection.
    public var ownerId: String?
    /// The group of a group collection.
    public var groupId: String?
    /// 1–80 characters.
    public var name: String
    /// Up to 500 characters.
    public var description: String?
    /// When it was made.
    public var createdAt: Date
    /// When its name, description or places last changed.
    public var updatedAt: Date

    /// `personal` or `group`.
    public var kind: String { groupId == nil ? "personal" : "group" }

    private enum CodingKeys: String, CodingKey {
        case id, ownerId, groupId, name, description, createdAt, updatedAt, kind
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(kind, forKey: .kind)
        try container.encodeIfPresent(ownerId, forKey: .ownerId)
        try container.encodeIfPresent(groupId, forKey: .groupId)
        try container.encode(name, forKey: .name)
        try container.encodeIfPresent(description, forKey: .description)
        try container.encode(createdAt, forKey: .createdAt)
        try container.encode(updatedAt, forKey: .updatedAt)
    }
}

/// One stored entry of a collection: which place, where in the order, who added it.
@PublicInit
public struct CollectionEntry: Sendable, Hashable {
    /// The place.
    public var placeID: String
    /// Who added it.
    public var addedBy: String?
    /// When.
    public var addedAt: Date
}

/// A collection with its live places in the order people gave them.
public struct CollectionDetail: Sendable, Encodable {
    /// The collection.
    public var collection: PlaceCollection
    /// Its live places, in order (a deleted place is left out until it is restored).
    public var places: [CollectionPlace]
}

/// A place as a collection lists it (its distance when the request gave a location), with who added it and when.
public typealias CollectionPlace = Listed<AddedToCollection>

/// What a collection says of a place besides the place: who added it and when.
public struct AddedToCollection: Sendable, Encodable {
    public var addedBy: String?
    public var addedAt: Date
}

extension Listed<AddedToCollection> {
    init(summary: PlaceSummary, entry: CollectionEntry, center: Coordinate?) {
        self.init(
            place: ListedPlace(summary, distanceMeters: center.map { Geodesy.distanceMeters($0, summary.coordinate) }),
            details: AddedToCollection(addedBy: entry.addedBy, addedAt: entry.addedAt)
        )
    }
}
