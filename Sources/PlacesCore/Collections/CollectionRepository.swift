import Foundation

/// Stores collections and their ordered entries; each call is one transaction.
public protocol CollectionRepository: Sendable {
    /// Stores a new, empty collection.
    func insert(_ collection: PlaceCollection) async throws
    /// The collection with this id.
    func collection(id: String) async throws -> PlaceCollection?
    /// A page of the person's own collections and those of the groups given, by name ignoring case (then as written),
    /// then id.
    func collections(ownerID: String, groupIDs: [String], page: PageRequest) async throws -> Page<PlaceCollection>
    /// How many collections the person owns, or the group has (exactly one of the two is given).
    func collectionCount(ownerID: String?, groupID: String?) async throws -> Int
    /// Saves the name and description.
    func update(_ collection: PlaceCollection) async throws
    /// Deletes the collection and its entries.
    func delete(id: String) async throws
    /// Every entry, in order (deleted places included: they come back when restored).
    func entries(collectionID: String) async throws -> [CollectionEntry]
    /// Inserts the place at `position` (0-based; nil or past the end appends) and sets the collection's `updatedAt`;
    /// `conflict` when it is there already, `not_found` when the collection does not exist, `unknown_reference`
    /// (`placeId`) when the place does not.
    func add(placeID: String, to collectionID: String, at position: Int?, by userID: String, now: Date) async throws
    /// Removes the place, setting the collection's `updatedAt`; false when it was not there.
    func remove(placeID: String, from collectionID: String, now: Date) async throws -> Bool
    /// Puts the entries in this order and sets the collection's `updatedAt`; `invalid_input` unless the order names each
    /// entry exactly once, `not_found` when there is no such collection.
    func reorder(collectionID: String, placeIDs: [String], now: Date) async throws
}
